// The table chat lists: each line appears once, and lines a moderator hid
// leave every open screen. Two chats: the players' chat (#kz-chat-list),
// which everyone reads, and the spectators' chat (#kz-spec-chat-list), which spectators
// read and a seated player only after ticking "Show spectators' chat" (the server sends
// a spectator line only to those screens; games/WEBSOCKET.md).

import { gettext, language } from "../../i18n.js";
import { $, h } from "../dom.js";
import { S } from "../state.js";

const LINES = ".kz-chat-list li[data-chat-id]";
const key = (m) => String(m.id ?? `${m.at}:${m.text}`);

// Lines the page rendered carry data-chat-id and are marked seen at start; snapshots
// and chat frames then add only lines not seen yet.
export function addChat(m) {
  if (!m || S.chatSeen.has(key(m))) return;
  const list = m.channel === "spectators" ? $("#kz-spec-chat-list") : $("#kz-chat-list");
  if (!list) return;
  S.chatSeen.add(key(m));
  // A tournament director's message reads as the event's, not as a player's line.
  const director = m.channel === "director";
  const who = director ? gettext("Director %(name)s:", { name: m.name || m.user || "?" }) : (m.name || m.user || "?");
  const li = h("li", { "data-chat-id": m.id ?? "", "data-user": m.user ?? "", class: director ? "chat-director" : "" }, h("strong", { text: who }), h("span", { text: ` ${m.text}` }));
  if (m.at) li.title = new Date(m.at).toLocaleTimeString(language);
  list.append(li);
  while (list.children.length > 200) list.firstChild.remove();
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; }); // no forced layout mid-render
}

export function markRenderedChat() {
  document.querySelectorAll(LINES).forEach((li) => S.chatSeen.add(li.dataset.chatId));
}

/** Show the spectators' chat and the toggle as the snapshot says (``you``): a
 * spectator always reads it; a player only by choice, and turning it off empties it. */
export function renderChatPanel(snap) {
  const you = (snap && snap.you) || {};
  const seated = you.position !== null && you.position !== undefined;
  const box = $("#kz-spec-chat");
  const list = $("#kz-spec-chat-list");
  if (box && list) {
    box.hidden = !you.sees_spectator_chat;
    if (box.hidden) {
      list.querySelectorAll("li").forEach((li) => S.chatSeen.delete(li.dataset.chatId));
      list.replaceChildren();
    }
  }
  const label = $("#kz-show-spectators-label");
  if (label) label.hidden = !seated;
  const toggle = $("#kz-show-spectators");
  const stored = Boolean(you.show_spectator_chat);
  if (S.showSpectatorsWanted === stored) S.showSpectatorsWanted = null;
  if (toggle) toggle.checked = S.showSpectatorsWanted ?? stored;
  const input = $("#kz-chat-input");
  if (input) input.placeholder = seated ? gettext("Say something…") : gettext("Say something to the spectators…");
}

/** An error frame: if it refused the toggle's change, the stored setting shows again. */
export function forgetWantedChatSetting() {
  if (S.showSpectatorsWanted === null) return;
  S.showSpectatorsWanted = null;
  const toggle = $("#kz-show-spectators");
  if (toggle) toggle.checked = Boolean(S.snap && S.snap.you && S.snap.you.show_spectator_chat);
}

// A moderator hid lines: withdraw them from this screen (a chat_hidden frame), and on a
// snapshot drop any shown line the server no longer lists within its backlog.
export function removeChat(ids) {
  const gone = new Set(ids.map(String));
  document.querySelectorAll(LINES).forEach((li) => {
    if (gone.has(li.dataset.chatId)) li.remove();
  });
}

export function reconcileChat(lines) {
  const ids = lines.map((m) => m.id).filter(Number.isInteger);
  if (!ids.length) return;
  const oldest = Math.min(...ids);
  const listed = new Set(ids.map(String));
  const stale = [];
  document.querySelectorAll(LINES).forEach((li) => {
    const id = Number(li.dataset.chatId);
    if (Number.isInteger(id) && id >= oldest && !listed.has(li.dataset.chatId)) stale.push(id);
  });
  if (stale.length) removeChat(stale);
}
