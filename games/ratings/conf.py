"""Rating parameters, read in one place from ``settings.KOZEL_RATING`` (allauth-style).

Every key has a default here; ``settings.KOZEL_RATING`` overrides any of them, and the
values are read at call time so tests can use ``override_settings``.

The model is OpenSkill's PlackettLuce with one rating per player; a team is its two
partners. ``BETA`` (the performance noise of one game) is 25/3 instead of the package's
25/6: a deal of Kozel is mostly luck, so one game says little about skill and a smaller
beta made ratings overconfident (sigma fell fast while the order was still wrong).
"""

from __future__ import annotations

import math
from typing import Any

from kozel_site.appconf import DictSettings

DEFAULTS: dict[str, Any] = {
    # OpenSkill PlackettLuce.
    "MU": 25.0,
    "SIGMA": 25.0 / 3.0,
    "BETA": 25.0 / 3.0,
    "TAU": 25.0 / 300.0,
    # Inactivity: the variance grows by this much per idle day (sigma² + c²·days), capped
    # at SIGMA. 0.05 takes a settled sigma of 3 to 3.1 in two weeks, 4.2 in six months
    # and 5.2 (close to provisional) in a year.
    "IDLE_VARIANCE_PER_DAY": 0.05,
    # Display: DISPLAY_BASE + DISPLAY_SCALE * (mu - DISPLAY_SIGMAS * sigma), see display().
    "DISPLAY_BASE": 1000.0,
    "DISPLAY_SCALE": 25.0,
    "DISPLAY_SIGMAS": 3.0,
    # A rating is provisional while its (inflated) sigma is above this.
    "PROVISIONAL_SIGMA": 5.5,
    # Leaderboard eligibility.
    "LEADERBOARD_MAX_SIGMA": 4.5,
    "LEADERBOARD_MIN_SERIES": 20,
    "LEADERBOARD_MIN_PARTNERS": 5,
    "LEADERBOARD_MIN_OPPONENTS": 8,
    "LEADERBOARD_ACTIVE_DAYS": 14,
    "LEADERBOARD_PAGE_SIZE": 50,
    # A young site: while fewer players than this qualify, the board also lists the best
    # provisional players (marked as such), so it is never empty while people play ranked.
    # Ten is a page that reads as a board; fewer reads as a site nobody plays on.
    "LEADERBOARD_YOUNG_BELOW": 10,
    "LEADERBOARD_PROVISIONAL_ROWS": 20,
    # Trend: the sum of display changes over this many days.
    "TREND_DAYS": 14,
    # Rating-history chart: at most this many latest points.
    "HISTORY_POINTS": 100,
    # The backstop sweep re-rates finished series this recent that have no marker.
    "SWEEP_LOOKBACK_HOURS": 48,
}


class RatingSettings(DictSettings):
    """Typed accessors over ``settings.KOZEL_RATING``."""

    setting = "KOZEL_RATING"
    defaults = DEFAULTS

    def model(self) -> Any:
        """A PlackettLuce model with the configured parameters."""
        # Imported on use: only the rating service needs openskill, not every process
        # that reads a rating's settings.
        from openskill.models import PlackettLuce

        return PlackettLuce(mu=self.MU, sigma=self.SIGMA, beta=self.BETA, tau=self.TAU)

    def display(self, mu: float, sigma: float) -> int:
        """The rating people see: a conservative value scaled to a friendly range.

        ``mu - 3·sigma`` is a skill the player has with about 99.9% confidence, so a
        lucky newcomer cannot top the board after a few series: to rise, a player must
        both win and play enough for sigma to shrink. It is scaled as
        ``1000 + 25·(mu - 3·sigma)``: a newcomer (mu 25, sigma 25/3, conservative 0)
        starts at 1000, an average settled player (mu 25, sigma about 2) sits near 1500,
        one point of mu is worth 25 rating points, and the strongest players reach the
        1700s–1800s. The floor is 0 so nobody sees a negative number.
        """
        value = self.DISPLAY_BASE + self.DISPLAY_SCALE * (mu - self.DISPLAY_SIGMAS * sigma)
        return max(0, round(value))

    def inflated_sigma(self, sigma: float, idle_days: float) -> float:
        """Sigma after ``idle_days`` without a rated series (lazy, never stored early)."""
        days = max(0.0, idle_days)
        return min(self.SIGMA, math.sqrt(sigma * sigma + self.IDLE_VARIANCE_PER_DAY * days))


rating_settings = RatingSettings()
