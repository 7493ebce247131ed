"""The table head's score chip: a seated player reads the series as yours–theirs (R1:
seats 0 and 2 are team A, 1 and 3 team B); a spectator reads A–B."""

from __future__ import annotations

import re

import pytest

from games.models import Series
from tests.games.helpers import seated_and_started

pytestmark = pytest.mark.django_db


def chip(client, user, table_id: int) -> str:
    if user is not None:
        client.force_login(user)
    page = client.get(f"/table/{table_id}/").content.decode()
    found = re.search(r'<span id="kz-score"[^>]*>(.*?)</span>\s*<span id="kz-status"', page,
                      re.S)
    assert found, page
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found[1])).strip()


def test_each_player_reads_their_own_team_first(client, cast):
    series = seated_and_started(cast, "chip")
    Series.objects.filter(pk=series.pk).update(loss_points_a=4, loss_points_b=8)
    table = series.table_id
    assert chip(client, cast.alice, table) == "yours 4 – 8 theirs / 12"  # seat 0, team A
    assert chip(client, cast.bob, table) == "yours 8 – 4 theirs / 12"    # seat 1, team B
    assert chip(client, cast.dan, table) == "yours 8 – 4 theirs / 12"    # seat 3, team B
    client.logout()
    assert chip(client, cast.charlie, table) == "A 4 – B 8 / 12"         # watches
    client.logout()
    assert chip(client, None, table) == "A 4 – B 8 / 12"
