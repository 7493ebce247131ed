"""System checks that refuse a release of a library the site patches other than the one
the patch was tested with: an upgrade must be reviewed against the patch first."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.checks import Error, register

from accounts import adapter
from kozel_site import kombu_fixes, site_url


@dataclass(frozen=True)
class Patched:
    distribution: str
    tested_version: str
    patch: str
    check_id: str


PATCHED = (
    Patched("kombu", kombu_fixes.TESTED_VERSION, "kozel_site/kombu_fixes.py", "kozel.E010"),
    Patched("django-allauth", adapter.TESTED_ALLAUTH_VERSION,
            "accounts/adapter.py (AccountAdapter._get_login_attempts_cache_key)",
            "kozel.E011"),
)


def version_errors(installed: Callable[[str], str]) -> list[Error]:
    """An error for each patched library whose ``installed`` version is not the tested
    one."""
    errors = []
    for patched in PATCHED:
        version = installed(patched.distribution)
        if version != patched.tested_version:
            errors.append(Error(
                f"{patched.distribution} {version} is installed, but {patched.patch} "
                f"patches {patched.distribution} {patched.tested_version}.",
                hint=(f"Review the patch against {patched.distribution} {version} (or "
                      "remove it if fixed upstream), then update its tested version and "
                      "the pin in pyproject.toml."),
                id=patched.check_id))
    return errors


@register()
def check_patched_libraries(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """kozel.E010 kombu, kozel.E011 django-allauth: not the release the patch was tested
    with."""
    return version_errors(importlib.metadata.version)


def site_url_errors(url: str, required: bool) -> list[Error]:
    """kozel.E020: production has no site address (e-mails would carry links to
    nowhere); kozel.E021: the address is not an absolute http(s) host."""
    if not url:
        if required:
            return [Error("KOZEL_SITE_URL is not set.",
                          hint="Set it to the site's address, e.g. https://kozel.example: "
                               "every e-mail and notification links to it.",
                          id="kozel.E020")]
        return []
    if not site_url.valid_site_url(url):
        return [Error(f"KOZEL_SITE_URL is {url!r}, not an address like https://kozel.example.",
                      hint="Give the scheme and host only, without a path.",
                      id="kozel.E021")]
    return []


@register()
def check_site_url(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    return site_url_errors(site_url.configured(),
                           bool(getattr(settings, "KOZEL_SITE_URL_REQUIRED", False)))
