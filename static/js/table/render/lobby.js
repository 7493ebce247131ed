// The lobby before a series starts: the four seats with Sit / Leave / Add bot / Remove
// bot / Kick forms, and Start for the owner (the forms are posted by input.js).

import { gettext } from "../../i18n.js";
import { $, csrfToken, h } from "../dom.js";
import { S, baseUrl, isEmptySeat, isLobby, seatInfo, teamOf, you } from "../state.js";

// The bot levels (games.models.BotLevel), named in the page's language.
const LEVELS = {
  random: gettext("Random"),
  beginner: gettext("Beginner"),
  casual: gettext("Casual"),
  club: gettext("Club"),
  strong: gettext("Strong"),
};

export function renderLobby() {
  const box = $("#kz-lobby");
  const lobby = isLobby() && !(S.snap.series && S.snap.series.status === "finished");
  box.hidden = !lobby;
  if (!lobby) return;
  const y = you();
  const csrf = csrfToken();
  const form = (action, fields, label, cls = "") => {
    const f = h("form", { method: "post", action: `${baseUrl()}${action}`, class: "inline js-seat-form" });
    f.append(h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrf }));
    for (const [k, val] of Object.entries(fields)) f.append(h("input", { type: "hidden", name: k, value: String(val) }));
    f.append(h("button", { type: "submit", class: cls, text: label }));
    return f;
  };
  const list = h("ul", { class: "lobby-seats" });
  for (let pos = 0; pos < 4; pos++) {
    const s = seatInfo(pos);
    const li = h("li", { class: `team-${teamOf(pos)}`, "data-position": pos });
    li.append(h("span", { class: "seat-no", text: gettext("Seat %(n)s", { n: pos + 1 }) }),
      h("span", { class: "team-tag", text: teamOf(pos) }));
    if (isEmptySeat(s)) {
      li.append(h("span", { class: "seat-name muted", text: gettext("Empty") }));
      if (y.user) li.append(form("sit/", { position: pos }, gettext("Sit here"), "primary"));
      if (y.is_owner) {
        const f = h("form", { method: "post", action: `${baseUrl()}bot/`, class: "inline js-seat-form bot-form" });
        f.append(h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrf }),
          h("input", { type: "hidden", name: "position", value: String(pos) }));
        const sel = h("select", { name: "level", "aria-label": gettext("Bot level for seat %(n)s", { n: pos + 1 }) });
        for (const [lv, label] of Object.entries(LEVELS)) sel.append(h("option", { value: lv, text: label }));
        f.append(sel, h("button", { type: "submit", text: gettext("Add bot") }));
        li.append(f);
      }
    } else {
      li.append(h("span", { class: "seat-name", text: s.name || s.user }));
      if (s.bot_level) {
        li.append(h("span", { class: "bot-tag", text: gettext("bot · %(level)s", { level: LEVELS[s.bot_level] || s.bot_level }) }));
      }
      // A tournament's seats are the event's: nobody stands up from them here.
      if (pos === y.position && !S.snap.event) li.append(form("leave/", {}, gettext("Leave")));
      else if (y.is_owner && s.bot_level) li.append(form("bot/remove/", { position: pos }, gettext("Remove bot")));
      else if (y.is_owner && s.user) li.append(form("kick/", { position: pos }, gettext("Kick")));
    }
    list.append(li);
  }
  const filled = [0, 1, 2, 3].every((p) => !isEmptySeat(seatInfo(p)));
  const foot = h("div", { class: "lobby-foot" });
  if (y.is_owner && filled) foot.append(form("start/", {}, gettext("Start"), "primary big"));
  else if (y.is_owner) foot.append(h("p", { class: "muted", text: gettext("Start appears when all four seats are filled.") }));
  else if (S.snap.event) {
    foot.append(h("p", { class: "muted", text: gettext("The match starts as soon as all four players have checked in.") }));
  } else foot.append(h("p", { class: "muted", text: gettext("Waiting for the owner to start.") }));
  box.replaceChildren(h("h2", { text: gettext("Seats") }), list, foot);
}
