"""System checks that refuse a release of a library the site patches other than the one
the patch was tested with: an upgrade must be reviewed against the patch first."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.checks import Error, register

from accounts import adapter
from kozel_site import kombu_fixes


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
