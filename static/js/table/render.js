// render(): redraw every region of the table from S (cheap: four cards a hand), and
// mirror the phase, game, version and turn in #kz-table's data-* attributes (the
// browser tests wait on those, never act on them).

import { root } from "./dom.js";
import { renderClock } from "./render/clock.js";
import { renderActions, renderHand } from "./render/hand.js";
import { renderAway, renderHead, renderSeriesControls } from "./render/head.js";
import { renderLobby } from "./render/lobby.js";
import { renderSeriesEnd, renderSummary } from "./render/overlays.js";
import { renderSeats } from "./render/seats.js";
import { renderSide } from "./render/side.js";
import { renderCentre } from "./render/trick.js";
import { S, isLobby, me, view } from "./state.js";

export function render() {
  if (!S.snap) return;
  root.dataset.phase = isLobby() ? "lobby" : "playing";
  const v = view();
  root.dataset.gameId = S.gameId ?? "";
  root.dataset.version = S.version ?? "";
  root.dataset.turn = v && Number.isInteger(v.turn) ? v.turn : "";
  root.dataset.myTurn = v && me() !== null && v.turn === me() && !v.game_over ? "true" : "false";
  root.dataset.gameOver = v && v.game_over ? "true" : "false";
  root.classList.toggle("spectating", me() === null);
  renderHead();
  renderSeats();
  renderCentre();
  renderHand();
  renderActions();
  renderSide();
  renderLobby();
  renderSummary();
  renderSeriesEnd();
  renderClock();
  renderSeriesControls();
  renderAway();
}

/** What the connection alone changes: our seat's online mark, the absent-player
 *  countdowns, and whether the action buttons can send. The socket opening, or its first
 *  snapshot repeating the page's own but for presence, redraws only this: a full render()
 *  there is the table page's longest task on a slow phone. */
export function renderPresence() {
  if (!S.snap) return;
  renderSeats();
  renderClock();
  renderActions();
}

