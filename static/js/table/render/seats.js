// The four seat plates around the felt: name, team, tricks and loss points, card backs,
// dealer chip, turn marker, and offline / away tags.

import * as C from "../cards.js";
import { $, h } from "../dom.js";
import { S, isEmptySeat, me, nameOf, posOf, seatInfo, teamOf, view } from "../state.js";

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
    // Our own seat is connected whenever this socket is open, whatever the snapshot said.
    const offline = info.connected === false && !(seat === me() && S.open) && !empty;
    const cls = ["kz-seat", `team-${team}`, turn && "is-turn", seat === me() && "is-me", empty && "is-empty",
      offline && "is-offline"].filter(Boolean).join(" ");
    slot.className = `kz-slot kz-pos-${pos}`;
    const plate = h("div", { class: cls, "data-seat": seat, "data-team": team });
    const name = empty ? "Empty seat" : nameOf(seat, { youWord: false });
    const head = h("div", { class: "plate-head" },
      h("span", { class: "avatar", "aria-hidden": "true", text: empty ? "·" : (name[0] || "?").toUpperCase() }),
      h("span", { class: "pname", text: name }),
      seat === me() ? h("span", { class: "you-tag", text: "you" }) : null,
      info.bot_level ? h("span", { class: "bot-tag", text: "bot" }) : null,
      v && v.dealer === seat ? h("span", { class: "dealer-chip", title: "Dealer", text: "D" }) : null,
    );
    const stats = h("div", { class: "plate-stats" },
      h("span", { class: "team-tag", text: `Team ${team}` }),
      v ? h("span", { class: "stat", title: "Tricks taken by the team in this game" },
        h("span", { class: "long", text: ` · ${(v.tricks && v.tricks[team]) || 0} tricks` }),
        h("span", { class: "short", text: ` ${(v.tricks && v.tricks[team]) || 0} tr` })) : null,
      S.snap.series ? h("span", { class: "stat", title: "Loss points of the team in this series" },
        h("span", { class: "long", text: ` · ${lp[team] ?? 0} loss pts` }),
        h("span", { class: "short", text: ` · ${lp[team] ?? 0} lp` })) : null,
    );
    plate.append(head, stats);
    if (info.away) plate.append(h("div", { class: "offline-tag", title: "A bot plays this seat until its player comes back", text: "away · bot plays" }));
    else if (offline) plate.append(h("div", { class: "offline-tag", title: "This player's connection dropped", text: "offline" }));
    if (turn) plate.append(h("div", { class: "turn-marker", text: seat === me() ? "your turn" : "to play" }));
    if (v && seat !== me()) {
      const n = (v.hand_sizes || [])[seat] ?? 0;
      const backs = h("div", { class: "backs", "aria-hidden": "true" });
      for (let i = 0; i < n; i++) backs.append(C.backElement({ small: true }));
      plate.append(backs);
    }
    const tricks = v && v.tricks ? v.tricks[team] || 0 : null;
    const label = [`${name}${seat === me() ? " (you)" : ""}`, `team ${team}`,
      v && seat !== me() ? `${(v.hand_sizes || [])[seat] ?? 0} cards` : null,
      tricks !== null ? `team tricks ${tricks}` : null,
      S.snap.series ? `team loss points ${lp[team] ?? 0}` : null,
      turn ? "to play" : null].filter(Boolean).join(", ");
    plate.setAttribute("aria-label", label);
    plate.setAttribute("role", "group");
    slot.replaceChildren(plate);
  }
}
