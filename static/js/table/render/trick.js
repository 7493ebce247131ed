// The centre of the felt: the current trick, each set in front of its seat with the set
// to beat outlined (R9), or the finished trick while it lingers.

import * as C from "../cards.js";
import { $, h } from "../dom.js";
import { S, me, nameOf, posOf, view } from "../state.js";

/** One played set as an element (also used by the last-trick review). */
export function setElement(entry, seat, t, { isTop }) {
  const el = h("div", {
    class: `trick-set kz-at-${posOf(seat)}${isTop ? " is-top" : ""}${entry.kind === "discard" ? " is-discard" : ""}`,
    "data-seat": seat,
    "data-kind": entry.kind,
  });
  const cards = h("div", { class: "set-cards" });
  if (entry.kind === "discard") {
    const n = entry.count ?? (entry.cards ? entry.cards.length : 1);
    for (let i = 0; i < n; i++) {
      if (entry.cards && entry.cards[i]) {
        const c = C.cardElement(entry.cards[i], { trump: t, small: true, label: false });
        c.classList.add("own-discard");
        cards.append(c);
      } else cards.append(C.backElement({ small: true }));
    }
  } else {
    for (const code of C.sortCards(entry.cards || [], t)) cards.append(C.cardElement(code, { trump: t, small: true }));
  }
  const who = nameOf(seat);
  const what = entry.kind === "discard"
    ? `discarded ${entry.count ?? (entry.cards || []).length} face down${entry.cards ? ` (${C.formatCards(entry.cards, t)})` : ""}`
    : `${entry.kind === "lead" ? "led" : "beat with"} ${C.formatCards(entry.cards || [], t)}`;
  el.setAttribute("aria-label", `${who} ${what}${isTop ? ", the set to beat" : ""}`);
  el.setAttribute("role", "group");
  el.append(cards, h("span", { class: "set-label", text: isTop ? `${who} · to beat` : who }));
  return el;
}

export function renderCentre() {
  const v = view();
  const trick = $("#kz-trick");
  trick.replaceChildren();
  trick.classList.toggle("is-lingering", Boolean(S.linger));
  if (!v) return;
  const t = C.trumpSuitOf(v);
  if (S.linger) {
    // The finished trick stays in view ~1.2 s, each set in front of its seat (UX).
    for (const e of S.linger.entries) {
      const el = setElement(e, e.seat, t, { isTop: false });
      el.classList.add("lingering");
      trick.append(el);
    }
    const who = Number.isInteger(S.linger.taker) ? nameOf(S.linger.taker) : "";
    trick.append(h("div", { class: "trick-hint linger-title", text: who ? `${who} took the trick` : "Trick taken" }));
    return;
  }
  const table = v.table || [];
  table.forEach((entry, seat) => {
    if (entry) trick.append(setElement(entry, seat, t, { isTop: seat === v.top_seat && entry.kind !== "discard" }));
  });
  if (!table.some(Boolean) && !v.game_over && Number.isInteger(v.turn)) {
    trick.append(h("div", { class: "trick-hint", text: v.turn === me() ? "Your lead" : `${nameOf(v.turn)} leads` }));
  }
}
