// Moderation on the live table: report a player from their seat plate, from a
// chat line or after the series; mute this table's chat for yourself. A module of its
// own beside table/*.js: it reads the table's state (window.kozelTable) and watches the
// regions table.js renders, and never changes what they show.

import { gettext } from "../i18n.js";

const root = document.getElementById("kz-table");
const signedIn = !document.querySelector(".kz-chat-signin");

function csrf() {
  const input = root && root.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function state() {
  return (window.kozelTable && window.kozelTable.state) || {};
}

function me() {
  const snap = state().snap;
  return snap && snap.you ? snap.you.user : null;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

async function post(url, fields) {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== null && value !== undefined && value !== "") body.append(key, value);
  const response = await fetch(url, {
    method: "POST", body, credentials: "same-origin",
    headers: { "X-CSRFToken": csrf(), Accept: "application/json" },
  });
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = { ok: false, message: gettext("Something went wrong; try again.") };
  }
  return data;
}

// --- the report dialog ---------------------------------------------------------------
const CATEGORIES = [
  ["abuse", gettext("Abusive chat")], ["stalling", gettext("Stalling or leaving")],
  ["cheating", gettext("Cheating or collusion")], ["name", gettext("Offensive name")], ["other", gettext("Other")],
];

let dialog = null;

function field(label, control) {
  // Each control under its own <label>, one per line (never side by side, unnamed).
  return el("div", { class: "kz-report-field" }, el("label", { for: control.id, text: label }), control);
}

function buildDialog() {
  const form = el("form", { method: "dialog", id: "kz-report-form" });
  const who = el("p", { id: "kz-report-who" });
  const pick = el("select", { id: "kz-report-user", name: "user" });
  const pickField = field(gettext("Whom do you report?"), pick);
  pickField.id = "kz-report-user-field";
  pickField.hidden = true;
  const category = el("select", { id: "kz-report-category", name: "category" });
  for (const [value, label] of CATEGORIES) category.append(el("option", { value, text: label }));
  const text = el("textarea", { id: "kz-report-text", name: "text", rows: "3", maxlength: "1000" });
  const block = el("input", { type: "checkbox", id: "kz-report-block", name: "block", value: "1" });
  const status = el("p", { id: "kz-report-status", role: "status", class: "muted" });
  const cancel = el("button", { type: "button", id: "kz-report-cancel", text: gettext("Cancel") });
  const send = el("button", { type: "submit", id: "kz-report-send", class: "primary", text: gettext("Send the report") });
  form.append(el("h2", { text: gettext("Report a player") }), who, pickField,
    field(gettext("What happened?"), category),
    field(gettext("Anything moderators should know (optional)"), text),
    el("label", { class: "kz-report-check" }, block, document.createTextNode(` ${gettext("Also block this player")}`)), status,
    el("div", { class: "row" }, cancel, send));
  dialog = el("dialog", { id: "kz-report-dialog", class: "kz-report-dialog", "aria-labelledby": "kz-report-title" }, form);
  form.querySelector("h2").id = "kz-report-title";
  document.body.append(dialog);
  cancel.addEventListener("click", () => dialog.close());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const ctx = dialog.context || {};
    send.disabled = true;
    status.textContent = gettext("Sending…");
    const data = await post("/report/", {
      user: ctx.user || (pickField.hidden ? "" : pick.value), category: category.value, text: text.value,
      source: ctx.source, table: root.dataset.tableId, message: ctx.message, series: ctx.series,
      block: block.checked ? "1" : "",
    });
    send.disabled = false;
    status.textContent = data.message || (data.ok ? gettext("Sent.") : gettext("Refused."));
    if (data.ok) {
      send.hidden = true;
      cancel.textContent = gettext("Close");
    }
  });
}

function openReport(ctx) {
  if (!dialog) buildDialog();
  dialog.context = ctx;
  dialog.querySelector("#kz-report-who").textContent = ctx.label || "";
  const pick = dialog.querySelector("#kz-report-user");
  pick.replaceChildren();
  dialog.querySelector("#kz-report-user-field").hidden = !ctx.choices;
  for (const [value, label] of ctx.choices || []) pick.append(el("option", { value, text: label }));
  dialog.querySelector("#kz-report-category").value = ctx.category || "abuse";
  dialog.querySelector("#kz-report-text").value = "";
  dialog.querySelector("#kz-report-block").checked = false;
  dialog.querySelector("#kz-report-status").textContent = "";
  dialog.querySelector("#kz-report-send").hidden = false;
  dialog.querySelector("#kz-report-cancel").textContent = gettext("Cancel");
  dialog.showModal();
}

