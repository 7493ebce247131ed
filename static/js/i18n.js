// Translations for the site's JavaScript: Django's JSON catalog from /jsi18n/
// (kozel_site/i18n.py), loaded once with a top-level await, so every module importing
// this one speaks the page's language from its first line. No build step.
//
// The catalog URL (with the page's language) is on <html data-i18n-catalog>. If it cannot
// be loaded the page stays in English, the source language. Besides the messages it
// carries the card words of locale/glossary.toml (`cardWords`): rank letters, names.

const url = document.documentElement.dataset.i18nCatalog;
let data = {};
if (url) {
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (response.ok) data = await response.json();
  } catch {
    /* offline or refused: English */
  }
}
const catalog = data.catalog || {};

// The plural rule is the C expression of the catalog's Plural-Forms header, e.g. Russian
// "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)".
// The site's Content-Security-Policy forbids eval, so a small parser reads it instead.
function compilePlural(expression) {
  const tokens = typeof expression === "string" ? expression.match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%<>!?:()]/g) : null;
  if (!tokens || tokens.join("") !== expression.replace(/\s+/g, "")) return (n) => (n === 1 ? 0 : 1);
  let i = 0;
  const peek = () => tokens[i];
  const take = (t) => (tokens[i] === t ? (i++, true) : false);
  const BINARY = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]];
  const apply = (op, a, b) => ({
    "||": () => +(a || b), "&&": () => +(a && b), "==": () => +(a === b), "!=": () => +(a !== b),
    "<": () => +(a < b), ">": () => +(a > b), "<=": () => +(a <= b), ">=": () => +(a >= b),
    "+": () => a + b, "-": () => a - b, "*": () => a * b, "/": () => Math.trunc(a / b), "%": () => a % b,
  })[op]();
  function ternary() {
    const cond = binary(0);
    if (!take("?")) return cond;
    const yes = ternary();
    take(":");
    const no = ternary();
    return (n) => (cond(n) ? yes(n) : no(n));
  }
  function binary(level) {
    if (level === BINARY.length) return unary();
    let left = binary(level + 1);
    while (BINARY[level].includes(peek())) {
      const op = tokens[i++];
      const l = left, r = binary(level + 1);
      left = (n) => apply(op, l(n), r(n));
    }
    return left;
  }
  function unary() {
    if (take("!")) { const v = unary(); return (n) => +!v(n); }
    if (take("(")) { const v = ternary(); take(")"); return v; }
    const t = tokens[i++];
    if (t === "n") return (n) => n;
    const value = Number(t);
    return () => value;
  }
  const rule = ternary();
  return (n) => rule(n);
}
const pluralIndex = compilePlural(data.plural);

/** The translation of `msgid`, its "%(name)s" placeholders filled from `values`. */
export function gettext(msgid, values = null) {
  const value = catalog[msgid];
  const text = value === undefined ? msgid : typeof value === "string" ? value : value[0];
  return values ? interpolate(text, values) : text;
}

/** The plural form for `n` (Russian has three); placeholders from `values` and %(n)s. */
export function ngettext(singular, plural, n, values = {}) {
  const value = catalog[singular];
  let text;
  if (value === undefined || typeof value === "string") text = n === 1 ? singular : plural;
  else text = value[pluralIndex(n)] ?? value[value.length - 1];
  return interpolate(text, { n, ...values });
}

/** A translation in a context, for short words that could mean two things: pgettext("dealer chip", "D"). */
export function pgettext(context, msgid, values = null) {
  const value = catalog[`${context}\x04${msgid}`];
  const text = value === undefined ? msgid : typeof value === "string" ? value : value[0];
  return values ? interpolate(text, values) : text;
}

/** Fill "%(name)s" placeholders (Django's named interpolation). */
export function interpolate(format, values) {
  return format.replace(/%\((\w+)\)s/g, (match, key) => (key in values ? String(values[key]) : match));
}

export const language = data.language || document.documentElement.lang || "en";

/** Card words of the page's language (glossary [<code>.cards]); English if unknown. */
export const cardWords = data.cards || {
  letters: { J: "J", Q: "Q", K: "K", A: "A" },
  ranks: { 6: "6", 7: "7", 8: "8", 9: "9", J: "jack", Q: "queen", K: "king", T: "10", A: "ace" },
  suits: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
  suits_in_name: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
  name: "{rank} of {suit}",
  trump: "{card} (trump)",
};

/** A number in the page's language ("1 234" in Russian). */
export const number = (n) => (Number.isFinite(n) ? n.toLocaleString(language) : String(n));
