// The queue pages (queue/ranked.html, queue/casual.html): poll the queue once a second,
// update the figures, follow a match to the table, and reload when the state changes
// (an invitation accepted, a partner who left). A static module: the site's CSP allows
// no inline script.
const box = document.getElementById("kz-queue");
if (box) {
  const url = box.dataset.statusUrl;
  const shown = box.dataset.state;
  const time = document.getElementById("kz-queue-time");
  const waiting = document.getElementById("kz-queue-waiting");
  const botEta = document.getElementById("kz-bot-eta");  // seconds until bots fill the table
  // A translated "%(n)s s" when the page gives one (data-seconds-format), else "N s".
  const format = (time && time.dataset.secondsFormat) || box.dataset.secondsFormat || "";
  let invites = null;
  async function poll() {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (response.ok) {
        const s = await response.json();
        if (s.state === "matched" && s.table_url) { window.location.assign(s.table_url); return; }
        if (waiting) waiting.textContent = s.waiting;
        if (botEta && typeof s.bots_in === "number") botEta.textContent = s.bots_in;
        if (time) time.textContent = format.includes("%(n)s") ? format.replace("%(n)s", s.seconds) : `${s.seconds} s`;
        const seen = JSON.stringify([s.invites, s.invite_sent]);
        if (s.state !== shown || (invites !== null && seen !== invites)) { window.location.reload(); return; }
        invites = seen;
      }
    } catch (error) { /* offline for a moment: try again */ }
    setTimeout(poll, 1000);
  }
  setTimeout(poll, 1000);
}
