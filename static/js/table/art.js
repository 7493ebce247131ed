// Pictures drawn by us: the goat (kozel) of the series and the eggs of R17.

import { gettext } from "../i18n.js";

// The labels go into markup: a translation must not be able to break it.
const escapeText = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function goatSvg() {
  const label = escapeText(gettext("A goat"));
  return `<svg class="goat-svg" viewBox="0 0 200 170" role="img" aria-label="${label}">
  <title>${label}</title>
  <g fill="none" stroke="#3b2f25" stroke-width="4" stroke-linecap="round" stroke-linejoin="round">
    <path d="M78 38 C60 10 34 8 24 22 C40 20 56 28 66 46" fill="#cbb89a"/>
    <path d="M112 38 C128 8 156 8 166 22 C150 20 134 30 124 46" fill="#cbb89a"/>
  </g>
  <ellipse cx="128" cy="112" rx="58" ry="34" fill="#f1ece2" stroke="#3b2f25" stroke-width="4"/>
  <g stroke="#3b2f25" stroke-width="6" stroke-linecap="round">
    <path d="M92 136 L88 164"/><path d="M112 140 L112 166"/>
    <path d="M150 140 L152 166"/><path d="M170 134 L176 162"/>
  </g>
  <path d="M184 100 C196 92 196 84 190 80" fill="none" stroke="#3b2f25" stroke-width="4" stroke-linecap="round"/>
  <path d="M66 46 C52 54 48 84 62 104 C70 116 84 118 94 112 C110 102 128 80 124 56 C120 40 88 34 66 46 Z"
        fill="#f7f3ea" stroke="#3b2f25" stroke-width="4"/>
  <path d="M58 60 C44 56 34 62 30 70 C42 72 52 70 60 66 Z" fill="#e9dfcd" stroke="#3b2f25" stroke-width="3"/>
  <path d="M124 58 C138 52 148 58 152 66 C140 68 130 66 122 64 Z" fill="#e9dfcd" stroke="#3b2f25" stroke-width="3"/>
  <ellipse cx="78" cy="72" rx="5" ry="6" fill="#3b2f25"/>
  <ellipse cx="106" cy="72" rx="5" ry="6" fill="#3b2f25"/>
  <rect x="74" y="70" width="8" height="3" fill="#f7f3ea"/><rect x="102" y="70" width="8" height="3" fill="#f7f3ea"/>
  <path d="M84 98 C88 102 96 102 100 98" fill="none" stroke="#3b2f25" stroke-width="3" stroke-linecap="round"/>
  <path d="M82 112 C80 128 86 142 92 146 C96 134 98 124 98 112" fill="#d9cdb6" stroke="#3b2f25" stroke-width="3"/>
</svg>`;
}

export function eggSvg() {
  const label = escapeText(gettext("eggs"));
  return `<svg class="egg-svg" viewBox="0 0 24 30" role="img" aria-label="${label}">
  <title>${label}</title>
  <path d="M12 2 C5 2 2 14 2 19 C2 25 6.5 28 12 28 C17.5 28 22 25 22 19 C22 14 19 2 12 2 Z"
        fill="#fff7e0" stroke="#b08a3e" stroke-width="1.6"/>
  <ellipse cx="8.5" cy="12" rx="2" ry="3.5" fill="#ffffff" opacity=".9"/>
</svg>`;
}
