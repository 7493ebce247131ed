// The live Kozel table: one ES module, no framework, no build step.
//
// The server is the only judge (DESIGN.md): this module renders the snapshot and
// the versioned events of games/WEBSOCKET.md, lets the player select cards, shows
// an action button only when `view.legal` holds exactly that card set, and sends
// `act` frames. Structure:
//   state        S: the last snapshot, the current view/version, the selection
//   socket       connect / reconnect with backoff, frame handlers, version rules
//   rendering    render() redraws every region from S (cheap: 4 cards a hand)
//   input        clicks, double-click lead, keyboard (←/→ Space Enter L B D M Z)
//   moments      announcements (aria-live), molodka fly-back, trick linger,
//                end-of-game summary, end-of-series goat

import * as C from "./table/cards.js";
import * as L from "./table/legality.js";
import { describe, entryKind, entrySeat } from "./table/history.js";
import { eggSvg, goatSvg } from "./table/art.js";

const root = document.getElementById("kz-table");
const $ = (sel, el = root) => el.querySelector(sel);
const h = (tag, attrs = {}, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "html") el.innerHTML = v; // only ever our own markup (SVG)
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
};
const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const POSITIONS = ["bottom", "left", "top", "right"]; // clockwise from you (R1)
const LEVELS = ["random", "beginner", "casual", "club", "strong"];
const KIND_LABELS = { lead: "Lead", beat: "Beat", discard: "Discard", molodka: "Molodka" };

// ---- state ---------------------------------------------------------------------

const S = {
  snap: null,
  gameId: null,
  version: null,
  selected: [],
  pending: false,
  pendingTimer: null,
  ws: null,
  open: false,
  everOpened: false,
  retry: 0,
  retryTimer: null,
  stopped: false,
  resyncing: false,
  summary: null, // {gameId, number, result, tricks, dismissed}
  summarized: new Set(),
  linger: null, // the finished trick kept in view: {entries, taker, key}
  lingerTimer: null,
  chatSeen: new Set(),
  latency: null,
};

const view = () => (S.snap && S.snap.game ? S.snap.game.view : null);
const you = () => (S.snap && S.snap.you) || {};
const me = () => (Number.isInteger(you().position) ? you().position : null);
const bottomSeat = () => me() ?? 0;
const posOf = (seat) => POSITIONS[(seat - bottomSeat() + 4) % 4];
const teamOf = (seat) => (seat % 2 === 0 ? "A" : "B");
const trump = () => C.trumpSuitOf(view());
const baseUrl = () => root.dataset.baseUrl || `/table/${root.dataset.tableId}/`;

function seatInfo(pos) {
  const seats = (S.snap && S.snap.seats) || [];
  const found = seats.find((s) => s && s.position === pos);
  return found || { position: pos, team: teamOf(pos), name: null, user: null, bot_level: "" };
}
const isEmptySeat = (s) => !s.name && !s.user && !s.bot_level;
function nameOf(pos, { youWord = true } = {}) {
  if (youWord && pos === me()) return "You";
  const s = seatInfo(pos);
  return s.name || s.user || `Seat ${pos + 1}`;
}
function teamNames(team) {
  return [0, 1, 2, 3].filter((p) => teamOf(p) === team).map((p) => nameOf(p, { youWord: false })).join(" & ");
}
const isLobby = () => !S.snap || !S.snap.series || (S.snap.table && S.snap.table.status !== "playing");

// ---- socket --------------------------------------------------------------------

