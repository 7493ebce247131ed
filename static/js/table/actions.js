// Acting on the selection: select / deselect cards, send an `act` frame on the version
// you saw, and the pending state while the server answers.

import * as L from "./legality.js";
import { renderActions, renderHand } from "./render/hand.js";
import { send } from "./socket.js";
import { S, view } from "./state.js";

/** While an act is on its way the buttons are disabled (8 s at most). */
export function setPending(on) {
  S.pending = on;
  clearTimeout(S.pendingTimer);
  if (on) S.pendingTimer = setTimeout(() => setPending(false), 8000);
  renderActions();
}

export function act(kind, cards) {
  const v = view();
  if (!v || S.pending || !S.open) return;
  const frame = { type: "act", action: { kind, cards: [...cards] }, version: S.version };
  if (S.gameId !== null) frame.game_id = S.gameId;
  if (send(frame)) setPending(true);
}

function molodkaAction() {
  const v = view();
  if (!v) return null;
  const hand = v.hand || [];
  const legal = v.legal || [];
  const m = legal.find((a) => a.kind === "molodka");
  if (m) return { kind: "molodka", cards: m.cards };
  // The seat on lead simply leads its four (R11).
  const lead = legal.find((a) => a.kind === "lead" && a.cards.length === 4);
  if (lead) return { kind: "lead", cards: lead.cards };
  return { kind: "molodka", cards: hand };
}

/** Play the legal action of this kind for the selection (molodka: the whole hand). */
export function doKind(kind) {
  if (kind === "molodka") {
    const v = view();
    if (!v || !v.can_molodka) return;
    const a = molodkaAction();
    if (a) act(a.kind, a.cards);
    return;
  }
  const a = L.findAction(view(), kind, S.selected);
  if (a) act(kind, a.cards);
}

export function toggle(code) {
  if (S.pending) return;
  S.selected = S.selected.includes(code) ? S.selected.filter((c) => c !== code) : [...S.selected, code];
  S.focusCode = code;
  renderHand();
  renderActions();
}

export function setSelection(codes) {
  S.selected = [...codes];
  renderHand();
  renderActions();
}
