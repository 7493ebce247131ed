"""Whether the suite runs under CI, which has every service and the shared scenarios:
there a test that needs one fails instead of skipping quietly."""

from __future__ import annotations

import os


def running_in_ci() -> bool:
    """``CI`` set to anything but empty, 0, false or no (as CI services set it)."""
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}
