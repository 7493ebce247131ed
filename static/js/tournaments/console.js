// The director's console: its tables are fetched again whenever ws/tournament/<id>/
// says the event changed, and every few seconds (who is connected and the clocks change
// without the event changing). Countdowns tick locally; a destructive one-click action
// asks first (data-confirm).
import { gettext } from "../i18n.js";
import { follow, refresh } from "./socket.js";

const live = document.getElementById("console-live");

function tick() {
  for (const el of document.querySelectorAll(".countdown[data-deadline]")) {
    const left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
    const m = Math.floor(left / 60);
    const s = String(left % 60).padStart(2, "0");
    el.textContent = gettext("%(m)s:%(s)s left", { m, s });
  }
}

if (live) {
  let pending = false;
  const update = () => {
    if (pending) return;
    // Never replace the tables under a director who is typing a message or a reason.
    if (live.contains(document.activeElement) && document.activeElement.matches("input, select")) return;
    pending = true;
    setTimeout(async () => { pending = false; await refresh(live, live.dataset.liveUrl); tick(); }, 150);
  };
  follow(live.dataset.wsPath, update, () => { live.dataset.connected = "1"; update(); });
  setInterval(update, 5000);
  setInterval(tick, 1000);
  tick();
  live.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}
