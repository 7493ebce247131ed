// The table chat list: each line appears once (issue 11), and lines a moderator hid
// leave every open screen.

import { language } from "../../i18n.js";
import { $, h } from "../dom.js";
import { S } from "../state.js";

// Lines the page rendered carry data-chat-id and are marked seen at start; snapshots
// and chat frames then add only lines not seen yet.
export function addChat(m) {
  if (!m || S.chatSeen.has(String(m.id ?? `${m.at}:${m.text}`))) return;
  S.chatSeen.add(String(m.id ?? `${m.at}:${m.text}`));
  const list = $("#kz-chat-list");
  const li = h("li", { "data-chat-id": m.id ?? "" }, h("strong", { text: m.name || m.user || "?" }), h("span", { text: ` ${m.text}` }));
  if (m.at) li.title = new Date(m.at).toLocaleTimeString(language);
  list.append(li);
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

export function markRenderedChat() {
  document.querySelectorAll("#kz-chat-list li[data-chat-id]").forEach((li) => S.chatSeen.add(li.dataset.chatId));
}

// A moderator hid lines: withdraw them from this screen (a chat_hidden frame), and on a
// snapshot drop any shown line the server no longer lists within its backlog.
export function removeChat(ids) {
  const gone = new Set(ids.map(String));
  document.querySelectorAll("#kz-chat-list li[data-chat-id]").forEach((li) => {
    if (gone.has(li.dataset.chatId)) li.remove();
  });
}

export function reconcileChat(lines) {
  const ids = lines.map((m) => m.id).filter(Number.isInteger);
  if (!ids.length) return;
  const oldest = Math.min(...ids);
  const listed = new Set(ids.map(String));
  const stale = [];
  document.querySelectorAll("#kz-chat-list li[data-chat-id]").forEach((li) => {
    const id = Number(li.dataset.chatId);
    if (Number.isInteger(id) && id >= oldest && !listed.has(li.dataset.chatId)) stale.push(id);
  });
  if (stale.length) removeChat(stale);
}
