"""mypy plugin: `view.get("key")` on a TypedDict must name a declared key (issue 22).

mypy types `td.get("undeclared")` as `object` without a word, so a key renamed in a game's
schema would go unnoticed wherever it is read with `.get` (most NotRequired keys are). This
reports it as mypy reports `td["undeclared"]` (same message, code `typeddict-item`), then hands
the call to mypy's own hook, so the types it infers do not change. pyproject's [tool.mypy]
loads it by path (`plugins`); it is a lint tool, not part of the shipped packages.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.plugin import MethodContext, Plugin
from mypy.plugins.common import try_getting_str_literals
from mypy.plugins.default import typed_dict_get_callback
from mypy.types import Type, TypedDictType, get_proper_type

#: The method mypy resolves a TypedDict's `.get` to (its default plugin hooks the same name).
GET = "typing.Mapping.get"


def check_get(ctx: MethodContext) -> Type:
    """Report each literal key of `.get` that the TypedDict does not declare."""
    typed = get_proper_type(ctx.type)
    if isinstance(typed, TypedDictType) and ctx.args and len(ctx.args[0]) == 1:
        keys = try_getting_str_literals(ctx.args[0][0], ctx.arg_types[0][0]) or []
        for key in keys:
            if key not in typed.items:
                ctx.api.msg.typeddict_key_not_found(typed, key, ctx.context)
    return typed_dict_get_callback(ctx)


class TypedDictGetPlugin(Plugin):
    """Hooks `.get` ahead of mypy's default plugin (custom plugins are asked first)."""

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return check_get if fullname == GET else None


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point."""
    return TypedDictGetPlugin
