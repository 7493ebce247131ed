"""The hint under the hand as the table page first shows it.

The table's script writes the same line (static/js/table/render/hand.js, renderActions)
once it has drawn the hand; written in the page already (its section shown, the hand's
height kept free for the cards by table.css), it is read at the first paint instead of a
second or two later on a slow phone, and the script's identical line does not paint it
again.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext


def first_hint(snapshot: dict[str, Any]) -> str:
    """What to do on your turn with nothing selected: lead (R8), or reply to k cards (R9);
    empty when it is not your turn or you already played to this trick."""
    you = snapshot.get("you") or {}
    seat = you.get("position")
    game = snapshot.get("game") or {}
    view = game.get("view") or {}
    if not isinstance(seat, int) or isinstance(seat, bool) or not view or view.get("game_over"):
        return ""
    table = view.get("table") or []
    if view.get("turn") != seat or (seat < len(table) and table[seat]):
        return ""
    k = view.get("k") or 0
    if k > 0:
        return ngettext("Select %(n)s card to beat or discard.",
                        "Select %(n)s cards to beat or discard.", k) % {"n": k}
    return gettext("Select cards of one suit to lead (double-click: lead one).")
