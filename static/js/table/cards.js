// Cards: parsing, names, points, ordering and SVG drawing (R2, R3, R6, R7).
// Card codes are two characters, rank then suit: ranks 6 7 8 9 J Q K T A
// (T is the ten and is always DISPLAYED as "10"), suits C D H S.
// Letters and names follow the page's language (locale/glossary.toml via ../i18n.js):
// Russian shows В Д К Т and names "Десятка червей".

import { cardWords } from "../i18n.js";

export const RANKS = "6789JQKTA";
export const SUITS = "CDHS";
export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
/** A suit named alone in the page's language: "hearts", "черви". */
export const SUIT_NAMES = cardWords.suits;
// The English names a view may carry for its trump suit (read, never shown).
const SUIT_CODES = { clubs: "C", diamonds: "D", hearts: "H", spades: "S" };
// R3: 6, 7, 8, 9 = 0; J = 2; Q = 3; K = 4; 10 = 10; A = 11.
const RANK_POINTS = { 6: 0, 7: 0, 8: 0, 9: 0, J: 2, Q: 3, K: 4, T: 10, A: 11 };

export const rankOf = (code) => code[0];
export const suitOf = (code) => code[1];
export const rankIndex = (code) => RANKS.indexOf(code[0]);
export const suitIndex = (code) => SUITS.indexOf(code[1]);
export const points = (code) => RANK_POINTS[code[0]] ?? 0;
export const isCode = (code) =>
  typeof code === "string" && code.length === 2 && RANKS.includes(code[0]) && SUITS.includes(code[1]);

/** "10" for T, else the rank letter of the page's language ("Q", Russian "Д"). */
export const rankLabel = (code) => (code[0] === "T" ? "10" : cardWords.letters[code[0]] ?? code[0]);

/** Short symbol form: "10♥", "Q♠" (Russian "Д♠"). */
export const symbol = (code) => rankLabel(code) + SUIT_SYMBOLS[code[1]];

const capFirst = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The name inside a sentence: "10 of hearts", "queen of spades", "десятка червей". */
export function cardName(code) {
  return cardWords.name
    .replace("{rank}", cardWords.ranks[code[0]] ?? code[0])
    .replace("{suit}", cardWords.suits_in_name[code[1]] ?? code[1]);
}

/** The name standing alone (a button, an image): "10 of hearts", "Queen of spades". */
export const cardLabel = (code) => capFirst(cardName(code));

/** The trump suit letter from a view (trump_suit may be a letter, a symbol or an index). */
export function trumpSuitOf(view) {
  if (!view) return null;
  const t = view.trump_suit;
  if (typeof t === "string") {
    if (SUITS.includes(t.toUpperCase()) && t.length === 1) return t.toUpperCase();
    for (const [k, v] of Object.entries(SUIT_SYMBOLS)) if (v === t) return k;
    if (SUIT_CODES[t.toLowerCase()]) return SUIT_CODES[t.toLowerCase()];
  }
  if (typeof t === "number" && t >= 0 && t < 4) return SUITS[t];
  if (isCode(view.trump_card)) return view.trump_card[1];
  return null;
}

/** R7: does card x beat card y with `trump` (a suit letter) as trump? */
export function beats(x, y, trump) {
  if (x[1] === y[1]) return rankIndex(x) > rankIndex(y);
  return x[1] === trump && y[1] !== trump;
}

/** R9: can `cards` be paired one-to-one with `top` so each beats its partner? */
export function canBeat(cards, top, trump) {
  if (cards.length !== top.length) return false;
  const used = new Array(cards.length).fill(false);
  const match = (i) => {
    if (i === top.length) return true;
    for (let j = 0; j < cards.length; j++) {
      if (!used[j] && beats(cards[j], top[i], trump)) {
        used[j] = true;
        if (match(i + 1)) return true;
        used[j] = false;
      }
    }
    return false;
  };
  return match(0);
}

/** Display order: by suit (trump last), then by rank (R2, R6). */
export function sortCards(cards, trump) {
  const key = (c) => (c[1] === trump ? 4 : suitIndex(c)) * 10 + rankIndex(c);
  return [...cards].sort((a, b) => key(a) - key(b));
}

export const formatCards = (cards, trump) => sortCards(cards, trump).map(symbol).join(" ");

// ---- SVG drawing -----------------------------------------------------------------

const SVG_NS = "http://www.w3.org/2000/svg";

// Suit shapes in a 100 x 100 box.
const SUIT_PATHS = {
  D: "M50 2 L92 50 L50 98 L8 50 Z",
  H: "M50 94 C22 72 2 54 4 30 C6 10 36 2 50 24 C64 2 94 10 96 30 C98 54 78 72 50 94 Z",
  S: "M50 2 C34 26 4 40 6 62 C8 80 32 84 45 70 C44 82 39 90 30 98 L70 98 C61 90 56 82 55 70 C68 84 92 80 94 62 C96 40 66 26 50 2 Z",
  C: "M50 6 A21 21 0 0 1 66 42 A21 21 0 1 1 56 70 C57 82 61 90 70 98 L30 98 C39 90 43 82 44 70 A21 21 0 1 1 34 42 A21 21 0 0 1 50 6 Z",
};

