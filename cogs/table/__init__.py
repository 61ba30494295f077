"""The table runtime's Discord edge: lobby, controls, delivery, timers — for every game."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot import RumpusBot


async def setup(bot: RumpusBot) -> None:
    from cogs.table.cog import TableCog
    from cogs.table.records import RecordsCog
    from cogs.table.registry import load_builtin_uis

    load_builtin_uis()
    await bot.add_cog(TableCog(bot))
    await bot.add_cog(RecordsCog(bot))  # after TableCog: /game record joins its /game group
