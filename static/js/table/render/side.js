// The side panel: recent plays, the games of the series, the invite link, spectators;
// and the review dialog (last trick and the whole public history, R19).

import { gettext, ngettext } from "../../i18n.js";
import * as C from "../cards.js";
import { $, h } from "../dom.js";
import { eggSvg } from "../art.js";
import { describe, entryKind } from "../history.js";
import { S, lastTrickEntries, me, myTeam, nameOf, otherTeam, view } from "../state.js";
import { setElement } from "./trick.js";

export function renderSide() {
  const v = view();
  const t = C.trumpSuitOf(v);
  // Recent plays: the tail of the public history (R19), newest last.
  const log = $("#kz-log");
  log.replaceChildren();
  const hist = (v && v.history) || [];
  const lines = hist.map((e) => describe(e, (s) => nameOf(s), t, me())).filter(Boolean);
  for (const line of lines.slice(-12)) log.append(h("li", { text: line }));
  if (!lines.length) {
    log.append(h("li", { class: "muted", text: v ? gettext("No plays yet in this game.") : gettext("The game has not started.") }));
  }
  // Scrolled to the newest line in the next frame: read now, scrollHeight would force a
  // layout in the middle of render() (the page's longest task on a slow phone).
  requestAnimationFrame(() => { log.scrollTop = log.scrollHeight; });
  $("#kz-open-review").disabled = !v;
  // Games of the series.
  const games = S.snap.games || [];
  const tbody = $("#kz-games tbody");
  tbody.replaceChildren();
  // A player reads each pair as yours–theirs (UX: speak to the person), others as A–B.
  const [first, second] = myTeam() ? [myTeam(), otherTeam(myTeam())] : ["A", "B"];
  const pointsHead = $("#kz-games thead th:nth-child(2)");
  if (pointsHead) pointsHead.textContent = myTeam() ? gettext("Points yours–theirs") : gettext("Points A–B");
  const pair = (x) => `${x?.[first] ?? "–"} – ${x?.[second] ?? "–"}`;
  for (const g of games) {
    // A voided series' games stay listed (their replays too), marked void.
    const voidMark = g.void ? [" ", h("span", { class: "badge badge-void", text: gettext("Void") })] : [];
    tbody.append(h("tr", { class: g.void ? "game-void" : null },
      h("td", {}, g.id
        ? h("a", { href: `/game/${g.id}/replay/`, title: gettext("Replay game %(n)s", { n: g.number }), text: String(g.number) })
        : String(g.number), ...voidMark),
      h("td", { text: pair(g.points) }),
      h("td", { text: pair(g.tricks) }),
      h("td", {}, g.eggs ? h("span", { class: "egg-inline", html: eggSvg() }) : pair(g.loss_points)),
    ));
  }
  $("#kz-games").hidden = !games.length;
  const voided = $("#kz-series-void");
  if (voided) voided.hidden = !(S.snap.series && S.snap.series.status === "voided");
  if ($("#kz-review").open) renderReview();
  const inv = $("#kz-invite");
  const url = S.snap.table && S.snap.table.invite_url;
  inv.hidden = !url;
  if (url) $("#kz-invite-link").value = new URL(url, location.href).href;
  const spec = S.snap.table ? S.snap.table.spectators : 0;
  $("#kz-spectators").textContent = spec ? ngettext("%(n)s watching", "%(n)s watching", spec) : "";
}

export function renderReview() {
  const v = view();
  const t = C.trumpSuitOf(v);
  const box = $("#kz-review-trick");
  box.replaceChildren();
  const { entries, taker } = lastTrickEntries(v);
  if (!entries.length) box.append(h("p", { class: "muted", text: gettext("No trick has been taken yet in this game.") }));
  else {
    let took = "";
    if (Number.isInteger(taker)) took = taker === me() ? gettext("You took it.") : gettext("%(who)s took it.", { who: nameOf(taker) });
    box.append(h("p", { text: took }));
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

/** Z, or the review button: open the last trick (history folded), or close the dialog. */
export function toggleReview() {
  const d = $("#kz-review");
  if (d.open) d.close();
  else if (view()) {
    $("#kz-history-wrap").hidden = true;
    $("#kz-show-history").setAttribute("aria-expanded", "false");
    renderReview();
    d.showModal();
  }
}