function wsUrl() {
  const path = root.dataset.wsPath || `/ws/table/${root.dataset.tableId}/`;
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
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
  ws.addEventListener("open", () => {
    if (S.ws !== ws) return;
    S.open = true;
    S.retry = 0;
    showBanner(null);
    if (S.everOpened) send({ type: "resync" });
    S.everOpened = true;
    if (S.snap) render();
  });
  ws.addEventListener("message", (ev) => {
    if (S.ws !== ws) return;
    let frame;
    try {
      frame = JSON.parse(ev.data);
    } catch {
      return;
    }
    onFrame(frame);
  });
  ws.addEventListener("close", (ev) => {
    if (S.ws !== ws) return;
    S.open = false;
    S.ws = null;
    setPending(false);
    if (ev.code === 4403 || ev.code === 4404) {
      S.stopped = true;
      showBanner(ev.code === 4403 ? "You cannot watch this private table." : "This table no longer exists.");
      return;
    }
    showBanner("Connection lost — reconnecting…");
    scheduleReconnect();
  });
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

function send(frame) {
  if (!S.ws || !S.open) return false;
  S.ws.send(JSON.stringify(frame));
  return true;
}

function resync() {
  if (S.resyncing) return;
  if (send({ type: "resync" })) {
    S.resyncing = true;
    setTimeout(() => (S.resyncing = false), 3000);
  }
}

function onFrame(frame) {
  switch (frame.type) {
    case "snapshot":
      return onSnapshot(frame);
    case "event":
      return onEvent(frame);
    case "error":
      setPending(false);
      toast(frame.message || frame.code || "Refused.");
      if (frame.code === "stale") resync();
      return;
    case "chat":
      addChat(frame.message);
      return;
    case "chat_hidden":
      if (Array.isArray(frame.ids)) removeChat(frame.ids);
      return;
    case "notice":
      // Something happened to the table itself: a bot took a seat, a vote carried.
      announce(frame.text);
      flash(frame.text);
      return;
    case "vote":
      toast(frame.carried ? `Vote carried: ${frame.kind}.` : `Your vote to ${frame.kind} counts: ${frame.votes} of ${frame.needed}.`);
      return;
    case "pong":
      if (typeof frame.nonce === "number") {
        S.latency = Math.max(0, Date.now() - frame.nonce);
        const el = $("#kz-latency");
        if (el) el.textContent = `${S.latency} ms`;
      }
      return;
    default:
      return;
  }
}

function onSnapshot(snap) {
  S.resyncing = false;
  const old = S.snap;
  const oldView = view();
  const oldGameId = S.gameId;
  S.snap = snap;
  S.gameId = snap.game ? snap.game.id : null;
  S.version = snap.game ? snap.game.version : null;
  setPending(false);
  if (oldGameId !== null && oldGameId !== S.gameId) {
    // A game ended while we watched it: summarise it from the games list if the
    // final event never reached us.
    const done = (snap.games || []).find((g) => g.id === oldGameId);
    if (done && !S.summarized.has(oldGameId)) openSummary(oldGameId, done.number, done, done.tricks);
    S.selected = [];
    if (S.summary && !S.summary.dismissed) {
      setTimeout(() => {
        if (S.summary && S.summary.gameId === oldGameId) closeSummary();
      }, 8000);
    }
  }
  if (old && old.series && snap.series && old.series.id !== snap.series.id) {
    // "Play again": a new series began; the last one's summaries are gone at once.
    closeSummary();
    S.summary = null;
  }
  reconcileChat(snap.chat || []);
  (snap.chat || []).forEach(addChat);
  const newView = view();
  if (old && oldView && newView && oldGameId === S.gameId) onViewChanged(oldView, newView);
  else if (newView) announceTurn(newView, true);
  if (newView && newView.game_over && newView.result) maybeSummarise(newView);
  pruneSelection();
  render();
}

function onEvent(ev) {
  if (!S.snap || !S.snap.game || ev.game_id !== S.gameId) {
    resync(); // another game was dealt
    return;
  }
  if (ev.version <= S.version) return; // duplicate or late
  if (ev.version !== S.version + 1) {
    resync(); // a gap: the channel layer delivers at most once
    return;
  }
  const oldView = view();
  S.version = ev.version;
  S.snap.game.version = ev.version;
  S.snap.game.view = ev.view;
  // The clock (issue 6): use the event's deadline; if the server only sends one in
  // snapshots, estimate the next one from the table's turn length (it restarts per action).
  const g = S.snap.game;
  const secs = S.snap.table && S.snap.table.turn_seconds;
  const given = "turn_deadline" in ev ? ev.turn_deadline : ev.view.turn_deadline;
  if (given !== undefined) g.turn_deadline = given;
  else if (g.turn_deadline && secs && !ev.view.game_over) g.turn_deadline = new Date(Date.now() + secs * 1000).toISOString();
  setPending(false);
  onViewChanged(oldView, ev.view);
  if (ev.view.game_over && ev.view.result) maybeSummarise(ev.view);
  pruneSelection();
  render();
}

function pruneSelection() {
  const hand = (view() && view().hand) || [];
  S.selected = S.selected.filter((c) => hand.includes(c));
}

// ---- moments: announcements, molodka, trick linger --------------------------------

function onViewChanged(oldView, newView) {
  const oldH = (oldView && oldView.history) || [];
  const newH = newView.history || [];
  const fresh = newH.length >= oldH.length ? newH.slice(oldH.length) : [];
  const lines = fresh.map((e) => describe(e, (s) => nameOf(s), C.trumpSuitOf(newView), me())).filter(Boolean);
  const molodka = fresh.find((e) => entryKind(e) === "molodka");
  if (molodka) {
    const who = entrySeat(molodka);
    const msg = `${who === me() ? "You" : nameOf(who)} announced a molodka!`;
    flyBack(oldView, who);
    flash(msg);
  }
  // A trick was completed: keep it in view ~1.2 s, then slide it to the taker (UX).
  const total = (v) => (v && v.tricks ? (v.tricks.A || 0) + (v.tricks.B || 0) : 0);
  // A play to the next trick ends the pause at once: never hide what just happened.
  if (S.linger && (newView.table || []).some(Boolean)) collectLinger(S.linger.key);
  if (total(newView) > total(oldView)) startLinger(newView);
  if (newView.hand && oldView && oldView.hand && newView.hand.length > oldView.hand.length && !molodka) {
    markDrawn(newView.hand.filter((c) => !oldView.hand.includes(c)));
  }
  const turnLine = turnSentence(newView);
  announce([...lines, turnLine].filter(Boolean).join(". "));
}

function turnSentence(v) {
  if (v.game_over) return "The game is over";
  if (!Number.isInteger(v.turn)) return "";
  return v.turn === me() ? "Your turn" : `${nameOf(v.turn)} to play`;
}

function announceTurn(v) {
  announce(turnSentence(v));
}

function announce(text) {
  if (!text) return;
  const live = $("#kz-live");
  live.textContent = "";
  // A fresh text node so that screen readers re-read identical lines.
  setTimeout(() => (live.textContent = text), 30);
}

function flash(text) {
  const el = $("#kz-flash");
  el.textContent = text;
  el.hidden = false;
  el.classList.remove("show");
  void el.offsetWidth;
  el.classList.add("show");
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => (el.hidden = true), 2600);
}

function lastTrickEntries(v) {
  // The last trick as [{seat, kind, cards?, count?}], whatever shape the view uses.
  const lt = v && v.last_trick;
  if (!lt) return { entries: [], taker: null };
  const taker = Number.isInteger(lt.taker) ? lt.taker : Number.isInteger(lt.winner) ? lt.winner : null;
  let entries = [];
  const list = lt.table || lt.plays || lt.sets || lt.entries || (Array.isArray(lt) ? lt : null);
  if (Array.isArray(list)) {
    if (list.length === 4 && list.every((e) => e === null || (e && !Number.isInteger(e.seat)))) {
      entries = list.map((e, seat) => (e ? { seat, ...e } : null)).filter(Boolean);
    } else {
      entries = list.filter((e) => e && Number.isInteger(e.seat));
    }
  }
  return { entries, taker };
}

