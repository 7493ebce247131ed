"""System checks of moderation (ids moderation.E001...)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register

from accounts.moderation.conf import moderation_settings


@register()
def check_chat_filter_languages(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """The chat filter has lists for every language the site speaks."""
    lists = moderation_settings.CHAT_FILTER
    missing = [code for code, _name in settings.LANGUAGES if code not in lists]
    errors = []
    if missing:
        errors.append(Error(
            f"KOZEL_MODERATION['CHAT_FILTER'] has no lists for {', '.join(missing)}.",
            hint="Give every language in settings.LANGUAGES its 'block' and 'flag' lists.",
            id="moderation.E001"))
    if getattr(settings, "KOZEL_POLICY", "") != "accounts.moderation.policy.ModerationPolicy":
        errors.append(Error("KOZEL_POLICY does not name the moderation policy: sanctions "
                            "would not apply to play.",
                            id="moderation.E002"))
    return errors
