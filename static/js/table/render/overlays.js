// The moments worth marking: the end-of-game summary card (when to show it, and the
// card itself) and the end-of-series goat with "Play again".

import { eggSvg, goatSvg } from "../art.js";
import { $, csrfToken, h } from "../dom.js";
import { S, baseUrl, teamNames, you } from "../state.js";

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
  renderSummary();
}

export function renderSummary() {
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

export function renderSeriesEnd() {
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