function startLinger(newView) {
  const { entries, taker } = lastTrickEntries(newView);
  if (!entries.length) return;
  const key = Date.now();
  S.linger = { entries, taker, key };
  S.lingerTimer = setTimeout(() => collectLinger(key), 1200);
}

function collectLinger(key) {
  // The finished trick slides to the taker's seat, then the next trick shows (UX: pace).
  // The sliding cards are fixed-position clones, so later renders cannot cut them short.
  if (!S.linger || S.linger.key !== key) return;
  clearTimeout(S.lingerTimer);
  const taker = S.linger.taker;
  const target = Number.isInteger(taker) ? $(`.kz-seat[data-seat="${taker}"]`) : null;
  const sets = target && !reducedMotion() ? [...root.querySelectorAll("#kz-trick .trick-set.lingering")] : [];
  const clones = sets.map((el) => {
    const r = el.getBoundingClientRect();
    const c = el.cloneNode(true);
    c.classList.add("flying");
    c.setAttribute("aria-hidden", "true");
    Object.assign(c.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, margin: 0 });
    return c;
  });
  S.linger = null;
  renderCentre();
  if (!clones.length) return;
  const b = target.getBoundingClientRect();
  for (const c of clones) {
    document.body.append(c);
    const a = c.getBoundingClientRect();
    const dx = b.left + b.width / 2 - (a.left + a.width / 2);
    const dy = b.top + b.height / 2 - (a.top + a.height / 2);
    if (c.animate) {
      const anim = c.animate(
        [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.3)`, opacity: 0 }],
        { duration: 380, easing: "ease-in", fill: "forwards" },
      );
      anim.onfinish = () => c.remove();
    }
    setTimeout(() => c.remove(), 900);
  }
}

function endLinger(key) {
  if (S.linger && S.linger.key === key) {
    S.linger = null;
    renderCentre();
  }
}

function flyBack(oldView, molodkaSeat) {
  // R11: every card already played goes back to its owner's hand. Animate the sets
  // in the centre flying to their seats (no motion under prefers-reduced-motion).
  if (reducedMotion() || !oldView) return;
  const sets = [...root.querySelectorAll("#kz-trick .trick-set")];
  const clones = sets.map((el) => {
    const r = el.getBoundingClientRect();
    const c = el.cloneNode(true);
    c.classList.add("flying");
    Object.assign(c.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, margin: 0 });
    return { c, seat: Number(el.dataset.seat) };
  });
  requestAnimationFrame(() => {
    for (const { c, seat } of clones) {
      document.body.append(c);
      const target = seat === me() ? $("#kz-hand") : $(`.kz-seat[data-seat="${seat}"]`);
      if (!target || !c.animate) {
        c.remove();
        continue;
      }
      const a = c.getBoundingClientRect();
      const b = target.getBoundingClientRect();
      const dx = b.left + b.width / 2 - (a.left + a.width / 2);
      const dy = b.top + b.height / 2 - (a.top + a.height / 2);
      const anim = c.animate(
        [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) rotate(-12deg) scale(.6)`, opacity: 0.1 }],
        { duration: 650, easing: "cubic-bezier(.3,.7,.4,1)" },
      );
      anim.onfinish = () => c.remove();
    }
  });
  void molodkaSeat;
}

function markDrawn(codes) {
  if (reducedMotion()) return;
  S.drawn = new Set(codes);
  setTimeout(() => (S.drawn = null), 700);
}

// ---- end of game / series -----------------------------------------------------------

function maybeSummarise(v) {
  if (S.summarized.has(S.gameId)) return;
  openSummary(S.gameId, S.snap.game.number, v.result, v.tricks);
}

function openSummary(gameId, number, result, tricks) {
  S.summarized.add(gameId);
  // Let the last trick linger first (UX: pace), then show the summary card.
  const delay = S.linger ? 1400 : 0;
  S.summary = { gameId, number, result, tricks: tricks || result.tricks || null, dismissed: false,
    showAt: Date.now() + delay };
  if (delay) setTimeout(renderSummary, delay + 20);
}

function closeSummary() {
  if (S.summary) S.summary.dismissed = true;
  renderSummary();
}

// ---- acting ---------------------------------------------------------------------------

function setPending(on) {
  S.pending = on;
  clearTimeout(S.pendingTimer);
  if (on) S.pendingTimer = setTimeout(() => setPending(false), 8000);
  renderActions();
}

