// The head of the table: game number, series score, status line, trump and stock; the
// casual-table votes and "Reclaim my seat"; the notice that a bot plays your seat.

import { gettext, ngettext } from "../../i18n.js";
import * as C from "../cards.js";
import { $, h } from "../dom.js";
import { send } from "../socket.js";
import { S, isEmptySeat, isLobby, me, myTeam, nameOf, otherTeam, seatInfo, trump, view, you } from "../state.js";

export function renderHead() {
  const snap = S.snap;
  const v = view();
  const series = snap.series;
  const target = (series && series.target) || (snap.table && snap.table.series_target) || 12;
  const lp = (series && series.loss_points) || { A: 0, B: 0 };
  // A tournament match of a fixed number of games counts games, not toward a target
  // (the table's target there only ends a lopsided match early).
  const limit = snap.event && snap.event.games_limit;
  let gameNo = gettext("No game yet");
  if (snap.game && limit) gameNo = gettext("Game %(n)s of %(m)s", { n: snap.game.number, m: limit });
  else if (snap.game) gameNo = gettext("Game %(n)s", { n: snap.game.number });
  $("#kz-game-no").textContent = gameNo;
  const score = $("#kz-score");
  const mine = myTeam();
  const tail = limit ? ` ${gettext("loss points")}` : ` / ${target}`;
  if (mine) {
    // A player reads the series as yours–theirs (UX: speak to the person).
    const values = { yours: lp[mine] ?? 0, theirs: lp[otherTeam(mine)] ?? 0, target };
    score.replaceChildren(
      h("span", { class: `team-${mine} is-yours`, text: gettext("yours %(yours)s", values) }),
      " – ",
      h("span", { class: `team-${otherTeam(mine)}`, text: gettext("%(theirs)s theirs", values) }),
      h("span", { class: "muted", text: tail }),
    );
    score.setAttribute("aria-label", limit
      ? gettext("Match score: your team %(yours)s, theirs %(theirs)s loss points", values)
      : gettext("Series score: your team %(yours)s, theirs %(theirs)s loss points, of %(target)s", values));
  } else {
    score.replaceChildren(
      h("span", { class: "team-A", text: `A ${lp.A ?? 0}` }),
      " – ",
      h("span", { class: "team-B", text: `B ${lp.B ?? 0}` }),
      h("span", { class: "muted", text: tail }),
    );
    score.setAttribute("aria-label", limit
      ? gettext("Match score: team A %(a)s, team B %(b)s loss points", { a: lp.A ?? 0, b: lp.B ?? 0 })
      : gettext("Series score: team A %(a)s, team B %(b)s loss points, of %(target)s",
        { a: lp.A ?? 0, b: lp.B ?? 0, target }));
  }
  const status = $("#kz-status");
  if (!snap.game || isLobby()) {
    const filled = [0, 1, 2, 3].filter((p) => !isEmptySeat(seatInfo(p))).length;
    const over = { finished: gettext("Series over"), voided: gettext("A moderator voided this series: it does not count.") };
    if (snap.event) over.finished = gettext("Match over");
    status.textContent = (snap.series && over[snap.series.status])
      || (snap.event ? gettext("Waiting for the players to check in")
        : gettext("Waiting for players · %(n)s/4 seated", { n: filled }));
  } else if (v && v.game_over) status.textContent = gettext("Game over");
  else if (snap.game && snap.game.paused) status.textContent = gettext("Paused");
  else if (v && Number.isInteger(v.turn)) {
    status.textContent = v.turn === me() ? gettext("Your turn") : gettext("%(who)s to play", { who: nameOf(v.turn) });
  }
  else status.textContent = "";
  // Trump (R6) and stock, always visible on the felt while a game is played; between
  // series (the lobby, the series card) the last game's trump card would be a stray.
  const live = v && !isLobby();
  const tbox = $("#kz-trump");
  const t = trump();
  tbox.replaceChildren();
  if (live && C.isCode(v.trump_card)) {
    tbox.append(
      h("span", { class: "info-label", text: gettext("Trump") }),
      h("span", { class: `trump-suit suit-${t}`, text: C.SUIT_SYMBOLS[t], "aria-hidden": "true" }),
      C.cardElement(v.trump_card, { trump: t, small: true }),
    );
    tbox.setAttribute("aria-label", gettext("Trump: %(suit)s, the trump card is the %(card)s",
      { suit: C.SUIT_NAMES[t], card: C.cardName(v.trump_card) }));
  } else {
    tbox.removeAttribute("aria-label");
  }
  const sbox = $("#kz-stock");
  sbox.replaceChildren();
  if (live) {
    const n = v.stock_size ?? 0;
    const pile = h("span", { class: "stock-pile" });
    for (let i = 0; i < Math.min(3, Math.ceil(n / 7)); i++) pile.append(C.backElement({ small: true }));
    sbox.append(h("span", { class: "info-label", text: gettext("Stock") }), pile, h("span", { class: "stock-count", text: String(n) }));
    sbox.setAttribute("aria-label", ngettext("Stock: %(n)s card", "Stock: %(n)s cards", n));
  }
}

// Votes (3 of 4 carry them) and reclaiming a seat a bot took: casual tables only.
export function renderSeriesControls() {
  const box = $("#kz-series-controls");
  if (!box) return;
  box.replaceChildren();
  const snap = S.snap;
  const playing = snap.series && snap.series.status === "playing" && snap.table.kind === "casual";
  if (!playing) return;
  if (you().can_reclaim) {
    box.append(h("button", { type: "button", class: "primary small", text: gettext("Reclaim my seat"),
      onclick: () => send({ type: "reclaim" }) }));
    return;
  }
  // A tournament match is the event's: it is neither paused nor ended by a vote.
  if (me() === null || snap.event) return;
  const paused = snap.game && snap.game.paused;
  const vote = (kind, label) => h("button", { type: "button", class: "small", text: label,
    title: gettext("3 of 4 seats must agree (bots always agree)"), onclick: () => send({ type: "vote", kind }) });
  box.append(paused ? vote("resume", gettext("Vote to resume")) : vote("pause", gettext("Vote to pause")),
    vote("end", gettext("Vote to end series")));
}

// Why a bot plays your seat, in plain words: at a ranked table the seat is
// not coming back (the leaver rule); at a casual one opening the table gives it back.
export function renderAway() {
  const box = $("#kz-away");
  if (!box) return;
  const away = you().away;
  box.hidden = !away;
  box.textContent = away ? away.text : "";
}
