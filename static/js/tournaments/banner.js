// The round-start banner on every page: when ws/tournaments/me/ says a round started
// (or your match changed), fetch the banner again; its button checks you in and takes
// you to your table.
import { follow, refresh } from "./socket.js";

const banner = document.getElementById("tournament-banner");
if (banner) {
  follow("/ws/tournaments/me/", () => refresh(banner, banner.dataset.bannerUrl),
         () => { banner.dataset.connected = "1"; refresh(banner, banner.dataset.bannerUrl); });
}