function act(kind, cards) {
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

function doKind(kind) {
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

function toggle(code) {
  if (S.pending) return;
  S.selected = S.selected.includes(code) ? S.selected.filter((c) => c !== code) : [...S.selected, code];
  S.focusCode = code;
  renderHand();
  renderActions();
}

function setSelection(codes) {
  S.selected = [...codes];
  renderHand();
  renderActions();
}

// ---- rendering ----------------------------------------------------------------------

function render() {
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

// Why a bot plays your seat, in plain words (issue 11): at a ranked table the seat is
// not coming back (the leaver rule); at a casual one opening the table gives it back.
function renderAway() {
  const box = $("#kz-away");
  if (!box) return;
  const away = you().away;
  box.hidden = !away;
  box.textContent = away ? away.text : "";
}

// Votes (3 of 4 carry them) and reclaiming a seat a bot took: casual tables only.
function renderSeriesControls() {
  const box = $("#kz-series-controls");
  if (!box) return;
  box.replaceChildren();
  const snap = S.snap;
  const playing = snap.series && snap.series.status === "playing" && snap.table.kind === "casual";
  if (!playing) return;
  if (you().can_reclaim) {
    box.append(h("button", { type: "button", class: "primary small", text: "Reclaim my seat",
      onclick: () => send({ type: "reclaim" }) }));
    return;
  }
  if (me() === null) return;
  const paused = snap.game && snap.game.paused;
  const vote = (kind, label) => h("button", { type: "button", class: "small", text: label,
    title: "3 of 4 seats must agree (bots always agree)", onclick: () => send({ type: "vote", kind }) });
  box.append(paused ? vote("resume", "Vote to resume") : vote("pause", "Vote to pause"), vote("end", "Vote to end series"));
}

function renderHead() {
  const snap = S.snap;
  const v = view();
  const series = snap.series;
  const target = (series && series.target) || (snap.table && snap.table.series_target) || 12;
  const lp = (series && series.loss_points) || { A: 0, B: 0 };
  $("#kz-game-no").textContent = snap.game ? `Game ${snap.game.number}` : "No game yet";
  const score = $("#kz-score");
  score.replaceChildren(
    h("span", { class: "team-A", text: `A ${lp.A ?? 0}` }),
    " – ",
    h("span", { class: "team-B", text: `B ${lp.B ?? 0}` }),
    h("span", { class: "muted", text: ` / ${target}` }),
  );
  score.setAttribute("aria-label", `Series score: team A ${lp.A ?? 0}, team B ${lp.B ?? 0} loss points, of ${target}`);
  const status = $("#kz-status");
  if (!snap.game || isLobby()) {
    const filled = [0, 1, 2, 3].filter((p) => !isEmptySeat(seatInfo(p))).length;
    status.textContent =
      snap.series && snap.series.status === "finished" ? "Series over" : `Waiting for players · ${filled}/4 seated`;
  } else if (v && v.game_over) status.textContent = "Game over";
  else if (snap.game && snap.game.paused) status.textContent = "Paused";
  else if (v && Number.isInteger(v.turn)) status.textContent = v.turn === me() ? "Your turn" : `${nameOf(v.turn)} to play`;
  else status.textContent = "";
  // Trump (R6) and stock, always visible on the felt.
  const tbox = $("#kz-trump");
  const t = trump();
  tbox.replaceChildren();
  if (v && C.isCode(v.trump_card)) {
    tbox.append(
      h("span", { class: "info-label", text: "Trump" }),
      h("span", { class: `trump-suit suit-${t}`, text: C.SUIT_SYMBOLS[t], "aria-hidden": "true" }),
      C.cardElement(v.trump_card, { trump: t, small: true }),
    );
    tbox.setAttribute("aria-label", `Trump: ${C.SUIT_NAMES[t]}, the trump card is the ${C.cardName(v.trump_card)}`);
  } else {
    tbox.removeAttribute("aria-label");
  }
  const sbox = $("#kz-stock");
  sbox.replaceChildren();
  if (v) {
    const n = v.stock_size ?? 0;
    const pile = h("span", { class: "stock-pile" });
    for (let i = 0; i < Math.min(3, Math.ceil(n / 7)); i++) pile.append(C.backElement({ small: true }));
    sbox.append(h("span", { class: "info-label", text: "Stock" }), pile, h("span", { class: "stock-count", text: String(n) }));
    sbox.setAttribute("aria-label", `Stock: ${n} card${n === 1 ? "" : "s"}`);
  }
}

function renderSeats() {
  const v = view();
  const lp = (S.snap.series && S.snap.series.loss_points) || {};
  for (let seat = 0; seat < 4; seat++) {
    const pos = posOf(seat);
    const slot = $(`#kz-seat-${pos}`);
    const info = seatInfo(seat);
    const team = teamOf(seat);
    const empty = isEmptySeat(info);
    const turn = v && !v.game_over && v.turn === seat;
    // Our own seat is connected whenever this socket is open, whatever the snapshot said.
    const offline = info.connected === false && !(seat === me() && S.open) && !empty;
    const cls = ["kz-seat", `team-${team}`, turn && "is-turn", seat === me() && "is-me", empty && "is-empty",
      offline && "is-offline"].filter(Boolean).join(" ");
    slot.className = `kz-slot kz-pos-${pos}`;
    const plate = h("div", { class: cls, "data-seat": seat, "data-team": team });
    const name = empty ? "Empty seat" : nameOf(seat, { youWord: false });
    const head = h("div", { class: "plate-head" },
      h("span", { class: "avatar", "aria-hidden": "true", text: empty ? "·" : (name[0] || "?").toUpperCase() }),
      h("span", { class: "pname", text: name }),
      seat === me() ? h("span", { class: "you-tag", text: "you" }) : null,
      info.bot_level ? h("span", { class: "bot-tag", text: "bot" }) : null,
      v && v.dealer === seat ? h("span", { class: "dealer-chip", title: "Dealer", text: "D" }) : null,
    );
    const stats = h("div", { class: "plate-stats" },
      h("span", { class: "team-tag", text: `Team ${team}` }),
      v ? h("span", { class: "stat", title: "Tricks taken by the team in this game" },
        h("span", { class: "long", text: ` · ${(v.tricks && v.tricks[team]) || 0} tricks` }),
        h("span", { class: "short", text: ` ${(v.tricks && v.tricks[team]) || 0} tr` })) : null,
      S.snap.series ? h("span", { class: "stat", title: "Loss points of the team in this series" },
        h("span", { class: "long", text: ` · ${lp[team] ?? 0} loss pts` }),
        h("span", { class: "short", text: ` · ${lp[team] ?? 0} lp` })) : null,
    );
    plate.append(head, stats);
    if (info.away) plate.append(h("div", { class: "offline-tag", title: "A bot plays this seat until its player comes back", text: "away · bot plays" }));
    else if (offline) plate.append(h("div", { class: "offline-tag", title: "This player's connection dropped", text: "offline" }));
    if (turn) plate.append(h("div", { class: "turn-marker", text: seat === me() ? "your turn" : "to play" }));
    if (v && seat !== me()) {
      const n = (v.hand_sizes || [])[seat] ?? 0;
      const backs = h("div", { class: "backs", "aria-hidden": "true" });
      for (let i = 0; i < n; i++) backs.append(C.backElement({ small: true }));
      plate.append(backs);
    }
    const tricks = v && v.tricks ? v.tricks[team] || 0 : null;
    const label = [`${name}${seat === me() ? " (you)" : ""}`, `team ${team}`,
      v && seat !== me() ? `${(v.hand_sizes || [])[seat] ?? 0} cards` : null,
      tricks !== null ? `team tricks ${tricks}` : null,
      S.snap.series ? `team loss points ${lp[team] ?? 0}` : null,
      turn ? "to play" : null].filter(Boolean).join(", ");
    plate.setAttribute("aria-label", label);
    plate.setAttribute("role", "group");
    slot.replaceChildren(plate);
  }
}

function setElement(entry, seat, t, { isTop }) {
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

function renderCentre() {
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

function renderHand() {
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
    handEl.replaceChildren(h("p", { class: "muted spectator-note", text: "You are watching this table." }));
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
    const b = h("button", {
      type: "button",
      class: `hand-card card${code[1] === t ? " trump" : ""}${S.drawn && S.drawn.has(code) ? " drawn" : ""}`,
      "data-code": code,
      "aria-label": C.cardName(code),
      "aria-pressed": sel ? "true" : "false",
      html: C.cardSvg(code, { trump: t }),
    });
    b.addEventListener("click", () => toggle(code));
    b.addEventListener("dblclick", (e) => {
      e.preventDefault();
      const lead = L.findAction(view(), "lead", [code]);
      if (lead) {
        setSelection([code]);
        act("lead", [code]);
      }
    });
    handEl.append(b);
  });
  handEl.setAttribute("aria-label", `Your hand: ${cards.length} card${cards.length === 1 ? "" : "s"}`);
  const focusCode = hadFocus || null;
  if (focusCode) {
    const f = handEl.querySelector(`[data-code="${focusCode}"]`) || handEl.querySelector("button");
    if (f) f.focus({ preventScroll: true });
  }
}

function renderActions() {
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
  bar.classList.toggle("is-pending", S.pending);
  const hint = $("#kz-hint");
  if (mine && !S.selected.length && v.turn === me() && !(v.table || [])[me()]) {
    hint.textContent = (v.k || 0) > 0
      ? `Select ${v.k} card${v.k === 1 ? "" : "s"} to beat or discard.`
      : "Select cards of one suit to lead (double-click: lead one).";
  } else hint.textContent = "";
}

function renderSide() {
  const v = view();
  const t = C.trumpSuitOf(v);
  // Recent plays: the tail of the public history (R19), newest last.
  const log = $("#kz-log");
  log.replaceChildren();
  const hist = (v && v.history) || [];
  const lines = hist.map((e) => describe(e, (s) => nameOf(s), t, me())).filter(Boolean);
  for (const line of lines.slice(-12)) log.append(h("li", { text: line }));
  if (!lines.length) log.append(h("li", { class: "muted", text: v ? "No plays yet in this game." : "The game has not started." }));
  log.scrollTop = log.scrollHeight;
  $("#kz-open-review").disabled = !v;
  // Games of the series.
  const games = S.snap.games || [];
  const tbody = $("#kz-games tbody");
  tbody.replaceChildren();
  for (const g of games) {
    tbody.append(h("tr", {},
      h("td", {}, g.id ? h("a", { href: `/game/${g.id}/replay/`, title: `Replay game ${g.number}`, text: String(g.number) }) : String(g.number)),
      h("td", { text: `${g.points?.A ?? "–"} – ${g.points?.B ?? "–"}` }),
      h("td", { text: `${g.tricks?.A ?? 0} – ${g.tricks?.B ?? 0}` }),
      h("td", {}, g.eggs ? h("span", { class: "egg-inline", html: eggSvg("eggs") }) : `${g.loss_points?.A ?? 0} – ${g.loss_points?.B ?? 0}`),
    ));
  }
  $("#kz-games").hidden = !games.length;
  if ($("#kz-review").open) renderReview();
  const inv = $("#kz-invite");
  const url = S.snap.table && S.snap.table.invite_url;
  inv.hidden = !url;
  if (url) $("#kz-invite-link").value = new URL(url, location.href).href;
  const spec = S.snap.table ? S.snap.table.spectators : 0;
  $("#kz-spectators").textContent = spec ? `${spec} watching` : "";
}

function renderReview() {
  const v = view();
  const t = C.trumpSuitOf(v);
  const box = $("#kz-review-trick");
  box.replaceChildren();
  const { entries, taker } = lastTrickEntries(v);
  if (!entries.length) box.append(h("p", { class: "muted", text: "No trick has been taken yet in this game." }));
  else {
    box.append(h("p", { text: Number.isInteger(taker) ? `${nameOf(taker)} took it.` : "" }));
    const row = h("div", { class: "review-row" });
    for (const e of entries) row.append(setElement(e, e.seat, t, { isTop: false }));
    box.append(row);
  }
  const list = $("#kz-history");
  list.replaceChildren();
  for (const e of (v && v.history) || []) {
    const line = describe(e, (s) => nameOf(s), t, me());
    if (line) list.append(h("li", { class: `hist-${entryKind(e)}`, text: line }));
  }
}

function renderLobby() {
  const box = $("#kz-lobby");
  const lobby = isLobby() && !(S.snap.series && S.snap.series.status === "finished");
  box.hidden = !lobby;
  if (!lobby) return;
  const y = you();
  const csrf = csrfToken();
  const form = (action, fields, label, cls = "") => {
    const f = h("form", { method: "post", action: `${baseUrl()}${action}`, class: "inline js-seat-form" });
    f.append(h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrf }));
    for (const [k, val] of Object.entries(fields)) f.append(h("input", { type: "hidden", name: k, value: String(val) }));
    f.append(h("button", { type: "submit", class: cls, text: label }));
    return f;
  };
  const list = h("ul", { class: "lobby-seats" });
  for (let pos = 0; pos < 4; pos++) {
    const s = seatInfo(pos);
    const li = h("li", { class: `team-${teamOf(pos)}`, "data-position": pos });
    li.append(h("span", { class: "seat-no", text: `Seat ${pos + 1}` }), h("span", { class: "team-tag", text: teamOf(pos) }));
    if (isEmptySeat(s)) {
      li.append(h("span", { class: "seat-name muted", text: "Empty" }));
      if (y.user) li.append(form("sit/", { position: pos }, "Sit here", "primary"));
      if (y.is_owner) {
        const f = h("form", { method: "post", action: `${baseUrl()}bot/`, class: "inline js-seat-form bot-form" });
        f.append(h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrf }),
          h("input", { type: "hidden", name: "position", value: String(pos) }));
        const sel = h("select", { name: "level", "aria-label": `Bot level for seat ${pos + 1}` });
        for (const lv of LEVELS) sel.append(h("option", { value: lv, text: lv[0].toUpperCase() + lv.slice(1) }));
        f.append(sel, h("button", { type: "submit", text: "Add bot" }));
        li.append(f);
      }
    } else {
      li.append(h("span", { class: "seat-name", text: s.name || s.user }));
      if (s.bot_level) li.append(h("span", { class: "bot-tag", text: `bot · ${s.bot_level}` }));
      if (pos === y.position) li.append(form("leave/", {}, "Leave"));
      else if (y.is_owner && s.bot_level) li.append(form("bot/remove/", { position: pos }, "Remove bot"));
      else if (y.is_owner && s.user) li.append(form("kick/", { position: pos }, "Kick"));
    }
    list.append(li);
  }
  const filled = [0, 1, 2, 3].every((p) => !isEmptySeat(seatInfo(p)));
  const foot = h("div", { class: "lobby-foot" });
  if (y.is_owner && filled) foot.append(form("start/", {}, "Start", "primary big"));
  else if (y.is_owner) foot.append(h("p", { class: "muted", text: "Start appears when all four seats are filled." }));
  else foot.append(h("p", { class: "muted", text: "Waiting for the owner to start." }));
  box.replaceChildren(h("h2", { text: "Seats" }), list, foot);
}

