// The moments worth marking: the end-of-game summary card (when to show it, and the
// card itself) and the end-of-series card. Both speak to the reader (UX: "You won",
// your team first, the score as yours–theirs); a spectator reads the players' names.
// At a ranked table the series card shows each rating change as the server stored it.

import { gettext } from "../../i18n.js";
import { eggSvg, goatSvg } from "../art.js";
import { $, csrfToken, h } from "../dom.js";
import { resync } from "../socket.js";
import { S, baseUrl, me, myTeam, nameOf, otherTeam, teamNames, you } from "../state.js";

const seriesOver = () => !!(S.snap && S.snap.series && S.snap.series.status === "finished");
const isRanked = () => !!(S.snap && S.snap.table && S.snap.table.kind === "ranked");

/** The game in view just ended: summarise it once. */
export function maybeSummarise(v) {
  if (S.summarized.has(S.gameId)) return;
  openSummary(S.gameId, S.snap.game.number, v.result, v.tricks);
}

export function openSummary(gameId, number, result, tricks) {
  S.summarized.add(gameId);
  // Let the last trick linger first (UX: pace), then show the summary card.
  const delay = S.linger ? 1400 : 0;
  S.summary = { gameId, number, result, tricks: tricks || result.tricks || null, dismissed: false,
    showAt: Date.now() + delay };
  if (delay) setTimeout(renderSummary, delay + 20);
}

export function closeSummary() {
  if (S.summary) S.summary.dismissed = true;
  const back = S.lastGameOpen;
  S.lastGameOpen = false;
  renderSummary();
  if (back) {
    renderSeriesEnd();
    const again = $("#kz-series-end .js-last-game");
    if (again) again.focus();
  }
}

/** The series card's "Last game" button: that game's summary, in the card's place. */
function openLastGame() {
  const played = (S.snap.games || []).filter((g) => !g.void);
  const last = played[played.length - 1];
  if (!last) return;
  if (!S.summary || S.summary.gameId !== last.id) {
    S.summarized.add(last.id);
    S.summary = { gameId: last.id, number: last.number, result: last, tricks: last.tricks || null };
  }
  Object.assign(S.summary, { dismissed: false, showAt: 0 });
  S.lastGameOpen = true;
  renderSeriesEnd();
  renderSummary();
  const button = $("#kz-summary .js-continue");
  if (button) button.focus();
}

/** The two teams in reading order: yours first when you play, else A then B. */
function teamsInOrder() {
  const mine = myTeam();
  return mine ? [mine, otherTeam(mine)] : ["A", "B"];
}

function teamLabel(team) {
  const mine = myTeam();
  if (!mine) return gettext("Team %(team)s", { team });
  return team === mine ? gettext("Your team") : gettext("Their team");
}

/** "Series: yours 4 – 12 theirs", or for a spectator each team's names and points. */
function seriesLine(lp, prefix) {
  const mine = myTeam();
  if (mine) {
    const values = { yours: lp[mine] ?? 0, theirs: lp[otherTeam(mine)] ?? 0 };
    return prefix === "final"
      ? gettext("Final: your team %(yours)s – %(theirs)s theirs (loss points)", values)
      : gettext("Series: your team %(yours)s – %(theirs)s theirs (loss points)", values);
  }
  const values = { a: lp.A ?? 0, b: lp.B ?? 0, names_a: teamNames("A"), names_b: teamNames("B") };
  return prefix === "final"
    ? gettext("Final: %(names_a)s %(a)s – %(b)s %(names_b)s (loss points)", values)
    : gettext("Series: %(names_a)s %(a)s – %(b)s %(names_b)s (loss points)", values);
}

function gameHeadline(r, number) {
  if (r.eggs) return gettext("Eggs");
  if (!r.winner) return gettext("Game %(n)s over", { n: number });
  const mine = myTeam();
  if (!mine) return gettext("%(names)s win game %(n)s", { names: teamNames(r.winner), n: number });
  return r.winner === mine ? gettext("You won game %(n)s", { n: number }) : gettext("You lost game %(n)s", { n: number });
}

