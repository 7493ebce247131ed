// Replay viewer for a finished game (R19: after the end, everything may be shown).
//
// Built on the server's precomputed `frames` (one per move plus the start): step
// with the buttons, the slider or ←/→ (Home/End), all hands open or "view from a
// seat" (the other hands become card backs, other seats' discards face down).
// A page may hold several replays side by side (a duplicate board at two tables):
// each `.kz-replay-pane` names the prefix of its element ids in `data-prefix`.

import { gettext, ngettext } from "./i18n.js";
import * as C from "./table/cards.js";
import { describe } from "./table/history.js";

const POSITIONS = ["bottom", "left", "top", "right"];
const teamOf = (seat) => (seat % 2 === 0 ? "A" : "B");
const panes = [...document.querySelectorAll("#kz-replay, .kz-replay-pane")];

function readJson(id, fallback) {
  const el = document.getElementById(id);
  if (!el) return fallback;
  try {
    return JSON.parse(el.textContent);
  } catch {
    return fallback;
  }
}

function mount(root) {
  const p = root.dataset.prefix || "";
  // Ids inside a pane carry its prefix: "#rp-next" is "#t1-rp-next" in pane "t1-".
  const $ = (sel) => root.querySelector(sel.startsWith("#") ? `#${p}${sel.slice(1)}` : sel);
  const record = readJson(`${p}game-record`, {});
  const frames = readJson(`${p}replay-frames`, []);
  const names = {};
  root.querySelectorAll(`#${p}replay-names li`).forEach((li) => (names[Number(li.dataset.position)] = li.textContent));
  const nameOf = (seat) => names[seat] || gettext("Seat %(n)s", { n: seat + 1 });
  const trumpCard = record.trump_card || (frames[0] && frames[0].trump_card) || null;
  const trump = C.isCode(trumpCard) ? trumpCard[1] : null;

  const R = { step: 0, from: "all" };

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  const viewer = () => (R.from === "all" ? null : Number(R.from));
  const bottom = () => viewer() ?? 0;
  const posOf = (seat) => POSITIONS[(seat - bottom() + 4) % 4];

  function moveText(move) {
    if (!move) return gettext("The deal.");
    const entry = move.kind === "discard" && viewer() !== null && viewer() !== move.seat
      ? { event: "play", kind: "discard", seat: move.seat, count: move.cards.length }
      : { event: move.kind === "molodka" ? "molodka" : "play", ...move };
    // Every seat by its name: the replay tells nobody "You".
    return `${describe(entry, nameOf, trump, move.kind === "discard" ? move.seat : null, { you: null })}.`;
  }

  function render() {
    const f = frames[R.step];
    if (!f) return;
    const last = frames.length - 1;
    $("#rp-step").textContent = gettext("Step %(n)s of %(last)s", { n: R.step, last });
    $("#rp-range").value = String(R.step);
    $("#rp-first").disabled = $("#rp-prev").disabled = R.step === 0;
    $("#rp-next").disabled = $("#rp-last").disabled = R.step === last;
    $("#rp-move").textContent = moveText(f.move);
    root.dataset.step = String(R.step);

    // Trump and stock.
    const tbox = $("#kz-trump");
    tbox.replaceChildren();
    if (trump) {
      const s = el("span", `trump-suit suit-${trump}`, C.SUIT_SYMBOLS[trump]);
      s.setAttribute("aria-hidden", "true");
      tbox.append(el("span", "info-label", gettext("Trump")), s, C.cardElement(trumpCard, { trump, small: true }));
      tbox.setAttribute("aria-label", gettext("Trump: %(suit)s", { suit: C.SUIT_NAMES[trump] }));
    }
    const sbox = $("#kz-stock");
    sbox.replaceChildren(el("span", "info-label", gettext("Stock")), el("span", "stock-count", String(f.stock_size ?? 0)));
    sbox.setAttribute("aria-label", ngettext("Stock: %(n)s card", "Stock: %(n)s cards", f.stock_size ?? 0));

    // Seats with their hands.
    for (let seat = 0; seat < 4; seat++) {
      const slot = $(`#kz-seat-${posOf(seat)}`);
      const team = teamOf(seat);
      const plate = el("div", `kz-seat team-${team}${f.turn === seat ? " is-turn" : ""}`);
      plate.dataset.seat = String(seat);
      const head = el("div", "plate-head");
      const av = el("span", "avatar", (nameOf(seat)[0] || "?").toUpperCase());
      av.setAttribute("aria-hidden", "true");
      head.append(av, el("span", "pname", nameOf(seat)));
      const taken = (f.tricks && f.tricks[team]) || 0;
      const stats = el("div", "plate-stats",
        `${gettext("Team %(team)s", { team })} · ${ngettext("%(n)s trick", "%(n)s tricks", taken)}`);
      const hand = el("div", "rp-hand");
      const cards = C.sortCards(f.hands[seat] || [], trump);
      const open = viewer() === null || viewer() === seat;
      for (const code of cards) hand.append(open ? C.cardElement(code, { trump, small: true }) : C.backElement({ small: true }));
      hand.setAttribute("role", "group");
      let label;
      if (!cards.length) label = gettext("%(name)s's hand is empty", { name: nameOf(seat) });
      else if (open) label = gettext("%(name)s's hand: %(cards)s", { name: nameOf(seat), cards: cards.map(C.cardName).join(", ") });
      else label = ngettext("%(name)s's hand: %(n)s card", "%(name)s's hand: %(n)s cards", cards.length, { name: nameOf(seat) });
      hand.setAttribute("aria-label", label);
      plate.append(head, stats, hand);
      if (f.turn === seat) plate.append(el("div", "turn-marker", gettext("to play")));
      slot.replaceChildren(plate);
    }

    // The trick.
    const trick = $("#kz-trick");
    trick.replaceChildren();
    (f.table || []).forEach((entry, seat) => {
      if (!entry) return;
      const isTop = seat === f.top_seat && entry.kind !== "discard";
      const set = el("div", `trick-set kz-at-${posOf(seat)}${isTop ? " is-top" : ""}`);
      set.dataset.seat = String(seat);
      set.dataset.kind = entry.kind;
      const row = el("div", "set-cards");
      if (entry.kind === "discard") {
        const shown = viewer() === null || viewer() === seat;
        const n = entry.count ?? (entry.cards || []).length;
        for (let i = 0; i < n; i++) {
          if (shown && entry.cards && entry.cards[i]) {
            const c = C.cardElement(entry.cards[i], { trump, small: true });
            c.classList.add("own-discard");
            row.append(c);
          } else row.append(C.backElement({ small: true }));
        }
      } else {
        for (const code of C.sortCards(entry.cards || [], trump)) row.append(C.cardElement(code, { trump, small: true }));
      }
      set.append(row, el("span", "set-label", isTop ? gettext("%(who)s · to beat", { who: nameOf(seat) }) : nameOf(seat)));
      trick.append(set);
    });

    // The move list, current one marked.
    const list = $("#rp-moves");
    [...list.children].forEach((li, i) => li.classList.toggle("is-current", i + 1 === R.step));
    const cur = list.children[R.step - 1];
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }

  function go(step) {
    R.step = Math.max(0, Math.min(frames.length - 1, step));
    render();
  }

  function init() {
    if (!root || !frames.length) return;
    root.classList.add("js");
    C.bindFourColourToggle($("#kz-four-colour"));
    $("#rp-range").max = String(frames.length - 1);
    $("#rp-range").addEventListener("input", (e) => go(Number(e.target.value)));
    $("#rp-first").addEventListener("click", () => go(0));
    $("#rp-prev").addEventListener("click", () => go(R.step - 1));
    $("#rp-next").addEventListener("click", () => go(R.step + 1));
    $("#rp-last").addEventListener("click", () => go(frames.length - 1));
    $("#rp-view").addEventListener("change", (e) => {
      R.from = e.target.value;
      buildMoves();
      render();
    });
    // Alone on its page, the keys step it; side by side, the keys step the pane that
    // holds the focus, or every pane when none does.
    document.addEventListener("keydown", (e) => {
      if (panes.length > 1 && document.activeElement !== document.body && !root.contains(document.activeElement)) return;
      const tag = (e.target.tagName || "").toLowerCase();
      if (["input", "select", "textarea"].includes(tag) && e.target.type !== "range") return;
      if (e.key === "ArrowRight") go(R.step + 1);
      else if (e.key === "ArrowLeft") go(R.step - 1);
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(frames.length - 1);
      else return;
      e.preventDefault();
    });
    buildMoves();
    render();
  }

  function buildMoves() {
    const list = $("#rp-moves");
    list.replaceChildren();
    frames.slice(1).forEach((f, i) => {
      const li = el("li", "", moveText(f.move));
      li.addEventListener("click", () => go(i + 1));
      list.append(li);
    });
  }
  init();
}

panes.forEach(mount);