function renderSummary() {
  const box = $("#kz-summary");
  const sm = S.summary;
  if (!sm || sm.dismissed || Date.now() < sm.showAt) {
    box.hidden = true;
    box.replaceChildren();
    box.dataset.key = "";
    return;
  }
  const key = JSON.stringify([sm.gameId, sm.result, sm.tricks, S.snap && S.snap.series, teamNames("A"), teamNames("B")]);
  if (box.dataset.key === key && !box.hidden) return; // unchanged: keep it (and its animation) as is
  box.dataset.key = key;
  const r = sm.result || {};
  const pts = r.points || {};
  const tr = sm.tricks || r.tricks || {};
  const lp = r.loss_points || {};
  const series = (S.snap && S.snap.series) || {};
  const total = series.loss_points || {};
  const rows = ["A", "B"].map((team) =>
    h("tr", { class: `team-${team}${r.winner === team ? " winner" : ""}` },
      h("th", { scope: "row" }, h("span", { class: "team-tag", text: `Team ${team}` }), h("span", { class: "muted small team-names", text: teamNames(team) })),
      h("td", { text: String(pts[team] ?? "–") }),
      h("td", { text: String(tr[team] ?? "–") }),
      h("td", { text: lp[team] ? `+${lp[team]}` : "0" }),
      h("td", { text: String(total[team] ?? "–") }),
    ));
  const eggs = r.eggs ? h("p", { class: "eggs-line" }, h("span", { class: "egg-big", html: eggSvg("eggs") }), " Eggs! 60 – 60: no loss points for anyone (R17).") : null;
  const head = r.eggs ? "Eggs" : r.winner ? `Team ${r.winner} wins game ${sm.number ?? ""}` : `Game ${sm.number ?? ""} over`;
  box.replaceChildren(
    h("div", { class: "summary-card", role: "dialog", "aria-label": "Game summary", "aria-modal": "false" },
      h("h2", { text: head }),
      h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }), h("th", { scope: "col", text: "Card points" }),
          h("th", { scope: "col", text: "Tricks" }), h("th", { scope: "col", text: "Loss points" }), h("th", { scope: "col", text: "Series" }))),
        h("tbody", {}, rows)),
      eggs,
      h("p", { class: "muted small", text: `Series to ${series.target ?? 12} loss points: the first team to reach it is the goat (R18).` }),
      h("div", { class: "summary-foot" },
        h("button", { type: "button", class: "primary", onclick: closeSummary, text: "Continue" }),
        sm.gameId ? h("a", { class: "button", href: `/game/${sm.gameId}/replay/`, text: "Replay" }) : null),
    ),
  );
  box.hidden = false;
}

