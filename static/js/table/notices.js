// Transient words on screen: the connection banner, toasts, the big flash line and the
// aria-live announcement for screen readers.

import { $ } from "./dom.js";

export function showBanner(text) {
  const b = $("#kz-banner");
  b.hidden = !text;
  b.textContent = text || "";
}

export function toast(text) {
  const t = $("#kz-toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), 4500);
}

export function flash(text) {
  const el = $("#kz-flash");
  el.textContent = text;
  el.hidden = false;
  el.classList.remove("show");
  void el.offsetWidth;
  el.classList.add("show");
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => (el.hidden = true), 2600);
}

export function announce(text) {
  if (!text) return;
  const live = $("#kz-live");
  live.textContent = "";
  // A fresh text node so that screen readers re-read identical lines.
  setTimeout(() => (live.textContent = text), 30);
}

/** A moderator suspended this account: the one thing the table still shows is the
 * suspension's own message (what, why, until when). Everything else goes (the seat
 * that a bot now keeps, "reclaim my seat", the chat, the buttons) and stays inert,
 * and every other toast on the page is cleared so the message is said once. */
export function showSuspended(text) {
  const root = document.getElementById("kz-table");
  const box = document.getElementById("kz-suspended");
  if (!root || !box) return;
  document.body.dataset.suspended = "1";
  document.querySelectorAll("#kz-toasts > *").forEach((node) => node.remove());
  box.textContent = text;
  box.hidden = false;
  for (const child of root.children) {
    if (child === box) continue;
    child.hidden = true;
    child.inert = true;
  }
}
