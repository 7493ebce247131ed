// The moments worth marking: the end-of-game summary card (when to show it, and the
// card itself) and the end-of-series goat with "Play again".

import { gettext } from "../../i18n.js";
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
      h("th", { scope: "row" }, h("span", { class: "team-tag", text: gettext("Team %(team)s", { team }) }), h("span", { class: "muted small team-names", text: teamNames(team) })),
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
  const head = r.eggs
    ? gettext("Eggs")
    : r.winner ? gettext("Team %(team)s wins game %(n)s", { team: r.winner, n: number }) : gettext("Game %(n)s over", { n: number });
  box.replaceChildren(
    h("div", { class: "summary-card", role: "dialog", "aria-label": gettext("Game summary"), "aria-modal": "false" },
      h("h2", { text: head }),
      h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }), h("th", { scope: "col", text: gettext("Card points") }),
          h("th", { scope: "col", text: gettext("Tricks") }), h("th", { scope: "col", text: gettext("Loss points") }),
          h("th", { scope: "col", text: gettext("Series") }))),
        h("tbody", {}, rows)),
      eggs,
      h("p", { class: "muted small", text: gettext("Series to %(n)s loss points: the first team to reach it is the goat (R18).",
        { n: series.target ?? 12 }) }),
      h("div", { class: "summary-foot" },
        h("button", { type: "button", class: "primary", onclick: closeSummary, text: gettext("Continue") }),
        sm.gameId ? h("a", { class: "button", href: `/game/${sm.gameId}/replay/`, text: gettext("Replay") }) : null),
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
  let title = gettext("Series over");
  if (goat) {
    title = series.goats_with_eggs
      ? gettext("Team %(team)s are the goats with eggs!", { team: goat })
      : gettext("Team %(team)s are the goats!", { team: goat });
  }
  const card = h("div", { class: "series-card", role: "dialog", "aria-label": gettext("Series over") },
    h("div", { class: "goat-art", html: goatSvg() }),
    h("p", { class: "goat-title", text: title }),
    goat ? h("p", { class: "goat-names", text: teamNames(goat) }) : null,
    series.goats_with_eggs
      ? h("p", { class: "eggs-line" }, h("span", { class: "egg-big", html: eggSvg() }), ` ${gettext("goats with eggs (R17)")}`)
      : null,
    h("p", { class: "final-score", text: gettext("Final: A %(a)s – B %(b)s loss points", { a: lp.A ?? 0, b: lp.B ?? 0 }) }),
  );
  if (you().is_owner) {
    const f = h("form", { method: "post", action: `${baseUrl()}again/`, class: "js-seat-form" },
      h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken() }),
      h("button", { type: "submit", class: "primary big", text: gettext("Play again") }));
    card.append(f);
  } else card.append(h("p", { class: "muted", text: gettext("The owner may start another series with the same seats.") }));
  box.replaceChildren(card);
  box.hidden = false;
}