function renderSeriesEnd() {
  const box = $("#kz-series-end");
  const series = S.snap.series;
  if (!series || series.status !== "finished") {
    box.hidden = true;
    box.replaceChildren();
    box.dataset.key = "";
    return;
  }
  const key = JSON.stringify([series, you().is_owner, teamNames("A"), teamNames("B")]);
  if (box.dataset.key === key && !box.hidden) return;
  box.dataset.key = key;
  const goat = series.goat || (series.winner ? (series.winner === "A" ? "B" : "A") : null);
  const lp = series.loss_points || {};
  const card = h("div", { class: "series-card", role: "dialog", "aria-label": "Series over" },
    h("div", { class: "goat-art", html: goatSvg() }),
    h("p", { class: "goat-title", text: goat ? `Team ${goat} ${series.goats_with_eggs ? "are the goats with eggs!" : "are the goats!"}` : "Series over" }),
    goat ? h("p", { class: "goat-names", text: teamNames(goat) }) : null,
    series.goats_with_eggs ? h("p", { class: "eggs-line" }, h("span", { class: "egg-big", html: eggSvg("eggs") }), " goats with eggs (R17)") : null,
    h("p", { class: "final-score", text: `Final: A ${lp.A ?? 0} – B ${lp.B ?? 0} loss points` }),
  );
  if (you().is_owner) {
    const f = h("form", { method: "post", action: `${baseUrl()}again/`, class: "js-seat-form" },
      h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken() }),
      h("button", { type: "submit", class: "primary big", text: "Play again" }));
    card.append(f);
  } else card.append(h("p", { class: "muted", text: "The owner may start another series with the same seats." }));
  box.replaceChildren(card);
  box.hidden = false;
}

