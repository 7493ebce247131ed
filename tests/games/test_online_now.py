"""The home page's "Online now": people with a table open, those playing at it, and the
live public tables worth watching, strongest first."""

from __future__ import annotations

import re

from games.services import absence, tables
from games.services import series as series_service


def bots_table(owner, level: str, name: str):
    table = tables.create_table(owner, tables.TableSettings(name=name))
    for position in range(4):
        tables.add_bot(table.pk, owner, position, level)
    series_service.start_series(table.pk, owner)
    return table


def test_home_counts_people_online_and_at_tables(client, cast, full_table):
    series_service.start_series(full_table.pk, cast.alice)
    absence.connected(full_table.pk, "conn-alice", cast.alice)  # plays here
    absence.connected(full_table.pk, "conn-charlie", cast.charlie)  # watches
    absence.connected(full_table.pk, "conn-anon", None)  # not a person
    page = client.get("/").content.decode()
    assert re.search(r'data-online="2" data-playing="1"', page), page
    absence.disconnected(full_table.pk, "conn-alice", cast.alice)
    assert 'data-online="1" data-playing="0"' in client.get("/").content.decode()


def test_tables_worth_watching_put_the_strongest_first(client, cast):
    weak = bots_table(cast.alice, "random", "weak")
    strong = bots_table(cast.alice, "strong", "strong")
    page = client.get("/").content.decode()
    listed = [int(t) for t in re.findall(r'<li data-table="(\d+)">', page)]
    assert listed.index(strong.pk) < listed.index(weak.pk)
