// The turn clock: a countdown ring on the plate of the seat to act, the last
// 5 seconds emphasised; tickClock() runs four times a second.

import { gettext, ngettext } from "../../i18n.js";
import { $, h, root } from "../dom.js";
import { S, view } from "../state.js";

/** The clock: the turn's deadline in ms since the epoch, or null. */
function deadline() {
  const v = view();
  const raw = (v && (v.turn_deadline || v.deadline)) || (S.snap && S.snap.game && S.snap.game.turn_deadline);
  if (!raw || !v || v.game_over || !Number.isInteger(v.turn)) return null;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? at : null;
}

export function renderClock() {
  root.querySelectorAll(".clock-ring").forEach((e) => e.remove());
  tickTakeover();
  const at = deadline();
  const secs = S.snap && S.snap.table && S.snap.table.turn_seconds;
  if (!at || !secs) return;
  const plate = $(`.kz-seat[data-seat="${view().turn}"]`);
  if (!plate) return;
  const ring = h("div", { class: "clock-ring", role: "timer", "aria-label": gettext("Time left") });
  ring.innerHTML = `<svg viewBox="0 0 36 36" aria-hidden="true"><circle class="ring-bg" cx="18" cy="18" r="15.9"/><circle class="ring-fg" cx="18" cy="18" r="15.9" pathLength="100"/></svg><span class="ring-text"></span>`;
  plate.append(ring);
  tickClock();
}

export function tickClock() {
  tickTakeover();
  const ring = $(".clock-ring");
  const at = deadline();
  if (!ring || !at) return;
  const secs = S.snap.table.turn_seconds;
  const left = Math.max(0, (at - Date.now()) / 1000);
  ring.querySelector(".ring-fg").style.strokeDashoffset = String(100 - (100 * left) / secs);
  ring.querySelector(".ring-text").textContent = String(Math.ceil(left));
  ring.classList.toggle("is-low", left <= 5);
  ring.setAttribute("aria-label", ngettext("%(n)s second left", "%(n)s seconds left", Math.ceil(left)));
}

/** The countdown on an absent person's plate to the instant a bot takes their seat. */
function tickTakeover() {
  root.querySelectorAll(".takeover-tag").forEach((tag) => {
    const left = Math.max(0, Math.ceil((Number(tag.dataset.at) - Date.now()) / 1000));
    tag.textContent = left > 0
      ? ngettext("away · a bot plays in %(n)s second", "away · a bot plays in %(n)s seconds", left)
      : gettext("away · a bot takes the seat");
    tag.classList.toggle("is-low", left <= 5);
  });
}