// ---- clock (issue 6: view.turn_deadline / game.turn_deadline) -----------------------------

function deadline() {
  const v = view();
  const raw = (v && (v.turn_deadline || v.deadline)) || (S.snap && S.snap.game && S.snap.game.turn_deadline);
  if (!raw || !v || v.game_over || !Number.isInteger(v.turn)) return null;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? at : null;
}

function renderClock() {
  root.querySelectorAll(".clock-ring").forEach((e) => e.remove());
  const at = deadline();
  const secs = S.snap && S.snap.table && S.snap.table.turn_seconds;
  if (!at || !secs) return;
  const plate = $(`.kz-seat[data-seat="${view().turn}"]`);
  if (!plate) return;
  const ring = h("div", { class: "clock-ring", role: "timer", "aria-label": "Time left" });
  ring.innerHTML = `<svg viewBox="0 0 36 36" aria-hidden="true"><circle class="ring-bg" cx="18" cy="18" r="15.9"/><circle class="ring-fg" cx="18" cy="18" r="15.9" pathLength="100"/></svg><span class="ring-text"></span>`;
  plate.append(ring);
  tickClock();
}

function tickClock() {
  const ring = $(".clock-ring");
  const at = deadline();
  if (!ring || !at) return;
  const secs = S.snap.table.turn_seconds;
  const left = Math.max(0, (at - Date.now()) / 1000);
  ring.querySelector(".ring-fg").style.strokeDashoffset = String(100 - (100 * left) / secs);
  ring.querySelector(".ring-text").textContent = String(Math.ceil(left));
  ring.classList.toggle("is-low", left <= 5);
  ring.setAttribute("aria-label", `${Math.ceil(left)} seconds left`);
}

// ---- chat --------------------------------------------------------------------------------

