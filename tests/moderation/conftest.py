"""The moderation cast (healthchecks style), on top of tests/games' table cast:

alice owns the table and sits at 0, bob 1, carol 2, dan 3 (tests/games/conftest.py);
charlie is a stranger; mona is a moderator (a normal user in the "Moderators" group,
not staff, not a superuser); root is a superuser.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from tests.games.conftest import Cast, make_user

__all__ = ["Cast", "make_user"]


@pytest.fixture(autouse=True)
def _fixed_deals(deal_seeds):
    return deal_seeds


@pytest.fixture
def cast(db) -> Cast:
    return Cast(*(make_user(n) for n in ["alice", "bob", "carol", "dan", "charlie"]))


def moderators_group() -> Group:
    """The group the data migration created; a transactional test's flush empties the
    tables, so it is made again from the migration's own list when missing."""
    import importlib

    from django.contrib.auth.models import Permission

    group = Group.objects.filter(name="Moderators").first()
    if group is None:
        migration = importlib.import_module(
            "accounts.moderation.migrations.0002_moderators_group_and_append_only_log")
        group = Group.objects.create(name="Moderators")
        group.permissions.set([Permission.objects.get(content_type__app_label=app,
                                                      codename=code)
                               for app, code in migration.PERMISSIONS])
    return group


@pytest.fixture
def mona(db):
    """A moderator: in the Moderators group the data migration creates, nothing more."""
    user = make_user("mona")
    user.groups.add(moderators_group())
    return type(user).objects.get(pk=user.pk)  # a fresh object: no cached permissions


@pytest.fixture
def root(db):
    user = make_user("root")
    user.is_superuser = user.is_staff = True
    user.save()
    return user


@pytest.fixture
def table(cast):
    from games.services import tables
    from games.services.tables import TableSettings

    return tables.create_table(cast.alice, TableSettings(name="Friday game"))


@pytest.fixture
def full_table(cast, table):
    from games.services import tables

    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    return table


@pytest.fixture
def playing_table(cast, full_table):
    from games.services import series

    series.start_series(full_table.pk, cast.alice)
    return full_table
