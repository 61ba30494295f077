"""The table runtime's Discord edge: lobby, controls, delivery, timers — for every game."""

from __future__ import annotations

from discord.ext import commands


async def setup(bot: commands.Bot) -> None:
    """Add the table's cogs to a bot that carries its table edge as `bot.tables`."""
    from cogs.table.cog import TableCog
    from cogs.table.records import RecordsCog
    from cogs.table.registry import load_builtin_uis

    load_builtin_uis()
    await bot.add_cog(TableCog(bot))
    await bot.add_cog(RecordsCog(bot))  # type: ignore[arg-type]  # after TableCog: /game record joins /game
