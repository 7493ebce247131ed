// Input: clicks on cards, buttons, chat and seat forms, and the keyboard of UX.md
// (←/→ move between cards, Space selects, Enter plays the only legal action,
// L/B/D/M for the four actions, Z opens the last trick).

import { gettext } from "../i18n.js";
import * as C from "./cards.js";
import * as L from "./legality.js";
import { act, doKind, setSelection, toggle } from "./actions.js";
import { $, root } from "./dom.js";
import { toast } from "./notices.js";
import { toggleReview } from "./render/side.js";
import { resync, send } from "./socket.js";
import { S, view } from "./state.js";

/** Wire every listener once, at start. */
export function bindInput() {
  bindHand();
  for (const kind of ["lead", "beat", "discard"]) {
    $(`#kz-actions [data-kind="${kind}"]`).addEventListener("click", () => doKind(kind));
  }
  $("#kz-molodka").addEventListener("click", () => doKind("molodka"));
  $("#kz-best-beat").addEventListener("click", () => {
    const v = view();
    const best = L.bestBeat(v, C.trumpSuitOf(v));
    if (best) setSelection(best);
  });
  $("#kz-discard-lowest").addEventListener("click", () => {
    const v = view();
    const low = L.discardLowest(v, C.trumpSuitOf(v));
    if (low) setSelection(low);
  });
  $("#kz-clear").addEventListener("click", () => setSelection([]));
  $("#kz-open-review").addEventListener("click", toggleReview);
  $("#kz-review-close").addEventListener("click", () => $("#kz-review").close());
  $("#kz-show-history").addEventListener("click", (e) => {
    const wrap = $("#kz-history-wrap");
    wrap.hidden = !wrap.hidden;
    e.currentTarget.setAttribute("aria-expanded", String(!wrap.hidden));
  });
  const copy = $("#kz-invite-copy");
  if (copy) copy.addEventListener("click", copyShareLink);
  const chatForm = $("#kz-chat-form");
  if (chatForm) chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("#kz-chat-input");
    const text = input.value.trim().slice(0, 300);
    if (!text) return;
    if (send({ type: "chat", text })) input.value = "";
    else toast(gettext("Not connected: the message was not sent."));
  });
  // "Show spectators' chat": remembered by the server for this person; every
  // screen of theirs then gets a snapshot with (or without) the spectators' lines.
  const showSpectators = $("#kz-show-spectators");
  if (showSpectators) showSpectators.addEventListener("change", () => {
    if (send({ type: "chat_settings", show_spectators: showSpectators.checked })) {
      S.showSpectatorsWanted = showSpectators.checked;
    } else {
      showSpectators.checked = !showSpectators.checked;
      toast(gettext("Not connected: the setting was not changed."));
    }
  });
  // Ranked tables have no free chat, only the preset lines.
  const presets = $("#kz-chat-presets");
  if (presets) presets.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-preset]");
    if (button && !send({ type: "chat", text: button.dataset.preset })) toast(gettext("Not connected: the message was not sent."));
  });
  root.addEventListener("submit", (e) => {
    const form = e.target.closest("form.js-seat-form");
    if (!form) return;
    e.preventDefault();
    submitSeatForm(form);
  });
  document.addEventListener("keydown", onKey);
}

/** "Copy link": the share link to the clipboard, said in the status line beside it. */
async function copyShareLink() {
  const input = $("#kz-invite-link");
  const said = $("#kz-invite-copied");
  let copied = false;
  try {
    await navigator.clipboard.writeText(input.value);
    copied = true;
  } catch {
    // No clipboard permission (an insecure origin): select it for the reader to copy.
    input.select();
  }
  said.textContent = copied ? gettext("Link copied: send it to a friend.") : gettext("Select the link and copy it.");
}

