"""accounts.services: ensure_profile, create_missing_profiles, update_profile, hooks."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from accounts import services
from accounts.models import Profile

pytestmark = pytest.mark.django_db


def test_ensure_profile_is_idempotent(django_user_model):
    user = django_user_model.objects.create_user("fedor")
    first = services.ensure_profile(user)
    assert services.ensure_profile(user).pk == first.pk
    assert Profile.objects.filter(user=user).count() == 1


def test_a_new_user_gets_a_profile_after_commit(django_user_model,
                                                django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        user = django_user_model.objects.create_user("galina")
    assert Profile.objects.filter(user=user).exists()


def test_no_profile_for_a_rolled_back_user(django_user_model,
                                           django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        django_user_model.objects.create_user("ghost")
    assert len(callbacks) == 1  # registered, would only run on commit
    assert not Profile.objects.filter(user__username="ghost").exists()


def test_create_missing_profiles(django_user_model):
    a = django_user_model.objects.create_user("a1")
    b = django_user_model.objects.create_user("b1")
    services.ensure_profile(a)
    assert services.create_missing_profiles() == 1
    assert Profile.objects.filter(user=b).exists()
    assert services.create_missing_profiles() == 0


def test_update_profile_refuses_unknown_fields_and_changes_nothing(alice):
    with pytest.raises(ValidationError, match="Not editable: is_deleted"):
        services.update_profile(alice, display_name="A", is_deleted=True)
    assert Profile.objects.get(user=alice).display_name == ""


def test_update_profile_validates_every_field_before_writing(alice):
    with pytest.raises(ValidationError) as caught:
        services.update_profile(alice, display_name="fine", bio="b" * 281)
    assert "bio" in caught.value.message_dict
    assert Profile.objects.get(user=alice).display_name == ""


def test_update_profile_strips_whitespace(alice):
    assert services.update_profile(alice, display_name="  Al  ").display_name == "Al"


def test_deleted_constraint_holds_in_the_database(alice):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Profile.objects.filter(user=alice).update(is_deleted=True, bio="left behind")