// A flag drawn by us (its name is the button's): a symbol font may lack the flag character.
const SVG = "http://www.w3.org/2000/svg";
function flagIcon() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "14");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "flag-icon");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M3 1.5v13M3 2.5h8.5l-2 3 2 3H3");
  path.setAttribute("fill", "currentColor");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "1.5");
  path.setAttribute("stroke-linejoin", "round");
  svg.append(path);
  return svg;
}

function reportButton(label, ctx) {
  const button = el("button", { type: "button", class: "kz-report-btn", title: label, "aria-label": label });
  button.append(flagIcon());
  button.addEventListener("click", (event) => {
    event.stopPropagation();
    openReport(ctx);
  });
  return button;
}

// --- where the buttons go --------------------------------------------------------------
function people() {
  const snap = state().snap;
  return ((snap && snap.seats) || []).filter((s) => s.user && s.user !== me());
}

function decoratePlates() {
  const seats = (state().snap && state().snap.seats) || [];
  root.querySelectorAll(".kz-seat[data-seat]").forEach((plate) => {
    if (plate.querySelector(".kz-report-btn")) return;
    const seat = seats.find((s) => String(s.position) === plate.dataset.seat);
    if (!seat || !seat.user || seat.user === me()) return;
    const head = plate.querySelector(".plate-head") || plate;
    const who = seat.name || seat.user;
    head.append(reportButton(gettext("Report %(who)s", { who }), {
      user: seat.user, source: "seat", category: "stalling", label: gettext("Reporting %(who)s", { who }),
    }));
  });
}

function decorateChat() {
  // Never on your own lines: each line names its author (data-user), the ones that came
  // live after the snapshot too.
  const self = me();
  root.querySelectorAll(".kz-chat-list li[data-chat-id]").forEach((line) => {
    const id = line.dataset.chatId;
    if (!id || line.querySelector(".kz-report-btn")) return;
    if (!line.dataset.user || line.dataset.user === self) return;
    const name = (line.querySelector("strong") || {}).textContent || gettext("this player");
    line.append(reportButton(gettext("Report this line by %(who)s", { who: name }), {
      message: id, source: "chat", category: "abuse", label: gettext("Reporting a chat line by %(who)s", { who: name }),
    }));
  });
}

function decorateSeriesEnd() {
  const box = root.querySelector("#kz-series-end");
  const series = state().snap && state().snap.series;
  if (!box || box.hidden || !series || box.querySelector(".kz-series-report")) return;
  const choices = people().map((s) => [s.user, s.name || s.user]);
  if (!choices.length) return;
  const button = el("button", { type: "button", class: "kz-series-report", text: gettext("Report a player") });
  button.addEventListener("click", () => openReport({ source: "series", series: series.id, choices, label: gettext("Whom do you report from this series?") }));
  // Inside the card, beside its other buttons: the overlay around it takes no clicks.
  (box.querySelector(".series-card .summary-foot") || box).append(button);
}

function decorate() {
  if (!signedIn) return;
  decoratePlates();
  decorateChat();
  decorateSeriesEnd();
}

// --- muting this table's chat for yourself ----------------------------------------------
async function chatMuteToggle() {
  const chat = root.querySelector(".kz-chat h2");
  if (!chat || !signedIn) return;
  const box = el("input", { type: "checkbox", id: "kz-chat-mute" });
  const tools = el("div", { class: "kz-chat-tools" },
    el("label", {}, box, document.createTextNode(` ${gettext("Mute this table's chat")}`)));
  chat.after(tools);
  // Both chats (the players' and the spectators'): muting the table mutes them all.
  const lists = root.querySelectorAll(".kz-chat-list");
  const apply = (muted) => {
    box.checked = muted;
    lists.forEach((list) => { list.hidden = muted; });
  };
  try {
    const response = await fetch(`/table/${root.dataset.tableId}/chat-mute/`, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const data = await response.json();
    if (data.ok) apply(Boolean(data.muted));
  } catch {
    /* the toggle still works */
  }
  box.addEventListener("change", async () => {
    const data = await post(`/table/${root.dataset.tableId}/chat-mute/`, { muted: box.checked ? "1" : "0" });
    if (data.ok) apply(Boolean(data.muted));
    else apply(!box.checked);
  });
}

if (root) {
  new MutationObserver(decorate).observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });
  decorate();
  chatMuteToggle();
}
