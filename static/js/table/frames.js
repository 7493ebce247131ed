// What each server frame means (games/WEBSOCKET.md): snapshots replace the state,
// events apply only on version v + 1 (older ones are ignored, a gap or another game
// asks for a resync), errors, chat, notices, votes and pongs.

import { gettext } from "../i18n.js";
import { setPending } from "./actions.js";
import { $ } from "./dom.js";
import { announceTurn, onViewChanged } from "./moments.js";
import { announce, flash, showSuspended, toast } from "./notices.js";
import { render, renderPresence } from "./render.js";
import { addChat, forgetWantedChatSetting, reconcileChat, removeChat, renderChatPanel } from "./render/chat.js";
import { closeSummary, maybeSummarise, openSummary } from "./render/overlays.js";
import { resync } from "./socket.js";
import { S, pruneSelection, view } from "./state.js";

export function onFrame(frame) {
  switch (frame.type) {
    case "snapshot":
      return onSnapshot(frame);
    case "event":
      return onEvent(frame);
    case "error":
      if (frame.code === "suspended") {
        // The socket closes next and is not reopened (socket.js).
        S.stopped = true;
        showSuspended(frame.message || gettext("Your account is suspended."));
        return;
      }
      setPending(false);
      forgetWantedChatSetting();
      toast(frame.message || gettext("Refused."));
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
      toast(voteLine(frame));
      return;
    case "pong":
      if (typeof frame.nonce === "number") {
        S.latency = Math.max(0, Date.now() - frame.nonce);
        const el = $("#kz-latency");
        if (el) el.textContent = gettext("%(n)s ms", { n: S.latency });
      }
      return;
    default:
      return;
  }
}

// Votes (3 of 4 seats carry them): what the vote was for, in the page's language.
function voteLine(frame) {
  const values = { votes: frame.votes, needed: frame.needed };
  const lines = frame.carried
    ? {
        pause: gettext("Vote carried: the series is paused."),
        resume: gettext("Vote carried: the series goes on."),
        end: gettext("Vote carried: the series ends."),
      }
    : {
        pause: gettext("Your vote to pause counts: %(votes)s of %(needed)s.", values),
        resume: gettext("Your vote to resume counts: %(votes)s of %(needed)s.", values),
        end: gettext("Your vote to end the series counts: %(votes)s of %(needed)s.", values),
      };
  return lines[frame.kind] || gettext("Your vote counts: %(votes)s of %(needed)s.", values);
}

/** The snapshot without what only presence changes (who is connected, when a bot takes
 *  an absent seat): two snapshots equal under it differ for the table's looks in the seat
 *  plates alone. */
function withoutPresence(snap) {
  const seats = (snap.seats || []).map(({ connected, ...rest }) => rest);
  const game = snap.game ? { ...snap.game, takeover: null } : snap.game;
  return JSON.stringify({ ...snap, type: null, seats, game });
}

/** A full snapshot: from the socket, or the one the page was rendered with. */
export function onSnapshot(snap) {
  S.resyncing = false;
  const old = S.snap;
  if (old && withoutPresence(old) === withoutPresence(snap)) {
    // The socket's first snapshot repeats the page's own, but for our seat now online.
    S.snap = snap;
    setPending(false);
    renderPresence();
    return;
  }
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
  renderChatPanel(snap);
  reconcileChat(snap.chat || []);
  (snap.chat || []).forEach(addChat);
  const newView = view();
  if (old && oldView && newView && oldGameId === S.gameId) onViewChanged(oldView, newView);
  else if (newView) announceTurn(newView);
  if (newView && newView.game_over && newView.result) maybeSummarise(newView);
  pruneSelection();
  render();
}

/** The event's view's whole history: ours up to `history_from`, then `history_added`;
 *  null when ours is shorter than that (we missed something: resync). */
function withAddedHistory(oldView, ev) {
  const before = (oldView && oldView.history) || [];
  const from = ev.history_from;
  if (!Array.isArray(ev.history_added) || !Number.isInteger(from) || from < 0 || from > before.length) {
    return null;
  }
  return before.slice(0, from).concat(ev.history_added);
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
  // An event carries the history's new entries only (games/WEBSOCKET.md, "Versions").
  const history = withAddedHistory(oldView, ev);
  if (history === null) {
    resync();
    return;
  }
  ev.view.history = history;
  S.version = ev.version;
  S.snap.game.version = ev.version;
  S.snap.game.view = ev.view;
  // The clock: use the event's deadline; if the server only sends one in
  // snapshots, estimate the next one from the table's turn length (it restarts per action).
  const g = S.snap.game;
  const secs = S.snap.table && S.snap.table.turn_seconds;
  const given = "turn_deadline" in ev ? ev.turn_deadline : ev.view.turn_deadline;
  if (given !== undefined) g.turn_deadline = given;
  else if (g.turn_deadline && secs && !ev.view.game_over) g.turn_deadline = new Date(Date.now() + secs * 1000).toISOString();
  // When a bot takes the seat on turn if its person stays away: the server's instant.
  g.takeover = ev.takeover || null;
  setPending(false);
  onViewChanged(oldView, ev.view);
  if (ev.view.game_over && ev.view.result) maybeSummarise(ev.view);
  pruneSelection();
  render();
}
