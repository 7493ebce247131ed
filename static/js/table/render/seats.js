// The four seat plates around the felt: name, team, tricks and loss points, card backs,
// dealer chip, turn marker, and offline / away tags.

import { gettext, ngettext, pgettext } from "../../i18n.js";
import * as C from "../cards.js";
import { $, h } from "../dom.js";
import { S, isEmptySeat, me, nameOf, nameParts, posOf, seatInfo, takeoverAt, teamOf, view } from "../state.js";

export function renderSeats() {
  const v = view();
  const lp = (S.snap.series && S.snap.series.loss_points) || {};
  for (let seat = 0; seat < 4; seat++) {
    const pos = posOf(seat);
    const slot = $(`#kz-seat-${pos}`);
    const info = seatInfo(seat);
    const team = teamOf(seat);
    const empty = isEmptySeat(info);
    const turn = v && !v.game_over && v.turn === seat;
    // Our own seat is connected whenever this socket is open, whatever the snapshot said;
    // while the page's first socket is still connecting it is not called offline or
    // counted down to a bot either (the page was drawn before this socket existed).
    const connecting = seat === me() && !S.everOpened;
    const offline = info.connected === false && !(seat === me() && S.open) && !connecting && !empty;
    const cls = ["kz-seat", `team-${team}`, turn && "is-turn", seat === me() && "is-me", empty && "is-empty",
      offline && "is-offline"].filter(Boolean).join(" ");
    slot.className = `kz-slot kz-pos-${pos}`;
    const plate = h("div", { class: cls, "data-seat": seat, "data-team": team });
    const name = empty ? gettext("Empty seat") : nameOf(seat, { youWord: false });
    const parts = empty ? { first: name, level: "" } : nameParts(seat, { youWord: false });
    const head = h("div", { class: "plate-head" },
      h("span", { class: "avatar", "aria-hidden": "true", text: empty ? "·" : (name[0] || "?").toUpperCase() }),
      h("span", { class: "pname" }, h("span", { class: "pfirst", text: parts.first }),
        parts.level ? h("span", { class: "plevel", text: ` ${parts.level}` }) : null),
      seat === me() ? h("span", { class: "you-tag", text: gettext("you") }) : null,
      info.bot_level ? h("span", { class: "bot-tag", text: gettext("bot") }) : null,
      v && v.dealer === seat ? h("span", { class: "dealer-chip", title: gettext("Dealer"), text: pgettext("dealer chip", "D") }) : null,
    );
    const taken = (v && v.tricks && v.tricks[team]) || 0;
    const lost = lp[team] ?? 0;
    // In words, never "0 tr · 0 lp": a narrow plate puts each on a line of its own.
    const sep = () => h("span", { class: "sep", "aria-hidden": "true", text: " · " });
    const stats = h("div", { class: "plate-stats" },
      h("span", { class: "team-tag", text: gettext("Team %(team)s", { team }) }),
      v ? h("span", { class: "stat", title: gettext("Tricks taken by the team in this game") },
        sep(), ngettext("%(n)s trick", "%(n)s tricks", taken)) : null,
      S.snap.series ? h("span", { class: "stat", title: gettext("Loss points of the team in this series") },
        sep(), ngettext("%(n)s loss point", "%(n)s loss points", lost)) : null,
    );
    plate.append(head, stats);
    if (info.away) {
      plate.append(h("div", { class: "offline-tag", title: gettext("A bot plays this seat until its player comes back"),
        text: gettext("away · bot plays") }));
    } else if (offline) {
      plate.append(h("div", { class: "offline-tag", title: gettext("This player's connection dropped"), text: gettext("offline") }));
    }
    const takeover = takeoverAt(seat);
    if (takeover !== null && !info.away && !connecting) {
      // The server's instant a bot takes this absent person's seat (tickClock counts down).
      plate.append(h("div", { class: "takeover-tag", role: "timer", "data-at": String(takeover) }));
    }
    if (turn) plate.append(h("div", { class: "turn-marker", text: seat === me() ? gettext("your turn") : gettext("to play") }));
    if (v && seat !== me()) {
      const n = (v.hand_sizes || [])[seat] ?? 0;
      const backs = h("div", { class: "backs", "aria-hidden": "true" });
      for (let i = 0; i < n; i++) backs.append(C.backElement({ small: true }));
      plate.append(backs);
    }
    const tricks = v && v.tricks ? v.tricks[team] || 0 : null;
    const held = (v && (v.hand_sizes || [])[seat]) ?? 0;
    const label = [seat === me() ? gettext("%(name)s (you)", { name }) : name, gettext("team %(team)s", { team }),
      v && seat !== me() ? ngettext("%(n)s card", "%(n)s cards", held) : null,
      tricks !== null ? gettext("team tricks %(n)s", { n: tricks }) : null,
      S.snap.series ? gettext("team loss points %(n)s", { n: lost }) : null,
      turn ? gettext("to play") : null].filter(Boolean).join(", ");
    plate.setAttribute("aria-label", label);
    plate.setAttribute("role", "group");
    slot.replaceChildren(plate);
  }
  fitNames();
}

// The smallest a name is set before it may wrap inside a word, as a share of its size.
const NAME_FLOOR = 0.72;

/** A name is never cut: one whose longest word is wider than its plate (a side plate on
 * a phone) is set smaller, down to a floor, and only then breaks inside the word. Run
 * again when the window changes size. */
export function fitNames() {
  for (const el of document.querySelectorAll("#kz-table .kz-seat .pfirst")) {
    el.style.fontSize = "";
    el.classList.remove("is-broken");
    const base = parseFloat(getComputedStyle(el).fontSize);
    let size = base;
    while (el.scrollWidth > el.clientWidth + 0.5 && size > base * NAME_FLOOR) {
      size = Math.max(base * NAME_FLOOR, size - 0.5);
      el.style.fontSize = `${size}px`;
    }
    if (el.scrollWidth > el.clientWidth + 0.5) el.classList.add("is-broken");
  }
}