// Each line appears once (issue 11): lines the page rendered carry data-chat-id and are
// marked seen at start; snapshots and chat frames then add only lines not seen yet.
function addChat(m) {
  if (!m || S.chatSeen.has(String(m.id ?? `${m.at}:${m.text}`))) return;
  S.chatSeen.add(String(m.id ?? `${m.at}:${m.text}`));
  const list = $("#kz-chat-list");
  const li = h("li", { "data-chat-id": m.id ?? "" }, h("strong", { text: m.name || m.user || "?" }), h("span", { text: ` ${m.text}` }));
  if (m.at) li.title = new Date(m.at).toLocaleTimeString();
  list.append(li);
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

function markRenderedChat() {
  document.querySelectorAll("#kz-chat-list li[data-chat-id]").forEach((li) => S.chatSeen.add(li.dataset.chatId));
}

// A moderator hid lines: withdraw them from this screen (a chat_hidden frame), and on a
// snapshot drop any shown line the server no longer lists within its backlog.
function removeChat(ids) {
  const gone = new Set(ids.map(String));
  document.querySelectorAll("#kz-chat-list li[data-chat-id]").forEach((li) => {
    if (gone.has(li.dataset.chatId)) li.remove();
  });
}

function reconcileChat(lines) {
  const ids = lines.map((m) => m.id).filter(Number.isInteger);
  if (!ids.length) return;
  const oldest = Math.min(...ids);
  const listed = new Set(ids.map(String));
  const stale = [];
  document.querySelectorAll("#kz-chat-list li[data-chat-id]").forEach((li) => {
    const id = Number(li.dataset.chatId);
    if (Number.isInteger(id) && id >= oldest && !listed.has(li.dataset.chatId)) stale.push(id);
  });
  if (stale.length) removeChat(stale);
}

// ---- misc ui ---------------------------------------------------------------------------

function showBanner(text) {
  const b = $("#kz-banner");
  b.hidden = !text;
  b.textContent = text || "";
}

function toast(text) {
  const t = $("#kz-toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), 4500);
}

function csrfToken() {
  const input = root.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

async function submitSeatForm(form) {
  const buttons = form.querySelectorAll("button");
  buttons.forEach((b) => (b.disabled = true));
  try {
    const res = await fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin", headers: { "X-Requested-With": "fetch" } });
    const text = await res.text();
    if (!res.ok) {
      toast(res.status === 403 ? "Refused: sign in or reload the page." : `Refused (${res.status}).`);
    } else {
      const doc = new DOMParser().parseFromString(text, "text/html");
      const err = doc.querySelector(".messages .error, .errorlist, .message.error");
      if (err) toast(err.textContent.trim());
    }
  } catch {
    toast("Could not reach the server.");
  } finally {
    buttons.forEach((b) => (b.disabled = false));
    resync();
  }
}

function moveFocus(delta) {
  const cards = [...root.querySelectorAll("#kz-hand .hand-card")];
  if (!cards.length) return;
  const i = cards.indexOf(document.activeElement);
  const next = i < 0 ? (delta > 0 ? 0 : cards.length - 1) : (i + delta + cards.length) % cards.length;
  cards[next].focus();
}

function onKey(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target.tagName || "").toLowerCase();
  if (["input", "textarea", "select"].includes(tag) || e.target.isContentEditable) return;
  if ($("#kz-review").open && e.key.toLowerCase() !== "z") return;
  const inHand = e.target.closest && e.target.closest("#kz-hand");
  const key = e.key;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    if (inHand || e.target === document.body) {
      e.preventDefault();
      moveFocus(key === "ArrowLeft" ? -1 : 1);
    }
    return;
  }
  if (key === "Enter") {
    if (!inHand && e.target !== document.body) return;
    e.preventDefault(); // never toggle a card with Enter: Enter plays
    const kinds = L.legalKindsFor(view(), S.selected);
    // The same cards may both beat and be discarded (R9): Enter beats, D discards.
    if (kinds.has("beat") && kinds.has("discard")) kinds.delete("discard");
    if (kinds.size === 1) doKind([...kinds][0]);
    else if (kinds.size > 1) toast("More than one play fits: press L, B or D.");
    return;
  }
  if (tag === "button" && !inHand && key === " ") return;
  const k = key.toLowerCase();
  const byKey = { l: "lead", b: "beat", d: "discard" };
  if (byKey[k]) {
    const b = $(`#kz-actions [data-kind="${byKey[k]}"]`);
    if (b && !b.hidden && !b.disabled) {
      e.preventDefault();
      b.click();
    }
  } else if (k === "m") {
    const b = $("#kz-molodka");
    if (!b.hidden && !b.disabled) {
      e.preventDefault();
      b.click();
    }
  } else if (k === "z") {
    e.preventDefault();
    toggleReview();
  }
}

function toggleReview() {
  const d = $("#kz-review");
  if (d.open) d.close();
  else if (view()) {
    $("#kz-history-wrap").hidden = true;
    $("#kz-show-history").setAttribute("aria-expanded", "false");
    renderReview();
    d.showModal();
  }
}

// ---- start ---------------------------------------------------------------------------------

function init() {
  if (!root) return;
  root.classList.add("js");
  C.bindFourColourToggle($("#kz-four-colour"));
  for (const kind of ["lead", "beat", "discard"]) {
    $(`#kz-actions [data-kind="${kind}"]`).addEventListener("click", () => doKind(kind));
  }
  $("#kz-molodka").addEventListener("click", () => doKind("molodka"));
  $("#kz-best-beat").addEventListener("click", () => {
    const v = view();
    const best = L.bestBeat(v, C.trumpSuitOf(v));
    if (best) setSelection(best);
  });
  $("#kz-discard-lowest").addEventListener("click", () => {
    const v = view();
    const low = L.discardLowest(v, C.trumpSuitOf(v));
    if (low) setSelection(low);
  });
  $("#kz-clear").addEventListener("click", () => setSelection([]));
  $("#kz-open-review").addEventListener("click", toggleReview);
  $("#kz-review-close").addEventListener("click", () => $("#kz-review").close());
  $("#kz-show-history").addEventListener("click", (e) => {
    const wrap = $("#kz-history-wrap");
    wrap.hidden = !wrap.hidden;
    e.currentTarget.setAttribute("aria-expanded", String(!wrap.hidden));
  });
  const chatForm = $("#kz-chat-form");
  if (chatForm) chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("#kz-chat-input");
    const text = input.value.trim().slice(0, 300);
    if (!text) return;
    if (send({ type: "chat", text })) input.value = "";
    else toast("Not connected: the message was not sent.");
  });
  // Ranked tables have no free chat, only the preset lines (issue 7).
  const presets = $("#kz-chat-presets");
  if (presets) presets.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-preset]");
    if (button && !send({ type: "chat", text: button.dataset.preset })) toast("Not connected: the message was not sent.");
  });
  root.addEventListener("submit", (e) => {
    const form = e.target.closest("form.js-seat-form");
    if (!form) return;
    e.preventDefault();
    submitSeatForm(form);
  });
  document.addEventListener("keydown", onKey);
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
  connect();
  setInterval(tickClock, 250);
  setInterval(() => send({ type: "ping", nonce: Date.now() }), 20000);
}

init();

// A handle for the console and the browser tests (e.g. to drop the socket on purpose).
window.kozelTable = { state: S, resync };
export { S as state };
