// The page socket of every signed-in page, ws/me/ (accounts/social/consumers.py): one per
// page, shared by the round-start banner and the notifications. When it says a round
// started (or your match changed), fetch the banner again; its button checks you in and
// takes you to your table. Every frame is also re-dispatched as a "kz:me" window event
// (static/js/social/notifications.js keeps the badge).
import { follow, refresh } from "./socket.js";

const banner = document.getElementById("tournament-banner");
const again = () => { if (banner) refresh(banner, banner.dataset.bannerUrl); };
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