// The hand's card buttons are redrawn by render/hand.js; one listener on the hand
// serves them all. A click (or Space) selects; a double-click leads a single card.
function bindHand() {
  const hand = $("#kz-hand");
  const cardOf = (e) => {
    const b = e.target.closest && e.target.closest(".hand-card");
    return b && hand.contains(b) ? b : null;
  };
  hand.addEventListener("click", (e) => {
    const b = cardOf(e);
    if (b) toggle(b.dataset.code);
  });
  hand.addEventListener("dblclick", (e) => {
    const b = cardOf(e);
    if (!b) return;
    e.preventDefault();
    const code = b.dataset.code;
    const lead = L.findAction(view(), "lead", [code]);
    if (lead) {
      setSelection([code]);
      act("lead", [code]);
    }
  });
}

// Seat forms (sit, leave, bots, kick, start, play again) post in the background; the
// snapshot pushed afterwards (or the resync) shows the result.
async function submitSeatForm(form) {
  const buttons = form.querySelectorAll("button");
  buttons.forEach((b) => (b.disabled = true));
  try {
    const res = await fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin", headers: { "X-Requested-With": "fetch" } });
    const text = await res.text();
    const elsewhere = res.status === 409 && new DOMParser().parseFromString(text, "text/html").querySelector(".playing-elsewhere");
    if (elsewhere) {
      // Playing at another table: show both ways out (return there, or leave it and
      // sit here), as plain forms that post the whole page.
      document.querySelectorAll(".playing-elsewhere").forEach((old) => old.remove());
      const shown = document.importNode(elsewhere, true);
      root.insertAdjacentElement("beforebegin", shown);
      shown.scrollIntoView({ block: "nearest" });
      const link = shown.querySelector("a");
      if (link) link.focus();
    } else if (!res.ok) {
      toast(res.status === 403 ? gettext("Refused: sign in or reload the page.") : gettext("Refused (%(status)s).", { status: res.status }));
    } else {
      const doc = new DOMParser().parseFromString(text, "text/html");
      const err = doc.querySelector(".messages .error, .errorlist, .message.error");
      if (err) toast(err.textContent.trim());
    }
  } catch {
    toast(gettext("Could not reach the server."));
  } finally {
    buttons.forEach((b) => (b.disabled = false));
    resync();
  }
}

function moveFocus(delta) {
  const cards = [...root.querySelectorAll("#kz-hand .hand-card")];
  if (!cards.length) return;
  const i = cards.indexOf(document.activeElement);
  const next = i < 0 ? (delta > 0 ? 0 : cards.length - 1) : (i + delta + cards.length) % cards.length;
  cards[next].focus();
}

function onKey(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target.tagName || "").toLowerCase();
  if (["input", "textarea", "select"].includes(tag) || e.target.isContentEditable) return;
  if ($("#kz-review").open && e.key.toLowerCase() !== "z") return;
  const inHand = e.target.closest && e.target.closest("#kz-hand");
  const key = e.key;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    if (inHand || e.target === document.body) {
      e.preventDefault();
      moveFocus(key === "ArrowLeft" ? -1 : 1);
    }
    return;
  }
  if (key === "Enter") {
    if (!inHand && e.target !== document.body) return;
    e.preventDefault(); // never toggle a card with Enter: Enter plays
    const kinds = L.legalKindsFor(view(), S.selected);
    // The same cards may both beat and be discarded (R9): Enter beats, D discards.
    if (kinds.has("beat") && kinds.has("discard")) kinds.delete("discard");
    if (kinds.size === 1) doKind([...kinds][0]);
    else if (kinds.size > 1) toast(gettext("More than one play fits: press L, B or D."));
    return;
  }
  if (tag === "button" && !inHand && key === " ") return;
  // The letter keys by their place on the keyboard, so L/B/D/M/Z work in any layout
  // (a Russian keyboard types "д" on the L key).
  const k = /^Key[A-Z]$/.test(e.code || "") ? e.code.slice(3).toLowerCase() : key.toLowerCase();
  const byKey = { l: "lead", b: "beat", d: "discard" };
  if (byKey[k]) {
    const b = $(`#kz-actions [data-kind="${byKey[k]}"]`);
    if (b && !b.hidden && !b.disabled) {
      e.preventDefault();
      b.click();
    }
  } else if (k === "m") {
    const b = $("#kz-molodka");
    if (!b.hidden && !b.disabled) {
      e.preventDefault();
      b.click();
    }
  } else if (k === "z") {
    e.preventDefault();
    toggleReview();
  }
}
