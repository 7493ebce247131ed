// What just happened, made visible: announcements (aria-live) of each play and whose
// turn it is, the molodka fly-back (R11), the finished trick lingering ~1.2 s and
// sliding to its taker, and freshly drawn cards (R12).

import { gettext } from "../i18n.js";
import { trumpSuitOf } from "./cards.js";
import { $, reducedMotion, root } from "./dom.js";
import { describe, entryKind, entrySeat } from "./history.js";
import { announce, flash } from "./notices.js";
import { renderCentre } from "./render/trick.js";
import { S, lastTrickEntries, me, nameOf } from "./state.js";

/** The view moved from oldView to newView (an event, or a snapshot of the same game). */
export function onViewChanged(oldView, newView) {
  const oldH = (oldView && oldView.history) || [];
  const newH = newView.history || [];
  const fresh = newH.length >= oldH.length ? newH.slice(oldH.length) : [];
  const lines = fresh.map((e) => describe(e, (s) => nameOf(s), trumpSuitOf(newView), me())).filter(Boolean);
  const molodka = fresh.find((e) => entryKind(e) === "molodka");
  if (molodka) {
    const who = entrySeat(molodka);
    const msg = who === me() ? gettext("You announced a molodka!") : gettext("%(who)s announced a molodka!", { who: nameOf(who) });
    flyBack(oldView, who);
    flash(msg);
  }
  // A trick was completed: keep it in view ~1.2 s, then slide it to the taker (UX).
  const total = (v) => (v && v.tricks ? (v.tricks.A || 0) + (v.tricks.B || 0) : 0);
  // A play to the next trick ends the pause at once: never hide what just happened.
  if (S.linger && (newView.table || []).some(Boolean)) collectLinger(S.linger.key);
  if (total(newView) > total(oldView)) startLinger(newView);
  if (newView.hand && oldView && oldView.hand && newView.hand.length > oldView.hand.length && !molodka) {
    markDrawn(newView.hand.filter((c) => !oldView.hand.includes(c)));
  }
  const turnLine = turnSentence(newView);
  announce([...lines, turnLine].filter(Boolean).join(". "));
}

function turnSentence(v) {
  if (v.game_over) return gettext("The game is over");
  if (!Number.isInteger(v.turn)) return "";
  return v.turn === me() ? gettext("Your turn") : gettext("%(who)s to play", { who: nameOf(v.turn) });
}

export function announceTurn(v) {
  announce(turnSentence(v));
}

function startLinger(newView) {
  const { entries, taker } = lastTrickEntries(newView);
  if (!entries.length) return;
  const key = Date.now();
  S.linger = { entries, taker, key };
  S.lingerTimer = setTimeout(() => collectLinger(key), 1200);
}

function collectLinger(key) {
  // The finished trick slides to the taker's seat, then the next trick shows (UX: pace).
  // The sliding cards are fixed-position clones, so later renders cannot cut them short.
  if (!S.linger || S.linger.key !== key) return;
  clearTimeout(S.lingerTimer);
  const taker = S.linger.taker;
  const target = Number.isInteger(taker) ? $(`.kz-seat[data-seat="${taker}"]`) : null;
  const sets = target && !reducedMotion() ? [...root.querySelectorAll("#kz-trick .trick-set.lingering")] : [];
  const clones = sets.map((el) => {
    const r = el.getBoundingClientRect();
    const c = el.cloneNode(true);
    c.classList.add("flying");
    c.setAttribute("aria-hidden", "true");
    Object.assign(c.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, margin: 0 });
    return c;
  });
  S.linger = null;
  renderCentre();
  if (!clones.length) return;
  const b = target.getBoundingClientRect();
  for (const c of clones) {
    document.body.append(c);
    const a = c.getBoundingClientRect();
    const dx = b.left + b.width / 2 - (a.left + a.width / 2);
    const dy = b.top + b.height / 2 - (a.top + a.height / 2);
    if (c.animate) {
      const anim = c.animate(
        [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.3)`, opacity: 0 }],
        { duration: 380, easing: "ease-in", fill: "forwards" },
      );
      anim.onfinish = () => c.remove();
    }
    setTimeout(() => c.remove(), 900);
  }
}

function flyBack(oldView, molodkaSeat) {
  // R11: every card already played goes back to its owner's hand. Animate the sets
  // in the centre flying to their seats (no motion under prefers-reduced-motion).
  if (reducedMotion() || !oldView) return;
  const sets = [...root.querySelectorAll("#kz-trick .trick-set")];
  const clones = sets.map((el) => {
    const r = el.getBoundingClientRect();
    const c = el.cloneNode(true);
    c.classList.add("flying");
    Object.assign(c.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, margin: 0 });
    return { c, seat: Number(el.dataset.seat) };
  });
  requestAnimationFrame(() => {
    for (const { c, seat } of clones) {
      document.body.append(c);
      const target = seat === me() ? $("#kz-hand") : $(`.kz-seat[data-seat="${seat}"]`);
      if (!target || !c.animate) {
        c.remove();
        continue;
      }
      const a = c.getBoundingClientRect();
      const b = target.getBoundingClientRect();
      const dx = b.left + b.width / 2 - (a.left + a.width / 2);
      const dy = b.top + b.height / 2 - (a.top + a.height / 2);
      const anim = c.animate(
        [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) rotate(-12deg) scale(.6)`, opacity: 0.1 }],
        { duration: 650, easing: "cubic-bezier(.3,.7,.4,1)" },
      );
      anim.onfinish = () => c.remove();
    }
  });
  void molodkaSeat;
}

function markDrawn(codes) {
  if (reducedMotion()) return;
  S.drawn = new Set(codes);
  setTimeout(() => (S.drawn = null), 700);
}
