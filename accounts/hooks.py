"""Signal receivers of the accounts app, all in one place.

- ``post_save(sender=User, instance, created, raw, **kwargs)``: when a user is created
  by any path (sign-up, ``createsuperuser``, admin, a test factory), create the profile
  **after commit** via ``services.ensure_profile``. On-commit so that a rolled-back
  user never leaves a profile behind and the hook never writes inside someone else's
  half-done transaction. Sign-up also calls ``ensure_profile`` directly (the adapter),
  so a freshly signed-up user has a profile even before the commit.
- ``user_logged_in(sender, request, user, **kwargs)``: copy the profile's preferred
  language into the new session (``accounts.language.on_login``), so that
  pages speak it without a query each.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.db.models.signals import post_save

from accounts.language import on_login
from accounts.services import ensure_profile


def _create_profile_on_commit(
    sender: type, instance: Any, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if not created or raw:  # raw: loaddata must reproduce fixtures exactly
        return
    user_pk = instance.pk

    def _ensure() -> None:
        user = get_user_model().objects.filter(pk=user_pk).first()
        if user is not None:
            ensure_profile(user)

    transaction.on_commit(_ensure)


def connect() -> None:
    """Connect the receivers; called once from ``AccountsConfig.ready``."""
    post_save.connect(
        _create_profile_on_commit,
        sender=get_user_model(),
        dispatch_uid="accounts.create_profile_on_commit",
    )
    user_logged_in.connect(on_login, dispatch_uid="accounts.language_on_login")
