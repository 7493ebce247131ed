// The strong bot's review on the replay page: ask for one (the form, sent with fetch),
// wait for it (the status is polled every 2 s while it is made), then show each decision
// as a bar coloured by its grade, a graph of the expected loss points, and the mistakes;
// a click on a bar or a mistake moves the replay to the position of that decision.
//
// Without JavaScript the forms still work: the server queues the review and comes back
// to the replay.

import { gettext } from "./i18n.js";
import * as C from "./table/cards.js";

const box = document.getElementById("kz-review");
const GRADE_LABELS = {
  good: gettext("Good"),
  inaccuracy: gettext("Inaccuracy"),
  mistake: gettext("Mistake"),
  blunder: gettext("Blunder"),
};
const MARK_LABELS = {
  molodka_not_announced: gettext("Molodka not announced"),
  beat_not_made: gettext("Beat not made"),
  points_given: gettext("Points given away"),
};
const POLL_MS = 2000;

function csrfToken() {
  const input = box.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function seatItem(seat) {
  return box.querySelector(`.review-seats li[data-seat="${seat}"]`);
}

function setStatus(seat, text) {
  const status = seatItem(seat)?.querySelector(".review-status");
  if (status) status.textContent = text;
}

// The replay's slider moves the replay (static/js/replay.js listens to its input).
function goToStep(step) {
  const range = document.getElementById("rp-range");
  if (!range) return;
  range.value = String(step);
  range.dispatchEvent(new Event("input", { bubbles: true }));
  range.scrollIntoView({ block: "nearest" });
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function describeAction(text) {
  // "beat 9H TH" -> the kind in words and the cards as they are written on the table.
  const [kind, ...cards] = text.split(" ");
  const words = {
    lead: gettext("lead"),
    beat: gettext("beat"),
    discard: gettext("discard"),
    molodka: gettext("molodka"),
    quiet: gettext("no molodka"),
  };
  return [words[kind] || kind, ...cards.map(C.symbol)].join(" ");
}

function drawGraph(decisions) {
  const svg = document.getElementById("review-graph");
  svg.replaceChildren();
  if (!decisions.length) return;
  const values = decisions.map((d) => d.played_value);
  const top = Math.max(1, ...values.map(Math.abs));
  const x = (i) => (decisions.length === 1 ? 150 : 10 + (280 * i) / (decisions.length - 1));
  const y = (v) => 50 - (45 * v) / top;
  const ns = "http://www.w3.org/2000/svg";
  const axis = document.createElementNS(ns, "line");
  axis.setAttribute("x1", "0");
  axis.setAttribute("x2", "300");
  axis.setAttribute("y1", "50");
  axis.setAttribute("y2", "50");
  axis.setAttribute("class", "review-axis");
  svg.append(axis);
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  line.setAttribute("class", "review-line");
  svg.append(line);
  decisions.forEach((d, i) => {
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", x(i).toFixed(1));
    dot.setAttribute("cy", y(d.played_value).toFixed(1));
    dot.setAttribute("r", "3");
    dot.setAttribute("class", `review-dot grade-${d.grade}`);
    svg.append(dot);
  });
}

function show(review) {
  const result = document.getElementById("review-result");
  const name = seatItem(review.seat)?.querySelector(".review-seat-name")?.textContent || "";
  const player = seatItem(review.seat)?.dataset.name || "";
  document.getElementById("review-heading").textContent = name;
  const counts = review.summary.grades || {};
  document.getElementById("review-summary").textContent = gettext(
    "%(n)s decisions: %(good)s good, %(inaccuracy)s inaccuracies, %(mistake)s mistakes, %(blunder)s blunders.",
    {
      n: review.summary.decisions || 0,
      good: counts.good || 0,
      inaccuracy: counts.inaccuracy || 0,
      mistake: counts.mistake || 0,
      blunder: counts.blunder || 0,
    },
  );
  const bars = document.getElementById("review-bars");
  bars.replaceChildren();
  const mistakes = document.getElementById("review-mistakes");
  mistakes.replaceChildren();
  review.decisions.forEach((d) => {
    const label = gettext("Trick %(t)s: %(played)s, %(grade)s", {
      t: d.trick + 1,
      played: describeAction(d.played),
      grade: GRADE_LABELS[d.grade],
    });
    const bar = el("button", `review-bar grade-${d.grade}`);
    bar.type = "button";
    bar.setAttribute("role", "listitem");
    bar.setAttribute("aria-label", label);
    bar.title = label;
    bar.style.setProperty("--cost", String(Math.min(1, 0.15 + d.cost / 2)));
    bar.addEventListener("click", () => goToStep(d.move));
    bars.append(bar);
    if (d.grade !== "good") {
      const item = el("li", `review-mistake grade-${d.grade}`);
      const jump = el("button", "linklike");
      jump.type = "button";
      jump.textContent = gettext("Trick %(t)s: %(name)s played %(played)s; better: %(best)s (cost: %(cost)s loss points)", {
        t: d.trick + 1,
        name: player,
        played: describeAction(d.played),
        best: describeAction(d.best),
        cost: d.cost.toFixed(2),
      });
      jump.addEventListener("click", () => goToStep(d.move));
      item.append(el("span", `grade grade-${d.grade}`, GRADE_LABELS[d.grade]), " ");
      (d.marks || []).forEach((mark) => item.append(el("span", "review-mark", MARK_LABELS[mark] || mark), " "));
      item.append(jump);
      mistakes.append(item);
    }
  });
  if (!mistakes.children.length) mistakes.append(el("li", "muted", gettext("No mistakes: well played.")));
  drawGraph(review.decisions);
  result.hidden = false;
}

async function load(seat) {
  const response = await fetch(`/game/${box.dataset.game}/review/${seat}/`, {
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  });
  if (!response.ok) return;
  const review = await response.json();
  setStatus(seat, review.status_text);
  seatItem(seat).dataset.status = review.status;
  if (review.status === "done") show(review);
  else if (review.status === "queued" || review.status === "running") setTimeout(() => load(seat), POLL_MS);
}

async function ask(form) {
  const seat = Number(new FormData(form).get("seat"));
  const response = await fetch(form.action, {
    method: "POST",
    body: new FormData(form),
    headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
    credentials: "same-origin",
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    setStatus(seat, answer.error || gettext("The review could not be asked for."));
    return;
  }
  const button = el("button", "review-show", gettext("Show the review"));
  button.type = "button";
  button.dataset.seat = String(seat);
  button.addEventListener("click", () => load(seat));
  form.replaceWith(button);
  setStatus(seat, answer.status_text);
  load(seat);
}

if (box) {
  box.querySelectorAll("form.review-ask").forEach((form) =>
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      ask(form);
    }),
  );
  box.querySelectorAll("button.review-show").forEach((button) =>
    button.addEventListener("click", () => load(Number(button.dataset.seat))),
  );
  const wanted = new URLSearchParams(window.location.search).get("review");
  if (wanted !== null && seatItem(wanted)) load(Number(wanted));
}
