// Your hand along the bottom and what you can do with the selection: the Lead / Beat /
// Discard / Molodka buttons, the helpers, the one-line reason and the hint.
//
// The buttons come from view.legal alone (legality.js); clicks are wired in input.js.

import { gettext, ngettext } from "../../i18n.js";
import * as C from "../cards.js";
import * as L from "../legality.js";
import { $, h } from "../dom.js";
import { S, me, nameOf, view } from "../state.js";

export function renderHand() {
  const v = view();
  const area = $("#kz-hand-area");
  const handEl = $("#kz-hand");
  if (!v) {
    area.hidden = true;
    handEl.replaceChildren();
    return;
  }
  if (me() === null) {
    area.hidden = false;
    handEl.replaceChildren(h("p", { class: "muted spectator-note", text: gettext("You are watching this table.") }));
    return;
  }
  area.hidden = false;
  const t = C.trumpSuitOf(v);
  const hadFocus = handEl.contains(document.activeElement) ? document.activeElement.dataset.code : null;
  const cards = C.sortCards(v.hand || [], t);
  const current = [...handEl.querySelectorAll(".hand-card")];
  if (current.length === cards.length && current.every((b, i) => b.dataset.code === cards[i])) {
    // Same cards: update in place, so focus, hover and double-clicks survive a render.
    for (const b of current) b.setAttribute("aria-pressed", S.selected.includes(b.dataset.code) ? "true" : "false");
    return;
  }
  handEl.replaceChildren();
  cards.forEach((code) => {
    const sel = S.selected.includes(code);
    handEl.append(h("button", {
      type: "button",
      class: `hand-card card${code[1] === t ? " trump" : ""}${S.drawn && S.drawn.has(code) ? " drawn" : ""}`,
      "data-code": code,
      "aria-label": C.cardLabel(code),
      "aria-pressed": sel ? "true" : "false",
      html: C.cardSvg(code, { trump: t }),
    }));
  });
  handEl.setAttribute("aria-label", ngettext("Your hand: %(n)s card", "Your hand: %(n)s cards", cards.length));
  const focusCode = hadFocus || null;
  if (focusCode) {
    const f = handEl.querySelector(`[data-code="${focusCode}"]`) || handEl.querySelector("button");
    if (f) f.focus({ preventScroll: true });
  }
}

export function renderActions() {
  if (!S.snap) return;
  const v = view();
  const bar = $("#kz-actions");
  const reason = $("#kz-reason");
  const helpers = $("#kz-helpers");
  const mine = me() !== null && v && !v.game_over;
  const kinds = mine ? L.legalKindsFor(v, S.selected) : new Set();
  const disabled = S.pending || !S.open;
  for (const kind of ["lead", "beat", "discard"]) {
    const b = bar.querySelector(`[data-kind="${kind}"]`);
    b.hidden = !kinds.has(kind);
    b.disabled = disabled;
  }
  const mb = $("#kz-molodka");
  mb.hidden = !(mine && v.can_molodka);
  mb.disabled = disabled;
  // Helpers when replying to k cards (R9): pre-select, never act.
  const replying = mine && v.turn === me() && (v.k || 0) > 0 && !(v.table || [])[me()];
  const t = C.trumpSuitOf(v);
  const best = replying ? L.bestBeat(v, t) : null;
  $("#kz-best-beat").hidden = !best;
  $("#kz-discard-lowest").hidden = !replying;
  $("#kz-clear").hidden = !(mine && S.selected.length);
  helpers.hidden = !(replying || (mine && S.selected.length));
  const why = mine ? L.explain(v, me(), S.selected, t, (s) => nameOf(s)) : null;
  reason.textContent = why ? why.text : "";
  reason.className = `kz-reason${why ? ` is-${why.kind}` : ""}`;
  $("#kz-learn-beating").hidden = !(why && why.about === "beating");
  bar.classList.toggle("is-pending", S.pending);
  const hint = $("#kz-hint");
  // The page may hold this very line already (games/first_hint.py): write only a change,
  // so the same words are not painted twice.
  let hintText = "";
  if (mine && !S.selected.length && v.turn === me() && !(v.table || [])[me()]) {
    hintText = (v.k || 0) > 0
      ? ngettext("Select %(n)s card to beat or discard.", "Select %(n)s cards to beat or discard.", v.k)
      : gettext("Select cards of one suit to lead (double-click: lead one).");
  }
  if (hint.textContent !== hintText) hint.textContent = hintText;
}
