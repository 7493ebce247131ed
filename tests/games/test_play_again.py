"""``/table/<id>/again/``: another series with the same seats. The owner of a casual
table may; a ranked table never replays its four (the next ranked series comes from the
queue), and says so in words; the refusal starts nothing."""

from __future__ import annotations

import html

import pytest
from django.utils.html import strip_tags

from games.models import Series, Table
from games.services import series as series_service
from games.services import tables

pytestmark = pytest.mark.django_db


def finished_table(cast, kind: str) -> Table:
    """The cast seated at 0–3 of alice's table; its first series over (bob's team the
    goat, 4–12), as the finisher leaves it: series finished, table finished."""
    settings = tables.TableSettings(name=f"{kind} table", kind=kind,
                                    turn_seconds=30 if kind == "ranked" else None)
    table = tables.create_table(cast.alice, settings)
    for position, user in enumerate(cast.seated):
        if (table.seats.get(position=position).user_id or 0) != user.pk:
            tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, cast.alice)
    Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED, goat="B",
                                               winner="A", loss_points_a=4, loss_points_b=12)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    return table


def again(client, user, table):
    client.force_login(user)
    response = client.post(f"/table/{table.pk}/again/", follow=True)
    return " ".join(html.unescape(strip_tags(response.content.decode())).split())


def test_ranked_table_refuses_another_series_with_the_same_seats(client, cast):
    table = finished_table(cast, "ranked")
    page = again(client, cast.alice, table)
    assert ("A ranked table never plays another series with the same seats: the next "
            "ranked series comes from the ranked queue, which chooses partners and "
            "opponents.") in page
    assert Series.objects.filter(table=table).count() == 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


def test_ranked_table_refuses_a_second_start_too(client, cast):
    table = finished_table(cast, "ranked")
    client.force_login(cast.alice)
    response = client.post(f"/table/{table.pk}/start/", follow=True)
    page = " ".join(html.unescape(strip_tags(response.content.decode())).split())
    assert "A ranked table never plays another series with the same seats" in page
    assert Series.objects.filter(table=table).count() == 1


def test_ranked_refusal_comes_first_even_for_a_seated_non_owner(client, cast):
    table = finished_table(cast, "ranked")
    page = again(client, cast.bob, table)
    assert "A ranked table never plays another series" in page
    assert Series.objects.filter(table=table).count() == 1


def test_casual_owner_plays_again_with_the_same_seats(client, cast):
    table = finished_table(cast, "casual")
    again(client, cast.alice, table)
    newest = Series.objects.filter(table=table).order_by("-number").first()
    assert newest.number == 2 and newest.status == Series.Status.PLAYING
    assert sorted(newest.roster.values_list("user_id", flat=True)) == sorted(
        u.pk for u in cast.seated)


def test_casual_non_owner_is_refused(client, cast):
    table = finished_table(cast, "casual")
    page = again(client, cast.bob, table)
    assert "Only the table's owner can start the series." in page
    assert Series.objects.filter(table=table).count() == 1
