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
