"""The moderation log is append-only: through the model, its queryset, the service, the
admin and (PostgreSQL) a trigger under any client."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.db import connection, transaction
from django.test import RequestFactory

from accounts.moderation.models import LogImmutableError, ModerationLog
from accounts.moderation.services import log, sanctions

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(cast, mona):
    sanctions.warn(mona, cast.bob, "Rude in chat at table 3")
    return ModerationLog.objects.get()


def test_every_action_is_logged_with_who_what_whom_why_and_before_after(entry, cast, mona):
    assert (entry.actor, entry.subject, entry.action) == (mona, cast.bob, "warn")
    assert entry.reason == "Rude in chat at table 3" and entry.created_at
    assert entry.before == {"in_force": []}
    assert [s["kind"] for s in entry.after["in_force"]] == ["warn"]


def test_the_model_refuses_change_and_delete(entry):
    entry.reason = "softened"
    with pytest.raises(LogImmutableError):
        entry.save()
    with pytest.raises(LogImmutableError):
        entry.delete()
    with pytest.raises(LogImmutableError):
        ModerationLog.objects.filter(pk=entry.pk).update(reason="x")
    with pytest.raises(LogImmutableError):
        ModerationLog.objects.all().delete()
    with pytest.raises(LogImmutableError):
        ModerationLog.objects.bulk_update([entry], ["reason"])
    entry.refresh_from_db()
    assert entry.reason == "Rude in chat at table 3"


def test_the_service_refuses(entry):
    with pytest.raises(LogImmutableError):
        log.amend(entry.pk, reason="x")
    with pytest.raises(LogImmutableError):
        log.erase(entry.pk)
    with pytest.raises(ValueError):
        log.record(None, "rewrite_history", None)
    assert ModerationLog.objects.count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's")
def test_the_database_refuses_any_client(entry):
    for sql in ["UPDATE moderation_moderationlog SET reason = 'x'",
                "DELETE FROM moderation_moderationlog"]:
        with pytest.raises(Exception, match="append-only"), transaction.atomic(), \
                connection.cursor() as cursor:
            cursor.execute(sql)
    entry.refresh_from_db()
    assert entry.reason == "Rude in chat at table 3"


def test_the_admin_offers_no_add_change_or_delete(entry, root):
    model_admin = admin.site._registry[ModerationLog]
    request = RequestFactory().get("/admin/")
    request.user = root
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, entry)
    assert not model_admin.has_delete_permission(request, entry)
    assert "delete_selected" not in model_admin.get_actions(request)
