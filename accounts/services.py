"""Every write to accounts and profiles goes through here, each in one transaction.

Views, the allauth adapter, admin and migrations call these functions; nothing else
saves a Profile or anonymises a user.
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.models import AccessToken, Profile

DELETED_USERNAME_PREFIX = "deleted-"

# The fields a player may edit on the settings page (and nothing else).
EDITABLE_PROFILE_FIELDS = ("display_name", "bio", "country", "preferred_language")


def ensure_profile(user: User) -> Profile:
    """Return the user's profile, creating an empty one if the user has none yet.

    Idempotent and safe to race: ``get_or_create`` retries the read when a concurrent
    insert wins the unique ``user_id``. Called on sign-up (the allauth adapter), for
    users created any other way (the ``post_save`` on-commit hook in
    ``accounts.hooks``), and by the data migration for users that predate profiles.
    """
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


@transaction.atomic
def create_missing_profiles(profile_model: Any = None, user_model: Any = None) -> int:
    """Give a blank profile to every user that has none; return how many were created.

    The bulk form of ``ensure_profile``. The models are parameters so that the data
    migration can pass its historical models (a migration must never use today's
    model classes); everyone else calls it with no arguments.
    """
    profile_model = profile_model or Profile
    user_model = user_model or get_user_model()
    missing = user_model.objects.filter(profile__isnull=True).values_list("pk", flat=True)
    created = profile_model.objects.bulk_create(
        [profile_model(user_id=pk) for pk in missing.iterator()], ignore_conflicts=True
    )
    return len(created)


@transaction.atomic
def update_profile(user: User, **changes: Any) -> Profile:
    """Change the editable profile fields of ``user`` and return the saved profile.

    Validates everything before writing: on any bad value it raises
    ``ValidationError`` (keyed by field) and the row is left as it was. A deleted
    account cannot be edited: its profile must stay blank.
    """
    unknown = set(changes) - set(EDITABLE_PROFILE_FIELDS)
    if unknown:
        raise ValidationError(f"Not editable: {', '.join(sorted(unknown))}.")
    ensure_profile(user)
    # Lock the row: two tabs saving at once must not interleave half of each form.
    profile = Profile.objects.select_for_update().select_related("user").get(user=user)
    if profile.is_deleted:
        raise ValidationError("This account has been deleted.")
    for field, value in changes.items():
        if isinstance(value, str):
            value = value.strip()
        setattr(profile, field, value)
    profile.full_clean(exclude=["user"])
    profile.save()
    return profile


@transaction.atomic
def delete_account(user: User) -> None:
    """Anonymise ``user`` for good, keeping the row so games that point at it survive.

    The username becomes ``deleted-<id>``, every email address goes (so the address can
    sign up again), the password becomes unusable and the user inactive, which also ends
    every session (Django checks a hash of the password on each request). The profile
    is blanked and flagged, so every page prints "deleted player". Deleting an already
    deleted account does nothing.
    """
    user_model = get_user_model()
    # Lock the user row so a concurrent profile edit or login cannot resurrect details.
    locked = user_model.objects.select_for_update().get(pk=user.pk)
    profile = Profile.objects.select_for_update().filter(user=locked).first()
    if profile is not None and profile.is_deleted:
        return
    if profile is None:
        profile = Profile(user=locked)

    # Sign-up refuses the "deleted-" prefix (accounts.adapter), so this cannot collide.
    setattr(locked, user_model.USERNAME_FIELD, f"{DELETED_USERNAME_PREFIX}{locked.pk}")
    for field in ("email", "first_name", "last_name"):
        if hasattr(locked, field):
            setattr(locked, field, "")
    locked.set_unusable_password()
    locked.is_active = False
    locked.save()
    EmailAddress.objects.filter(user=locked).delete()
    # Its API tokens die with it (an inactive user's token is refused anyway).
    AccessToken.objects.filter(user=locked).delete()

    profile.display_name = ""
    profile.bio = ""
    profile.country = ""
    profile.is_deleted = True
    profile.deleted_at = timezone.now()
    profile.save()

    # The caller's object must not keep the old name around (e.g. in a template).
    user.refresh_from_db()
