"""Who a message may ping. Player text (an insult, a partner's words, a name, what a form was
given) is shown with every mention defused, and each message that means to ping names exactly
the users it pings: "@everyone <@123>" typed by a player reaches nobody.

The bot's default (`RumpusBot`) allows no mention at all; a message that pings passes `only(...)`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import discord

#: A zero-width space after "@" keeps the text readable and stops Discord reading a mention
#: ("@everyone", "@here", "<@123>", "<@!123>", "<@&456>").
_AT = re.compile("@(?!\u200b)")

NOBODY = discord.AllowedMentions.none()


def neutral(text: str) -> str:
    """Player text made harmless to quote anywhere: no mention in it is read as one."""
    return _AT.sub("@\u200b", text)


def only(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Mentions allowed to ping exactly these users (a computer seat's negative id is no user);
    never a role, @everyone or @here."""
    ids = sorted({u for u in user_ids if u > 0})
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=u) for u in ids])
