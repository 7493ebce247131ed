// The tournament page's live part: pairings, running tables, results, standings and the
// cross-table, fetched again whenever ws/tournament/<id>/ says the tournament changed.
import { follow, refresh } from "./socket.js";

const live = document.getElementById("tournament-live");
if (live) {
  let pending = false;
  const update = () => {
    if (pending) return;
    pending = true;
    // Coalesce a burst of changes (a round ending) into one fetch.
    setTimeout(() => { pending = false; refresh(live, live.dataset.liveUrl); }, 150);
  };
  follow(live.dataset.wsPath, update, () => { live.dataset.connected = "1"; update(); });
  setInterval(update, 30000); // the backstop for a lost message
}