export function renderSummary() {
  const box = $("#kz-summary");
  const sm = S.summary;
  // Once the series is over its card comes first; the last game's summary opens from it.
  if (!sm || sm.dismissed || Date.now() < sm.showAt || (seriesOver() && !S.lastGameOpen)) {
    box.hidden = true;
    box.replaceChildren();
    box.dataset.key = "";
    return;
  }
  const key = JSON.stringify([sm.gameId, sm.result, sm.tricks, S.snap && S.snap.series, me(), S.lastGameOpen,
    teamNames("A"), teamNames("B")]);
  if (box.dataset.key === key && !box.hidden) return; // unchanged: keep it (and its animation) as is
  box.dataset.key = key;
  const r = sm.result || {};
  const pts = r.points || {};
  const tr = sm.tricks || r.tricks || {};
  const lp = r.loss_points || {};
  const series = (S.snap && S.snap.series) || {};
  const total = series.loss_points || {};
  const mine = myTeam();
  const rows = teamsInOrder().map((team) =>
    h("tr", { class: `team-${team}${r.winner === team ? " winner" : ""}${team === mine ? " is-yours" : ""}`, "data-team": team },
      h("th", { scope: "row" }, h("span", { class: "team-tag", text: teamLabel(team) }), h("span", { class: "muted small team-names", text: teamNames(team) })),
      h("td", { text: String(pts[team] ?? "–") }),
      h("td", { text: String(tr[team] ?? "–") }),
      h("td", { text: lp[team] ? `+${lp[team]}` : "0" }),
      h("td", { text: String(total[team] ?? "–") }),
    ));
  const eggs = r.eggs
    ? h("p", { class: "eggs-line" }, h("span", { class: "egg-big", html: eggSvg() }),
      ` ${gettext("Eggs! 60 – 60: no loss points for anyone (R17).")}`)
    : null;
  const number = sm.number ?? "";
  box.replaceChildren(
    h("div", { class: "summary-card", role: "dialog", "aria-label": gettext("Game summary"), "aria-modal": "false" },
      h("h2", { text: gameHeadline(r, number) }),
      h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }), h("th", { scope: "col", text: gettext("Card points") }),
          h("th", { scope: "col", text: gettext("Tricks") }), h("th", { scope: "col", text: gettext("Loss points") }),
          h("th", { scope: "col", text: gettext("Series") }))),
        h("tbody", {}, rows)),
      eggs,
      h("p", { class: "series-line", text: seriesLine(total, "series") }),
      h("p", { class: "muted small", text: targetLine(series) }),
      h("div", { class: "summary-foot" },
        h("button", { type: "button", class: "primary js-continue", onclick: closeSummary,
          text: S.lastGameOpen ? gettext("Back to the series result") : gettext("Continue") }),
        sm.gameId ? h("a", { class: "button", href: `/game/${sm.gameId}/replay/`, text: gettext("Replay") }) : null),
    ),
  );
  box.hidden = false;
}

/** "+12", "−5", "±0": a rating delta with its sign. */
function signed(delta) {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `−${-delta}`;
  return "±0";
}

// The rating task runs after the series ends and the server then asks every screen to
// read its snapshot again; the channel layer may drop that, so a pending card asks too.
let ratingRetry = null;

const ratingPending = () => seriesOver() && isRanked() && (!S.snap.series.ratings || S.snap.series.ratings.status === "pending");

function watchPendingRating() {
  if (ratingRetry || !ratingPending()) return;
  ratingRetry = setTimeout(() => {
    ratingRetry = null;
    if (ratingPending()) resync(); // its snapshot renders again, and this asks again
  }, 5000);
}

function ratingBlock(series) {
  const r = series.ratings;
  if (!r || r.status === "pending") {
    return h("p", { class: "rating-line pending", role: "status",
      text: me() === null ? gettext("Ratings are being updated…") : gettext("Your rating is being updated…") });
  }
  if (r.status !== "rated") {
    return h("p", { class: "rating-line muted", role: "status", text: gettext("This series changed no rating.") });
  }
  const values = (c) => ({ before: c.before, after: c.after, delta: signed(c.delta), name: nameOf(c.position, { youWord: false }) });
  const own = r.changes.find((c) => c.position === me());
  const others = r.changes.filter((c) => c !== own);
  return h("div", { class: "rating-change", role: "status" },
    own ? h("p", { class: `rating-line rating-own ${own.delta >= 0 ? "up" : "down"}`,
      text: gettext("Your rating: %(before)s → %(after)s (%(delta)s)", values(own)) }) : null,
    others.length ? h("ul", { class: "rating-others muted small" },
      others.map((c) => h("li", { text: gettext("%(name)s: %(before)s → %(after)s (%(delta)s)", values(c)) }))) : null);
}

