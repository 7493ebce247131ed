"""Typed, call-time reads of an app's tunables with every default in one place
(allauth's ``app_settings`` style), shared by games, ratings and the queue.

An accessor lists its keys and defaults; reading ``accessor.KEY`` looks the value up in
Django's settings *when it is read* (so tests can override settings) and coerces it to
the default's type, so a string from the environment becomes a float where a float is
expected. Unknown keys raise AttributeError: a typo never reads as a silent default.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


class AppSettings:
    """Base accessor. Subclasses set ``defaults`` and say where a key's value lives."""

    defaults: dict[str, Any] = {}

    def raw(self, key: str, default: Any) -> Any:
        raise NotImplementedError

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_") or key not in self.defaults:
            raise AttributeError(key)
        default = self.defaults[key]
        value = self.raw(key, default)
        if value is None or default is None:
            return value
        return type(default)(value)


class PrefixedSettings(AppSettings):
    """Each key is its own setting, named ``prefix + key`` (``KOZEL_BOT_DELAY_SECONDS``)."""

    prefix = ""

    def raw(self, key: str, default: Any) -> Any:
        return getattr(settings, self.prefix + key, default)


class DictSettings(AppSettings):
    """All keys live in one dict setting (``KOZEL_RATING = {"MU": 25.0, ...}``)."""

    setting = ""

    def raw(self, key: str, default: Any) -> Any:
        return getattr(settings, self.setting, {}).get(key, default)
