// DOM helpers for the live table: the root element, a query, a tiny element builder.

export const root = document.getElementById("kz-table");
export const $ = (sel, el = root) => el.querySelector(sel);

/** h("button", {class, text, html, onclick, ...attrs}, ...children): one element. */
export const h = (tag, attrs = {}, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "html") el.innerHTML = v; // only ever our own markup (SVG)
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
};

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function csrfToken() {
  const input = root.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}
