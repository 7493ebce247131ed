// Words for the public history of a game (R19): one line per entry.
//
// The engine's history entries are dicts; this reads them defensively so that a
// new field or kind never breaks the table: {seat, kind, cards?, count?, taker?}.

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

/** A short sentence for one history entry, or "" for entries not worth a line. */
export function describe(e, nameOf, trump, me = null) {
  const kind = entryKind(e);
  const seat = entrySeat(e);
  const who = seat === null ? "Someone" : nameOf(seat);
  const cards = entryCards(e);
  const shown = cards.length ? formatCards(cards, trump) : "";
  const count = Number.isInteger(e.count) ? e.count : cards.length;
  switch (kind) {
    case "lead":
      return `${who} led ${shown}`;
    case "beat":
      return `${who} beat with ${shown}`;
    case "discard":
      if (seat === me && shown) return `${who} discarded ${shown} face down`;
      return `${who} discarded ${count} card${count === 1 ? "" : "s"} face down`;
    case "molodka":
      return `${who} announced a molodka!${shown ? ` (${shown})` : ""}`;
    case "take":
    case "taken":
    case "trick":
    case "took":
    case "trick_taken":
    case "collect":
      return `${who} took the trick`;
    case "return":
    case "returned":
    case "restart":
      return shown ? `${shown} went back to ${who}` : `The trick restarted`;
    case "deal":
    case "draw":
    case "drew":
      return "";
    default:
      return shown ? `${who}: ${kind} ${shown}` : "";
  }
}
