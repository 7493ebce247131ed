// The live Kozel table: the entry module that wires the parts under table/ together.
// Native ES modules, no framework, no build step.
//
// The server is the only judge of the rules: the page renders the snapshot and the
// versioned events of games/WEBSOCKET.md, lets the player select cards, shows an action
// button only when `view.legal` holds exactly that card set, and sends `act` frames.
//   table/state.js    S: the last snapshot, the current view/version, the selection
//   table/socket.js   connect / reconnect with backoff; stop when the table is gone
//   table/frames.js   what each frame means, the version rules
//   table/render.js   render() redraws every region (table/render/*.js) from S
//   table/actions.js  selection and `act` frames; table/input.js clicks and keys
//   table/moments.js  announcements, molodka fly-back, trick linger

import { setPending } from "./table/actions.js";
import { bindFourColourToggle } from "./table/cards.js";
import { $, root } from "./table/dom.js";
import { onFrame, onSnapshot } from "./table/frames.js";
import { bindInput } from "./table/input.js";
import { render, renderPresence } from "./table/render.js";
import { markRenderedChat } from "./table/render/chat.js";
import { tickClock } from "./table/render/clock.js";
import { fitNames } from "./table/render/seats.js";
import { resync, send, startSocket } from "./table/socket.js";
import { S } from "./table/state.js";

function init() {
  if (!root) return;
  root.classList.add("js");
  bindFourColourToggle($("#kz-four-colour"));
  bindInput();
  markRenderedChat();
  const initial = document.getElementById("initial-snapshot");
  if (initial) {
    try {
      const snap = JSON.parse(initial.textContent);
      if (snap && typeof snap === "object") onSnapshot({ type: "snapshot", ...snap });
    } catch {
      /* the socket's snapshot will follow */
    }
  }
  startSocket({
    onFrame,
    onOpen: renderPresence,
    onClose: () => setPending(false),
  });
  window.addEventListener("resize", fitNames);
  keepRoomForTheDock($("#kz-hand-area"));
  setInterval(tickClock, 250);
  setInterval(() => send({ type: "ping", nonce: Date.now() }), 20000);
}

/** On a phone the hand area is fixed to the bottom edge (table.css): the page keeps that
 * much room below its end, so the last of the page can still be scrolled into view. */
function keepRoomForTheDock(area) {
  if (!area || !window.ResizeObserver) return;
  const measure = () => {
    const fixed = getComputedStyle(area).position === "fixed";
    document.body.style.setProperty("--kz-dock", `${fixed ? area.offsetHeight : 0}px`);
  };
  new ResizeObserver(measure).observe(area);
  window.addEventListener("resize", measure);
}

init();

// A handle for the console and the browser tests (e.g. to drop the socket on purpose).
window.kozelTable = { state: S, resync };
export { S as state };