/** What ends this series, in one line: a tournament match's fixed number of games or
 * target, else the casual series' target (R18). */
function targetLine(series) {
  const event = S.snap && S.snap.event;
  if (event && event.games_limit) {
    return gettext("A match of %(n)s games: fewer loss points after them wins it (a team reaching %(target)s ends it early).",
      { n: event.games_limit, target: series.target ?? 18 });
  }
  if (event) return gettext("Match to %(n)s loss points: the first team to reach it is the goat and loses the match (R18).", { n: series.target ?? 12 });
  return gettext("Series to %(n)s loss points: the first team to reach it is the goat (R18).", { n: series.target ?? 12 });
}

function seriesTitle(series, goat) {
  if (!goat) return gettext("Series over");
  const eggs = series.goats_with_eggs;
  const mine = myTeam();
  if (mine === goat) return eggs ? gettext("You are the goat, with eggs!") : gettext("You are the goat!");
  if (mine) return gettext("You won the series!");
  const names = teamNames(goat);
  return eggs ? gettext("%(names)s are the goats with eggs!", { names }) : gettext("%(names)s are the goats!", { names });
}

export function renderSeriesEnd() {
  const box = $("#kz-series-end");
  const series = S.snap.series;
  if (!seriesOver() || S.lastGameOpen) {
    box.hidden = true;
    box.replaceChildren();
    box.dataset.key = "";
    return;
  }
  watchPendingRating();
  const key = JSON.stringify([series, you().is_owner, me(), teamNames("A"), teamNames("B")]);
  if (box.dataset.key === key && !box.hidden) return;
  box.dataset.key = key;
  const goat = series.goat || (series.winner ? otherTeam(series.winner) : null);
  const mine = myTeam();
  const card = h("div", { class: `series-card${mine && goat ? (mine === goat ? " is-goat" : " is-winner") : ""}`,
    role: "dialog", "aria-label": gettext("Series over") },
    h("div", { class: "goat-art", html: goatSvg() }),
    h("p", { class: "goat-title", text: seriesTitle(series, goat) }),
    goat ? h("p", { class: "goat-names", text: mine && mine !== goat
      ? gettext("%(names)s are the goats.", { names: teamNames(goat) }) : teamNames(goat) }) : null,
    series.goats_with_eggs
      ? h("p", { class: "eggs-line" }, h("span", { class: "egg-big", html: eggSvg() }), ` ${gettext("goats with eggs (R17)")}`)
      : null,
    h("p", { class: "final-score", text: seriesLine(series.loss_points || {}, "final") }),
    isRanked() ? ratingBlock(series) : null,
  );
  const foot = h("div", { class: "summary-foot" });
  if ((S.snap.games || []).some((g) => !g.void)) {
    foot.append(h("button", { type: "button", class: "js-last-game", onclick: openLastGame, text: gettext("Last game's summary") }));
  }
  const event = S.snap.event;
  if (event) {
    // A tournament match is not replayed at its table: the event pairs the next round.
    foot.append(h("a", { class: "button primary", href: event.url, id: "kz-event-back",
      text: gettext("Back to %(name)s", { name: event.name }) }));
  } else if (isRanked()) {
    // A ranked series is never replayed at the same table: the next one comes from the queue.
    if (me() !== null) foot.append(h("a", { class: "button primary", href: "/play/ranked/", text: gettext("Play another ranked series") }));
  } else if (you().is_owner) {
    foot.append(h("form", { method: "post", action: `${baseUrl()}again/`, class: "js-seat-form" },
      h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken() }),
      h("button", { type: "submit", class: "primary big", text: gettext("Play again") })));
  }
  card.append(foot);
  if (event) {
    card.append(h("p", { class: "muted small", text: gettext("This match is over: its result counts for round %(n)s of %(name)s.",
      { n: event.round, name: event.name }) }));
  } else if (!isRanked() && !you().is_owner) {
    card.append(h("p", { class: "muted small", text: gettext("The owner may start another series with the same seats.") }));
  }
  box.replaceChildren(card);
  box.hidden = false;
}