export function suitPath(suit, x, y, size) {
  const s = size / 100;
  return `<path class="pip" transform="translate(${x} ${y}) scale(${s})" d="${SUIT_PATHS[suit]}"/>`;
}

/** Inline SVG markup for a face-up card (60 x 84 units). */
export function cardSvg(code, { trump = null } = {}) {
  const suit = code[1];
  const rank = rankLabel(code);
  const isTrump = trump && suit === trump;
  const face = "JQK".includes(code[0]);
  const rankSize = rank.length > 1 ? 21 : 24;
  const spacing = rank.length > 1 ? ' letter-spacing="-2"' : "";
  let centre;
  if (face) {
    // A framed pip, not the letter again: a second "K" would make the button's visible
    // text "K K", which its name ("King of clubs") cannot contain (WCAG 2.5.3, axe's
    // label-content-name-mismatch); the corner already shows the rank.
    centre =
      `<rect x="22" y="30" width="32" height="46" rx="4" class="face-frame"/>` +
      suitPath(suit, 27, 40, 22);
  } else {
    centre = suitPath(suit, 24, 40, 30);
  }
  return (
    `<svg class="card-svg suit-${suit}${isTrump ? " is-trump" : ""}" viewBox="0 0 60 84" aria-hidden="true" focusable="false">` +
    `<rect class="card-bg" x="0.75" y="0.75" width="58.5" height="82.5" rx="5"/>` +
    (isTrump ? `<rect class="trump-band" x="1.5" y="74" width="57" height="8.5" rx="0"/>` : "") +
    `<text class="rank" x="4" y="22" font-size="${rankSize}"${spacing}>${rank}</text>` +
    suitPath(suit, 4.5, 26, 16) +
    centre +
    `</svg>`
  );
}

/** Inline SVG markup for a card back. */
export function backSvg() {
  return (
    `<svg class="card-svg card-back" viewBox="0 0 60 84" aria-hidden="true" focusable="false">` +
    `<rect class="back-bg" x="0.75" y="0.75" width="58.5" height="82.5" rx="5"/>` +
    `<rect class="back-inner" x="5" y="5" width="50" height="74" rx="3"/>` +
    `<path class="back-lattice" d="M5 15 L45 79 M5 35 L32 79 M5 55 L20 79 M15 5 L55 69 M35 5 L55 37 M45 5 L55 21 M55 15 L15 79 M55 35 L28 79 M55 55 L40 79 M45 5 L5 69 M25 5 L5 37 M15 5 L5 21"/>` +
    `<path class="back-mark" d="M30 30 L40 42 L30 54 L20 42 Z M30 35 L36 42 L30 49 L24 42 Z"/>` +
    `</svg>`
  );
}

/** A DOM element (span.card) holding a face-up card; `label` true adds role=img + name. */
export function cardElement(code, { trump = null, small = false, label = true } = {}) {
  const el = document.createElement("span");
  el.className = `card${small ? " small" : ""}${trump && code[1] === trump ? " trump" : ""}`;
  el.dataset.code = code;
  el.innerHTML = cardSvg(code, { trump });
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardLabel(code));
  }
  return el;
}

export function backElement({ small = false, label = null } = {}) {
  const el = document.createElement("span");
  el.className = `card back${small ? " small" : ""}`;
  el.innerHTML = backSvg();
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  } else {
    el.setAttribute("aria-hidden", "true");
  }
  return el;
}

/** Text node-ish span with coloured suit symbols: "10♥ A♥" (safe: no HTML from data). */
export function cardsText(cards, trump) {
  const span = document.createElement("span");
  span.className = "cards-text";
  sortCards(cards.filter(isCode), trump).forEach((c, i) => {
    if (i) span.append(" ");
    const s = document.createElement("span");
    s.className = `ct suit-${c[1]}`;
    s.textContent = symbol(c);
    s.title = cardLabel(c);
    span.append(s);
  });
  return span;
}

export { SVG_NS };

// The four-colour deck (UX: ♣ green, ♦ blue, ♥ red, ♠ black), remembered per browser.
const FOUR_COLOUR_KEY = "kozel.fourColour";

export function setFourColour(on) {
  document.documentElement.classList.toggle("four-colour", on);
  try {
    localStorage.setItem(FOUR_COLOUR_KEY, on ? "1" : "0");
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

/** Apply the saved choice and keep ``checkbox`` in step with it. */
export function bindFourColourToggle(checkbox) {
  try {
    if (localStorage.getItem(FOUR_COLOUR_KEY) === "1") document.documentElement.classList.add("four-colour");
  } catch {
    /* ignore */
  }
  checkbox.checked = document.documentElement.classList.contains("four-colour");
  checkbox.addEventListener("change", () => setFourColour(checkbox.checked));
}
