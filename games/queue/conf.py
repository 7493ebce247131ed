"""Matchmaking parameters, read from ``settings.KOZEL_QUEUE`` (defaults here).

Ranges are in OpenSkill mu points (1 mu = 25 displayed rating points): a newcomer's
range starts at ±2 mu (±50 rating points) and widens by 0.1 mu a second, so after a
minute anyone within ±8 mu (±200) is acceptable and after four minutes almost anyone.

The casual quick match ignores ratings; when nobody fixes a clock or a
target, its tables get ``CASUAL_TURN_SECONDS`` and ``CASUAL_TARGET``. When the wait a
person chose (``CASUAL_BOT_WAIT`` by default) is over, bots fill the seats nobody came
for, as soon as ``CASUAL_MIN_PEOPLE`` people who allow them are at the table: by default
one, so a lone person is seated with three bots, as "Play with people" promises. A
site may ask for more; the page then says how many (templates/queue/casual.html).
"""

from __future__ import annotations

from typing import Any

from kozel_site.appconf import DictSettings

DEFAULTS: dict[str, Any] = {
    "BASE_RANGE": 2.0,
    "WIDEN_PER_SECOND": 0.1,
    "MAX_RANGE": 30.0,
    "TURN_SECONDS": 30,
    "TABLE_NAME": "Ranked series",
    "CASUAL_TURN_SECONDS": 30,
    "CASUAL_TARGET": 12,
    "CASUAL_BOT_WAIT": 30,
    "CASUAL_MIN_PEOPLE": 1,
    "CASUAL_TABLE_NAME": "Quick match",
}


class QueueSettings(DictSettings):
    """Typed accessors over ``settings.KOZEL_QUEUE``."""

    setting = "KOZEL_QUEUE"
    defaults = DEFAULTS

    def tolerance(self, waited_seconds: float) -> float:
        """How far (in mu) a match may be from you after waiting this long."""
        widened = self.BASE_RANGE + self.WIDEN_PER_SECOND * max(0.0, waited_seconds)
        return min(self.MAX_RANGE, widened)


queue_settings = QueueSettings()
