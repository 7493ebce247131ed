// The page socket of every signed-in page, ws/me/ (accounts/social/consumers.py): one per
// page, shared by the tournament banner and the notifications. When it says a round
// started, a match ended or a round finished, fetch the banner again; its button checks
// you in and takes you to your table. Between rounds the banner counts down to the next
// round's start and asks again when it is due. Every frame is also re-dispatched as a
// "kz:me" window event (static/js/social/notifications.js keeps the badge).
import { gettext } from "../i18n.js";
import { follow, refresh } from "./socket.js";

const banner = document.getElementById("tournament-banner");
// The banner says nothing about a table the page itself shows: it is told the page.
const again = () => {
  if (banner) refresh(banner, `${banner.dataset.bannerUrl}?path=${encodeURIComponent(location.pathname)}`);
};
// A page showing "Online now" asks to be told when someone comes or goes.
const watchesOnline = document.querySelector("[data-online-live]") !== null;
follow(watchesOnline ? "/ws/me/?online=1" : "/ws/me/", (data) => {
  window.dispatchEvent(new CustomEvent("kz:me", { detail: data }));
  if (data.type === "banner") again();
}, () => {
  if (banner) banner.dataset.connected = "1";
  // A round may have started while we were away: only for people in a running event.
  if (banner && banner.dataset.follow === "1") again();
  window.dispatchEvent(new CustomEvent("kz:me-open"));
});

if (banner) {
  let asked = false;
  setInterval(() => {
    const el = banner.querySelector(".countdown[data-deadline]");
    if (!el) { asked = false; return; }
    const left = Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000);
    if (left <= 0) {
      el.textContent = gettext("starting…");
      // The server starts the round at that instant; ask once in case its message is lost.
      if (!asked) { asked = true; setTimeout(again, 3000); }
      return;
    }
    el.textContent = gettext("in %(m)s:%(s)s", { m: Math.floor(left / 60), s: String(left % 60).padStart(2, "0") });
  }, 1000);
}
