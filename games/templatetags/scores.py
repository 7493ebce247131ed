"""Scores as the reader should read them: ``{% load scores %}``.

    {% team_score a b mine %}          "your team 12 – 4 theirs" when ``mine`` is the
                                       reader's team ("A"/"B"), else "A 4 – 12 B"
    {% team_score a b side name=n %}   "alice's team 12 – 4 opponents": another
                                       player's series, read from that player's side
    {% game_outcome result mine %}     "your team won 70–50", "your team lost 50–70",
                                       else "team A won 70–50"; "eggs 60–60" (R17)
    {% game_outcome result side name=n %}  "alice's team won 70–50"

A person who played reads their own side first and their team marked (UX: speak to the
person). On another player's profile or game list the reader reads that player's side
first, their team named after them; only where no player is in view (a replay watched
by someone who did not play) are the teams read by their letters (R1).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

register = template.Library()


def _side(mine: Any) -> str:
    return mine if mine in ("A", "B") else ""


@register.simple_tag
def team_score(a: int, b: int, mine: Any = "", name: str = "") -> SafeString:
    """Two teams' figures (loss points, card points): the reader's first if they played,
    else ``name``'s first when the page is about that player."""
    side = _side(mine)
    if not side:
        return format_html('<span class="team-score">{}</span>',
                           gettext("A %(a)s – %(b)s B") % {"a": a, "b": b})
    yours, theirs = (a, b) if side == "A" else (b, a)
    if name:
        return format_html('<span class="team-score is-theirs" data-team="{}">{}</span>', side,
                           gettext("%(name)s's team %(ours)s – %(theirs)s opponents")
                           % {"name": name, "ours": yours, "theirs": theirs})
    return format_html('<span class="team-score is-yours" data-team="{}">{}</span>', side,
                       gettext("your team %(yours)s – %(theirs)s theirs")
                       % {"yours": yours, "theirs": theirs})


@register.simple_tag
def game_outcome(result: Any, mine: Any = "", name: str = "") -> str:
    """One finished game's result (a ``GameResult``): who won it and by how many card
    points (R16), the winner's first; eggs (R17) when 60–60."""
    if result is None:
        return ""
    if result.eggs:
        return gettext("eggs 60–60")
    side = _side(mine)
    a, b = result.points_a, result.points_b
    if not side:
        winner_points, loser_points = (a, b) if result.winner == "A" else (b, a)
        return gettext("team %(team)s won %(a)s–%(b)s") % {
            "team": result.winner, "a": winner_points, "b": loser_points}
    yours, theirs = (a, b) if side == "A" else (b, a)
    if name:
        values = {"name": name, "ours": yours, "theirs": theirs}
        if result.winner == side:
            return gettext("%(name)s's team won %(ours)s–%(theirs)s") % values
        return gettext("%(name)s's team lost %(ours)s–%(theirs)s") % values
    if result.winner == side:
        return gettext("your team won %(yours)s–%(theirs)s") % {"yours": yours, "theirs": theirs}
    return gettext("your team lost %(yours)s–%(theirs)s") % {"yours": yours, "theirs": theirs}
