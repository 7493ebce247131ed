// The table's WebSocket (games/WEBSOCKET.md): connect, reconnect with backoff, send
// frames, ask for a resync, and stop for good once the table is gone or forbidden.
//
// What a frame means is frames.js's job; the entry passes it in as hooks.onFrame.

import { gettext } from "../i18n.js";
import { root } from "./dom.js";
import { showBanner } from "./notices.js";
import { S, baseUrl } from "./state.js";

// Why we stop reconnecting, by the HTTP status of the table page.
const REFUSED = {
  403: gettext("You cannot watch this private table."),
  404: gettext("This table no longer exists."),
};
// A browser never sees the 4403/4404 close codes: daphne answers a refused handshake with
// HTTP 403, so the socket closes with 1006 before ever opening, exactly as when the server
// is down. After this many such sockets in a row, ask the table page which one it is.
const CHECK_AFTER_FAILED_OPENS = 3;

let hooks = { onFrame() {}, onOpen() {}, onClose() {} };

function wsUrl() {
  const path = root.dataset.wsPath || `/ws/table/${root.dataset.tableId}/`;
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

/** Open the socket; hooks: onFrame(frame), onOpen(), onClose() (each optional). */
export function startSocket(given = {}) {
  hooks = { ...hooks, ...given };
  connect();
}

function connect() {
  clearTimeout(S.retryTimer);
  let ws;
  try {
    ws = new WebSocket(wsUrl());
  } catch {
    scheduleReconnect();
    return;
  }
  S.ws = ws;
  let opened = false;
  ws.addEventListener("open", () => {
    if (S.ws !== ws) return;
    opened = true;
    S.open = true;
    S.retry = 0;
    S.failedOpens = 0;
    showBanner(null);
    if (S.everOpened) send({ type: "resync" });
    S.everOpened = true;
    hooks.onOpen();
  });
  ws.addEventListener("message", (ev) => {
    if (S.ws !== ws) return;
    let frame;
    try {
      frame = JSON.parse(ev.data);
    } catch {
      return;
    }
    hooks.onFrame(frame);
  });
  ws.addEventListener("close", (ev) => {
    if (S.ws !== ws) return;
    S.open = false;
    S.ws = null;
    hooks.onClose();
    // A suspension already said everything (frames.js): no banner, no reconnecting.
    if (S.stopped) return;
    // Only in-process clients see these codes; a browser gets 1006 (see above).
    if (ev.code === 4403 || ev.code === 4404) {
      stop(REFUSED[ev.code === 4403 ? 403 : 404]);
      return;
    }
    showBanner(gettext("Connection lost — reconnecting…"));
    if (!opened) S.failedOpens += 1;
    if (S.failedOpens >= CHECK_AFTER_FAILED_OPENS) checkTableThenReconnect();
    else scheduleReconnect();
  });
}

function stop(text) {
  S.stopped = true;
  clearTimeout(S.retryTimer);
  showBanner(text);
}

// The table page answers 404 for an unknown table and for a private table this visitor
// may not view (403 is handled too); anything else, or no answer, means try again.
async function checkTableThenReconnect() {
  let status = 0;
  try {
    const res = await fetch(baseUrl(), { method: "GET", credentials: "same-origin", cache: "no-store" });
    status = res.status;
  } catch {
    /* the server is unreachable: keep trying */
  }
  if (REFUSED[status]) stop(REFUSED[status]);
  else scheduleReconnect();
}

function scheduleReconnect() {
  if (S.stopped) return;
  // Exponential backoff 0.5 s doubling to 8 s, with ±25 % jitter.
  const base = Math.min(8000, 500 * 2 ** S.retry);
  const delay = base * (0.75 + Math.random() * 0.5);
  S.retry = Math.min(S.retry + 1, 8);
  clearTimeout(S.retryTimer);
  S.retryTimer = setTimeout(connect, delay);
}

/** Send a frame if the socket is open; false if it is not. */
export function send(frame) {
  if (!S.ws || !S.open) return false;
  S.ws.send(JSON.stringify(frame));
  return true;
}

/** Ask for a fresh snapshot (a version gap, a new game, any doubt): one at a time, 3 s at most. */
export function resync() {
  if (S.resyncing) return;
  if (send({ type: "resync" })) {
    S.resyncing = true;
    setTimeout(() => (S.resyncing = false), 3000);
  }
}
