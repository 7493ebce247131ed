// Client-side explanation of a card selection (display only: the server judges).
//
// The buttons come from `view.legal` alone: a button for kind X is shown iff some
// legal action of kind X has exactly the selected card set. This module only says,
// in one short line naming the rule, why the selection is not (fully) legal, and
// offers the "Best beat" / "Discard lowest" pre-selections.

import { gettext, ngettext } from "../i18n.js";
import { beats, canBeat, points, rankIndex, symbol } from "./cards.js";

const sameSet = (a, b) => a.length === b.length && a.every((c) => b.includes(c));

/** The kinds (lead/beat/discard/molodka) legal for exactly this selection. */
export function legalKindsFor(view, selection) {
  const kinds = new Set();
  if (!view || !Array.isArray(view.legal) || selection.length === 0) return kinds;
  for (const action of view.legal) {
    if (action && Array.isArray(action.cards) && sameSet(action.cards, selection)) kinds.add(action.kind);
  }
  return kinds;
}

/** The legal action of `kind` for exactly this selection, or null. */
export function findAction(view, kind, selection) {
  if (!view || !Array.isArray(view.legal)) return null;
  return view.legal.find((a) => a.kind === kind && sameSet(a.cards, selection)) || null;
}

/** The top set (R9) currently to be beaten, as card codes, or []. */
export function topSet(view) {
  if (!view || view.top_seat === null || view.top_seat === undefined) return [];
  const entry = (view.table || [])[view.top_seat];
  return entry && Array.isArray(entry.cards) && entry.kind !== "discard" ? entry.cards : [];
}

export function isLeading(view) {
  return !view.k && (view.table || []).every((e) => !e);
}

/**
 * One short line naming the rule, or null when there is nothing to say.
 * `me` is the viewer's seat, `nameOf(seat)` a display name.
 * Returns {text, kind: "error" | "hint", about}; `about` is "beating" when the line
 * explains why a set cannot beat (R7, R9).
 */
export function explain(view, me, selection, trump, nameOf = (s) => gettext("Seat %(n)s", { n: s + 1 })) {
  if (!view || me === null || me === undefined || view.game_over || selection.length === 0) return null;
  const kinds = legalKindsFor(view, selection);
  const hand = view.hand || [];
  if (kinds.has("molodka") || (view.can_molodka && selection.length === hand.length && hand.length === 4 && sameSet(selection, hand))) {
    return null;
  }
  const table = view.table || [];
  if (table[me]) return { kind: "error", text: gettext("You have already played to this trick (R9).") };
  if (view.turn !== me) {
    if (view.turn === null || view.turn === undefined) return { kind: "error", text: gettext("Not your turn (R9).") };
    return { kind: "error", text: gettext("Not your turn: %(who)s plays now (R9).", { who: nameOf(view.turn) }) };
  }
  const k = view.k || 0;
  if (isLeading(view)) {
    if (kinds.has("lead")) return null;
    const suits = new Set(selection.map((c) => c[1]));
    if (suits.size > 1) return { kind: "error", text: gettext("Lead: cards must be of one suit (R8).") };
    if (selection.length > 4) return { kind: "error", text: gettext("Lead: at most 4 cards (R8).") };
    return { kind: "error", text: gettext("This lead is not legal now.") };
  }
  if (selection.length !== k) {
    return { kind: "error", text: ngettext("Select exactly %(n)s card (R8).", "Select exactly %(n)s cards (R8).", k) };
  }
  if (kinds.has("beat")) return null;
  const top = topSet(view);
  const why = whyNoBeat(selection, top, trump);
  // `about: "beating"`: the table offers the lesson on beating next to this line.
  const about = why ? "beating" : null;
  if (kinds.has("discard")) {
    return why ? { kind: "hint", about, text: gettext("%(why)s You may discard them face down (R9).", { why }) } : null;
  }
  return { kind: "error", about, text: why || gettext("This selection is not a legal play now.") };
}

/** Why `cards` cannot beat `top` (R7/R9), or null if they can. */
export function whyNoBeat(cards, top, trump) {
  if (!top.length || cards.length !== top.length) return null;
  if (canBeat(cards, top, trump)) return null;
  if (top.length === 1) {
    return gettext("Beat: the %(card)s cannot beat the %(top)s (R7).", { card: symbol(cards[0]), top: symbol(top[0]) });
  }
  for (const y of top) {
    if (!cards.some((x) => beats(x, y, trump))) {
      return gettext("Beat: none of your cards beats the %(top)s (R7).", { top: symbol(y) });
    }
  }
  for (const x of cards) {
    if (!top.some((y) => beats(x, y, trump))) {
      return gettext("Beat: the %(card)s beats no card of the top set (R7).", { card: symbol(x) });
    }
  }
  return gettext("Beat: each card must beat a different card of the top set (R9).");
}

const trumpCount = (cards, trump) => cards.filter((c) => c[1] === trump).length;
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** R9 helper: the cheapest legal beat by card points (then fewer trumps, lower ranks). */
export function bestBeat(view, trump) {
  const beatsList = (view && view.legal ? view.legal : []).filter((a) => a.kind === "beat");
  if (!beatsList.length) return null;
  const cost = (a) => [sum(a.cards.map(points)), trumpCount(a.cards, trump), sum(a.cards.map(rankIndex))];
  beatsList.sort((a, b) => {
    const ca = cost(a), cb = cost(b);
    for (let i = 0; i < ca.length; i++) if (ca[i] !== cb[i]) return ca[i] - cb[i];
    return 0;
  });
  return beatsList[0].cards.slice();
}

/** R9 helper: the lowest k cards of the hand (points, then non-trump first, then rank). */
export function discardLowest(view, trump) {
  const k = (view && view.k) || 0;
  const hand = (view && view.hand) || [];
  if (!k || hand.length < k) return null;
  const key = (c) => [points(c), c[1] === trump ? 1 : 0, rankIndex(c)];
  const sorted = [...hand].sort((a, b) => {
    const ka = key(a), kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  });
  const pick = sorted.slice(0, k);
  // Prefer a pick the server lists as a legal discard (it always should be).
  return pick;
}
