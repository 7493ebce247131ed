"""Game tunables, read in one place from settings with a ``KOZEL_`` prefix (allauth-style)."""

from __future__ import annotations

from kozel_site.appconf import PrefixedSettings


class GameSettings(PrefixedSettings):
    """``game_settings.BOT_DELAY_SECONDS`` reads ``settings.KOZEL_BOT_DELAY_SECONDS``."""

    prefix = "KOZEL_"
    defaults = {
        # A bot's human-like pause before it plays (UX: 0.6–1.2 s; 0 in tests).
        "BOT_DELAY_SECONDS": 0.8,
        # The pause between the end of a game and the next deal, to read the summary.
        "NEXT_GAME_DELAY_SECONDS": 3.0,
        # Test-only setup hooks (a game from a known position); never in production.
        "TEST_HOOKS": False,
        # R18: loss points that end a series.
        "DEFAULT_SERIES_TARGET": 12,
        # Tests only: every clock runs this many seconds instead of the table's setting.
        "TURN_SECONDS_OVERRIDE": None,
        "CHAT_MAX_LENGTH": 300,
        # How long a seated person may be away on their own turn before a bot takes
        # their seat (services/clock.py, the sweep's absentee pass).
        "DISCONNECT_GRACE_SECONDS": 60,
    }

    def turn_seconds(self, table_seconds: int | None) -> float | None:
        """The clock length for a table (None: no clock)."""
        if table_seconds is None:
            return None
        override = self.TURN_SECONDS_OVERRIDE
        return float(table_seconds) if override is None else float(override)


game_settings = GameSettings()
