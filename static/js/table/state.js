// The table's state S (last snapshot, view, version, selection, socket flags) and the
// pure helpers that read it: who you are, where each seat sits, seat names.

import { gettext } from "../i18n.js";
import { trumpSuitOf } from "./cards.js";
import { root } from "./dom.js";

export const POSITIONS = ["bottom", "left", "top", "right"]; // clockwise from you (R1)

export const S = {
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
  failedOpens: 0, // sockets in a row that closed without ever opening
  stopped: false,
  resyncing: false,
  summary: null, // {gameId, number, result, tricks, dismissed}
  summarized: new Set(),
  lastGameOpen: false, // the series card's "Last game" shows that game's summary instead

  linger: null, // the finished trick kept in view: {entries, taker, key}
  lingerTimer: null,
  chatSeen: new Set(),
  // "Show spectators' chat" as just clicked, until a snapshot says the server has it (or
  // an error frame says it refused): a snapshot sent before the click must not undo it.
  showSpectatorsWanted: null,
  latency: null,
};

export const view = () => (S.snap && S.snap.game ? S.snap.game.view : null);
export const you = () => (S.snap && S.snap.you) || {};
export const me = () => (Number.isInteger(you().position) ? you().position : null);
const bottomSeat = () => me() ?? 0;
export const posOf = (seat) => POSITIONS[(seat - bottomSeat() + 4) % 4];
export const teamOf = (seat) => (seat % 2 === 0 ? "A" : "B");
export const trump = () => trumpSuitOf(view());
export const baseUrl = () => root.dataset.baseUrl || `/table/${root.dataset.tableId}/`;

export function seatInfo(pos) {
  const seats = (S.snap && S.snap.seats) || [];
  const found = seats.find((s) => s && s.position === pos);
  return found || { position: pos, team: teamOf(pos), name: null, user: null, bot_level: "" };
}
/** When a bot takes `seat` over if its absent person stays away (ms since the epoch, from
 *  the server's `game.takeover`), or null. */
export function takeoverAt(seat) {
  const t = S.snap && S.snap.game && S.snap.game.takeover;
  const v = view();
  if (!t || t.seat !== seat || !v || v.game_over || v.turn !== seat) return null;
  const at = Date.parse(t.at);
  return Number.isFinite(at) ? at : null;
}
export const isEmptySeat = (s) => !s.name && !s.user && !s.bot_level;
export function nameOf(pos, { youWord = true } = {}) {
  if (youWord && pos === me()) return gettext("You");
  const s = seatInfo(pos);
  return s.name || s.user || gettext("Seat %(n)s", { n: pos + 1 });
}
/** A seat's name as {first, level}: a bot's label "Boris (Beginner)" splits into its
 * first name and its level, so a narrow plate can put the level on a line of its own
 * and never cut the name; a person's name is all first. */
export function nameParts(pos, { youWord = true } = {}) {
  const name = nameOf(pos, { youWord });
  const m = seatInfo(pos).bot_level ? /^(.+?) (\(.+\))$/.exec(name) : null;
  return m ? { first: m[1], level: m[2] } : { first: name, level: "" };
}
export function teamNames(team) {
  return [0, 1, 2, 3].filter((p) => teamOf(p) === team).map((p) => nameOf(p, { youWord: false })).join(" & ");
}
/** Your team ("A"/"B"), or null for a spectator: end cards speak to you (yours–theirs). */
export const myTeam = () => (me() === null ? null : teamOf(me()));
export const otherTeam = (team) => (team === "A" ? "B" : "A");
export const isLobby = () => !S.snap || !S.snap.series || (S.snap.table && S.snap.table.status !== "playing");

/** Drop selected cards that are no longer in the hand. */
export function pruneSelection() {
  const hand = (view() && view().hand) || [];
  S.selected = S.selected.filter((c) => hand.includes(c));
}

/** The last trick as [{seat, kind, cards?, count?}], whatever shape the view uses. */
export function lastTrickEntries(v) {
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
