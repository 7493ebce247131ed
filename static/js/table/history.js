// Words for the public history of a game (R19): one line per entry.
//
// The engine's history entries are dicts; this reads them defensively so that a
// new field or kind never breaks the table: {seat, kind, cards?, count?, taker?}.

import { gettext, ngettext } from "../i18n.js";
import { formatCards, isCode } from "./cards.js";

export function entryKind(e) {
  if (!e || typeof e !== "object") return "";
  return String(e.kind || e.type || e.event || (e.action && e.action.kind) || "");
}

export function entryCards(e) {
  const cards = e.cards || (e.action && e.action.cards) || [];
  return Array.isArray(cards) ? cards.filter(isCode) : [];
}

export function entrySeat(e) {
  for (const key of ["seat", "taker", "player", "by"]) {
    if (Number.isInteger(e[key])) return e[key];
  }
  return null;
}

/**
 * A short sentence for one history entry, or "" for entries not worth a line.
 * `me` is the seat whose own discards may be named; `you` (default `me`) the seat told
 * "You ..." (the replay names every seat, so it passes null).
 */
export function describe(e, nameOf, trump, me = null, { you = me } = {}) {
  const kind = entryKind(e);
  const seat = entrySeat(e);
  const yours = seat !== null && seat === you;
  const who = seat === null ? gettext("Someone") : nameOf(seat);
  const cards = entryCards(e);
  const shown = cards.length ? formatCards(cards, trump) : "";
  const count = Number.isInteger(e.count) ? e.count : cards.length;
  switch (kind) {
    case "lead":
      return yours ? gettext("You led %(cards)s", { cards: shown }) : gettext("%(who)s led %(cards)s", { who, cards: shown });
    case "beat":
      return yours
        ? gettext("You beat with %(cards)s", { cards: shown })
        : gettext("%(who)s beat with %(cards)s", { who, cards: shown });
    case "discard":
      if (seat === me && shown) {
        return yours
          ? gettext("You discarded %(cards)s face down", { cards: shown })
          : gettext("%(who)s discarded %(cards)s face down", { who, cards: shown });
      }
      return yours
        ? ngettext("You discarded %(n)s card face down", "You discarded %(n)s cards face down", count)
        : ngettext("%(who)s discarded %(n)s card face down", "%(who)s discarded %(n)s cards face down", count, { who });
    case "molodka": {
      const line = yours ? gettext("You announced a molodka!") : gettext("%(who)s announced a molodka!", { who });
      return shown ? `${line} (${shown})` : line;
    }
    case "take":
    case "taken":
    case "trick":
    case "took":
    case "trick_taken":
    case "collect":
      return yours ? gettext("You took the trick") : gettext("%(who)s took the trick", { who });
    case "return":
    case "returned":
    case "restart":
      if (!shown) return gettext("The trick restarted");
      return yours
        ? gettext("%(cards)s went back to your hand", { cards: shown })
        : gettext("%(cards)s went back to %(who)s", { cards: shown, who });
    case "deal":
    case "draw":
    case "drew":
      return "";
    default:
      return shown ? `${who}: ${kind} ${shown}` : "";
  }
}
