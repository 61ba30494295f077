"""Discord's form validation a bot can trip over: 400 / code 50035 "Invalid Form Body".

Limits follow Discord's documentation (messages, embeds, components, modals, commands).
"""

from __future__ import annotations

import re
from typing import Any

import emoji as emoji_data

from .components import ACTION_ROW, BUTTON, LABEL, SELECT_TYPES, TEXT_DISPLAY, TEXT_INPUT, iter_components
from .errors import ApiError, empty_message

COMPONENTS_V2 = 1 << 15
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


class FormErrors:
    """Collects errors in Discord's nested `{"field": {"_errors": [...]}}` shape."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_len(self, path: tuple[str | int, ...], value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def required(self, path: tuple[str | int, ...], value: Any) -> None:
        if value in (None, ""):
            self.add(path, "BASE_TYPE_REQUIRED", "This field is required")

    def raise_if_any(self) -> None:
        if self.tree:
            raise ApiError(400, 50035, "Invalid Form Body", self.tree)


def check_message(payload: dict[str, Any], *, creating: bool, attachments: int = 0) -> None:
    """Validate a message create/edit body (also interaction responses and webhooks)."""
    errs = FormErrors()
    content = payload.get("content")
    errs.max_len(("content",), content, 2000)
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        errs.add(("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        total += _check_embed(errs, ("embeds", i), embed)
    if total > 6000:
        errs.add(("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    components = payload.get("components") or []
    v2 = bool((payload.get("flags") or 0) & COMPONENTS_V2)
    _check_components(errs, components, v2=v2)
    if attachments > 10:
        errs.add(("attachments",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    if v2 and (content or embeds):
        errs.add(("content",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                 "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2")
    errs.raise_if_any()
    if creating and not (content or embeds or components or attachments or payload.get("sticker_ids")
                         or payload.get("poll")):
        raise empty_message()


def _check_embed(errs: FormErrors, path: tuple[str | int, ...], embed: dict[str, Any]) -> int:
    size = 0
    for key, limit in (("title", 256), ("description", 4096)):
        value = embed.get(key) or ""
        errs.max_len((*path, key), value, limit)
        size += len(value)
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errs.add((*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, f in enumerate(fields):
        name, value = f.get("name") or "", f.get("value") or ""
        errs.required((*path, "fields", i, "name"), name)
        errs.required((*path, "fields", i, "value"), value)
        errs.max_len((*path, "fields", i, "name"), name, 256)
        errs.max_len((*path, "fields", i, "value"), value, 1024)
        size += len(name) + len(value)
    footer = (embed.get("footer") or {}).get("text") or ""
    errs.max_len((*path, "footer", "text"), footer, 2048)
    author = (embed.get("author") or {}).get("name") or ""
    errs.max_len((*path, "author", "name"), author, 256)
    return size + len(footer) + len(author)


def _check_components(errs: FormErrors, components: list[dict[str, Any]], *, v2: bool) -> None:
    if not v2 and len(components) > 5:
        errs.add(("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    if v2 and sum(1 for _ in iter_components(components)) > 40:
        errs.add(("components",), "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED", "Must be 40 or fewer in total.")
    seen: set[str] = set()
    for i, comp in enumerate(components):
        path: tuple[str | int, ...] = ("components", i)
        if not v2 and comp.get("type") != ACTION_ROW:
            errs.add((*path, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
            continue
        for sub_path, c in _walk(path, comp):
            _check_component(errs, sub_path, c, seen)


def _walk(path: tuple[str | int, ...], comp: dict[str, Any]):
    yield path, comp
    for j, child in enumerate(comp.get("components") or []):
        yield from _walk((*path, "components", j), child)
    if "accessory" in comp:
        yield from _walk((*path, "accessory"), comp["accessory"])


def _check_component(errs: FormErrors, path: tuple[str | int, ...], c: dict[str, Any], seen: set[str]) -> None:
    ctype = c.get("type")
    if ctype == ACTION_ROW:
        children = c.get("components") or []
        kinds = {ch.get("type") for ch in children}
        if not children:
            errs.add((*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        elif kinds & set(SELECT_TYPES) and len(children) > 1:
            errs.add((*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                     "The specified component exceeds the maximum width")
        elif len(children) > 5:
            errs.add((*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        return
    if "custom_id" in c or ctype in (*SELECT_TYPES, TEXT_INPUT) or (ctype == BUTTON and c.get("style") != 5):
        cid = c.get("custom_id")
        if ctype == BUTTON and c.get("style") in (5, 6):
            pass
        elif not cid:
            errs.required((*path, "custom_id"), cid)
        else:
            errs.max_len((*path, "custom_id"), cid, 100)
            if cid in seen:
                errs.add((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                         "Component custom id cannot be duplicated")
            seen.add(cid)
    if c.get("emoji") is not None:
        check_emoji(errs, (*path, "emoji"), c["emoji"])
    if ctype == BUTTON:
        errs.max_len((*path, "label"), c.get("label"), 80)
        if c.get("style") == 5 and not c.get("url"):
            errs.required((*path, "url"), c.get("url"))
        if not c.get("label") and not c.get("emoji") and c.get("style") != 6:
            errs.add((*path, "label"), "BUTTON_COMPONENT_MISSING_LABEL_OR_EMOJI", "A label or emoji is required")
    elif ctype in SELECT_TYPES:
        errs.max_len((*path, "placeholder"), c.get("placeholder"), 150)
        if ctype == 3:
            options = c.get("options") or []
            if not 1 <= len(options) <= 25:
                errs.add((*path, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
            values: set[str] = set()
            for k, opt in enumerate(options):
                for key in ("label", "value", "description"):
                    errs.max_len((*path, "options", k, key), opt.get(key), 100)
                errs.required((*path, "options", k, "label"), opt.get("label"))
                if opt.get("emoji") is not None:
                    check_emoji(errs, (*path, "options", k, "emoji"), opt["emoji"])
                errs.required((*path, "options", k, "value"), opt.get("value"))
                if opt.get("value") in values:
                    errs.add((*path, "options", k, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                             "Select component option values cannot be duplicated")
                values.add(opt.get("value"))
            hi = c.get("max_values", 1)
            if hi > max(len(options), 1):
                errs.add((*path, "max_values"), "BASE_TYPE_MAX", f"int value should be <= {len(options)}.")
        lo, hi = c.get("min_values", 1), c.get("max_values", 1)
        if not 0 <= lo <= 25 or not 1 <= hi <= 25 or lo > hi:
            errs.add((*path, "min_values"), "BASE_TYPE_BAD_INT", "min/max values must be 0-25 and min <= max")
    elif ctype == TEXT_DISPLAY:
        errs.max_len((*path, "content"), c.get("content"), 4000)


def check_emoji(errs: FormErrors, path: tuple[Any, ...], partial: dict[str, Any]) -> None:
    """A component emoji is a custom one (an id) or one real Unicode emoji: Discord answers
    "Invalid emoji" for any other character (🂠, a letter, two emoji)."""
    if partial.get("id"):
        return
    name = partial.get("name") or ""
    if not emoji_data.is_emoji(name):
        errs.add((*path, "name"), "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")


def check_modal(data: dict[str, Any]) -> None:
    """A modal (interaction callback type 9): title ≤ 45, ≤ 5 inputs, labels ≤ 45."""
    errs = FormErrors()
    errs.required(("data", "title"), data.get("title"))
    errs.max_len(("data", "title"), data.get("title"), 45)
    errs.required(("data", "custom_id"), data.get("custom_id"))
    errs.max_len(("data", "custom_id"), data.get("custom_id"), 100)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errs.add(("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    seen: set[str] = set()
    for i, top in enumerate(components):
        path: tuple[str | int, ...] = ("data", "components", i)
        if top.get("type") == ACTION_ROW:
            inner = top.get("components") or []
            if len(inner) != 1 or inner[0].get("type") != TEXT_INPUT:
                errs.add((*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must hold exactly one text input.")
                continue
            _check_input(errs, (*path, "components", 0), inner[0], inner[0].get("label"), seen)
        elif top.get("type") == LABEL:
            errs.required((*path, "label"), top.get("label"))
            errs.max_len((*path, "label"), top.get("label"), 45)
            errs.max_len((*path, "description"), top.get("description"), 100)
            inner_c = top.get("component") or {}
            _check_input(errs, (*path, "component"), inner_c, None, seen)
        elif top.get("type") == TEXT_DISPLAY:
            errs.max_len((*path, "content"), top.get("content"), 4000)
        else:
            errs.add((*path, "type"), "UNION_TYPE_CHOICES", "Modal components must be rows, labels or text.")
    errs.raise_if_any()


def _check_input(errs: FormErrors, path: tuple[str | int, ...], c: dict[str, Any], label: str | None,
                 seen: set[str]) -> None:
    cid = c.get("custom_id")
    errs.required((*path, "custom_id"), cid)
    errs.max_len((*path, "custom_id"), cid, 100)
    if cid in seen:
        errs.add((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    seen.add(cid)
    if c.get("type") == TEXT_INPUT:
        if label is not None or "label" in c:
            errs.required((*path, "label"), c.get("label"))
            errs.max_len((*path, "label"), c.get("label"), 45)
        errs.max_len((*path, "placeholder"), c.get("placeholder"), 100)
        errs.max_len((*path, "value"), c.get("value"), 4000)
        lo, hi = c.get("min_length", 0), c.get("max_length", 4000)
        if not 0 <= lo <= 4000 or not 1 <= hi <= 4000 or lo > hi:
            errs.add((*path, "max_length"), "BASE_TYPE_BAD_INT", "min/max length must be 0-4000, min <= max")
    elif c.get("type") in SELECT_TYPES:
        _check_component(errs, path, c, set())


def check_commands(commands: list[dict[str, Any]], *, path: tuple[str | int, ...] = ()) -> None:
    """Application command schemas: names, descriptions, ≤ 25 options/choices, required first."""
    errs = FormErrors()
    if len(commands) > 100:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    names: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        ctype = cmd.get("type", 1)
        key = (ctype, cmd.get("name", ""))
        if key in names:
            errs.add((*path, i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        names.add(key)
        _check_command_node(errs, (*path, i), cmd, chat=ctype == 1, depth=0)
    errs.raise_if_any()


def _check_command_node(errs: FormErrors, path: tuple[str | int, ...], node: dict[str, Any], *, chat: bool,
                        depth: int) -> None:
    name = node.get("name") or ""
    if chat and (not COMMAND_NAME.match(name) or name != name.lower()):
        errs.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
    elif not chat and not 1 <= len(name) <= 32:
        errs.add((*path, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
    if chat:
        desc = node.get("description") or ""
        if not 1 <= len(desc) <= 100:
            errs.add((*path, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    options = node.get("options") or []
    if len(options) > 25:
        errs.add((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    seen_optional = False
    for j, opt in enumerate(options):
        opath = (*path, "options", j)
        otype = opt.get("type")
        if otype in (1, 2):
            if depth >= (1 if otype == 2 else 2) or (otype == 2 and depth > 0):
                errs.add((*opath, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands nested too deep")
            _check_command_node(errs, opath, opt, chat=True, depth=depth + 1)
            continue
        _check_command_node(errs, opath, opt, chat=True, depth=depth + 1)
        if opt.get("required"):
            if seen_optional:
                errs.add((*opath, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                         "Required options must be placed before non-required options")
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            errs.add((*opath, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
