"""Game tunables, read in one place from settings with a ``KOZEL_`` prefix (allauth-style)."""

from __future__ import annotations

from django.conf import settings


class GameSettings:
    """Typed accessors; read at call time so tests can override settings."""

    @property
    def BOT_DELAY_SECONDS(self) -> float:
        """A bot's human-like pause before it plays (UX: 0.6–1.2 s; 0 in tests)."""
        return float(getattr(settings, "KOZEL_BOT_DELAY_SECONDS", 0.8))

    @property
    def NEXT_GAME_DELAY_SECONDS(self) -> float:
        """The pause between the end of a game and the next deal, to read the summary."""
        return float(getattr(settings, "KOZEL_NEXT_GAME_DELAY_SECONDS", 3.0))

    @property
    def TEST_HOOKS(self) -> bool:
        """Test-only setup hooks (a game from a known position); never in production."""
        return bool(getattr(settings, "KOZEL_TEST_HOOKS", False))

    @property
    def DEFAULT_SERIES_TARGET(self) -> int:
        """R18: loss points that end a series."""
        return int(getattr(settings, "KOZEL_DEFAULT_SERIES_TARGET", 12))

    @property
    def TURN_SECONDS_OVERRIDE(self) -> float | None:
        """Tests only: every clock runs this many seconds instead of the table's setting."""
        value = getattr(settings, "KOZEL_TURN_SECONDS_OVERRIDE", None)
        return None if value is None else float(value)

    def turn_seconds(self, table_seconds: int | None) -> float | None:
        """The clock length for a table (None: no clock)."""
        if table_seconds is None:
            return None
        override = self.TURN_SECONDS_OVERRIDE
        return float(table_seconds) if override is None else override

    @property
    def CHAT_MAX_LENGTH(self) -> int:
        return int(getattr(settings, "KOZEL_CHAT_MAX_LENGTH", 300))


game_settings = GameSettings()
