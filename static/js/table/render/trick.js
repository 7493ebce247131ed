// The centre of the felt: the current trick, each set in front of its seat with the set
// to beat outlined (R9), or the finished trick while it lingers.

import { gettext } from "../../i18n.js";
import * as C from "../cards.js";
import { describe } from "../history.js";
import { $, h } from "../dom.js";
import { S, me, nameOf, nameParts, posOf, view } from "../state.js";

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
  // The same sentence as the history's (R19): "Ann led K♠ 8♠", "You discarded 2 cards face down".
  const play = describe({ ...entry, seat }, nameOf, t, me());
  el.setAttribute("aria-label", isTop ? gettext("%(play)s, the set to beat", { play }) : play);
  el.setAttribute("role", "group");
  // The name goes into the sentence as nodes: a phone hides a bot's level, never its name.
  const parts = nameParts(seat);
  const name = [parts.first, parts.level ? h("span", { class: "set-level", text: ` ${parts.level}` }) : null];
  const [before, after = ""] = (isTop ? gettext("%(who)s · to beat", { who: "\u0000" }) : "\u0000").split("\u0000");
  el.append(cards, h("span", { class: "set-label" }, before, ...name, after));
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
    let title = gettext("Trick taken");
    if (who) title = S.linger.taker === me() ? gettext("You took the trick") : gettext("%(who)s took the trick", { who });
    trick.append(h("div", { class: "trick-hint linger-title", text: title }));
    return;
  }
  const table = v.table || [];
  table.forEach((entry, seat) => {
    if (entry) trick.append(setElement(entry, seat, t, { isTop: seat === v.top_seat && entry.kind !== "discard" }));
  });
  if (!table.some(Boolean) && !v.game_over && Number.isInteger(v.turn)) {
    trick.append(h("div", { class: "trick-hint", text: v.turn === me() ? gettext("Your lead") : gettext("%(who)s leads", { who: nameOf(v.turn) }) }));
  }
}
