// The notification badge in the navigation and a short live line for each new
// notification, fed by the page socket (banner.js re-dispatches its frames as "kz:me").
// The badge is rendered with every page too: a frame the channel layer lost is made good
// by the "hello" count on the next connect.
const badge = document.getElementById("kz-notifications");
const count = document.getElementById("kz-unread");
const toasts = document.getElementById("kz-toasts");

function show(unread) {
  if (!badge || !count || typeof unread !== "number") return;
  count.textContent = String(unread);
  count.hidden = unread === 0;
  badge.dataset.unread = String(unread);
}

function toast(frame) {
  // A suspended table page shows its one message and nothing else (table/notices.js).
  if (!toasts || document.body.dataset.suspended) return;
  const line = document.createElement("a");
  line.className = "toast";
  line.href = badge ? badge.getAttribute("href") : "/notifications/";
  line.textContent = frame.text;  // text, never HTML
  line.dataset.notification = String(frame.id);
  toasts.append(line);
  setTimeout(() => line.remove(), 8000);
}

function presence(frame) {
  const row = document.querySelector(`[data-friend="${CSS.escape(frame.username)}"]`);
  if (!row) return;
  const dot = row.querySelector(".presence-dot");
  if (dot) dot.dataset.online = frame.online ? "1" : "0";
}

// "Online now" (the home page): the socket only says someone came or went; the line is
// fetched again, once for a burst of comings and goings (a short, jittered wait), so a
// busy evening never turns every open home page into a poller.
const online = document.querySelector("[data-online-live]");
let onlineDue = null;
function onlineChanged() {
  if (!online || onlineDue !== null) return;
  onlineDue = setTimeout(async () => {
    try {
      const response = await fetch(online.dataset.onlineUrl, { credentials: "same-origin" });
      if (response.ok) online.innerHTML = await response.text();
    } catch {
      // Offline for a moment: the next change fetches it again.
    } finally {
      onlineDue = null;
    }
  }, 500 + Math.random() * 1500);
}

window.addEventListener("kz:me", (event) => {
  const frame = event.detail;
  if (!frame || typeof frame !== "object") return;
  if (frame.type === "hello" || frame.type === "notifications.read") show(frame.unread);
  else if (frame.type === "notification") { show(frame.unread); toast(frame); }
  else if (frame.type === "presence") presence(frame);
  else if (frame.type === "online.changed") onlineChanged();
});
window.addEventListener("kz:me-open", () => { if (badge) badge.dataset.live = "1"; });
