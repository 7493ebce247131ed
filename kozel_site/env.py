"""Environment-variable readers that reject malformed values (healthchecks' envbool).

Settings are driven by the environment; a typo such as ``DEBUG=ture`` must stop the
process with a clear message instead of silently meaning something else.
"""

from __future__ import annotations

import os

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class EnvError(ValueError):
    """An environment variable holds a value its reader cannot accept."""


def env_str(name: str, default: str | None = None) -> str | None:
    """Return the variable, or ``default`` when it is unset or empty."""
    value = os.environ.get(name)
    return value if value else default


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean: 1/true/yes/on or 0/false/no/off (any case)."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise EnvError(f"{name}={raw!r} is not a boolean (use true or false)")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """Read an integer, optionally bounded below."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise EnvError(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise EnvError(f"{name}={value} must be at least {minimum}")
    return value


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    """Read a float, optionally bounded below."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise EnvError(f"{name}={raw!r} is not a number") from None
    if minimum is not None and value < minimum:
        raise EnvError(f"{name}={value} must be at least {minimum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list, ignoring blanks."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """Read one of ``choices``; a typo fails at start-up instead of picking a default."""
    raw = (os.environ.get(name) or "").strip()
    if not raw:
        return default
    if raw not in choices:
        raise EnvError(f"{name}={raw!r} is not one of {', '.join(choices)}")
    return raw
