"""A voided series' games read void, not finished: the finisher marks them,
and the game history, the replay, the record download and the table's games list say so,
while ``verify_games`` still checks them and finds nothing wrong."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.moderation.services import voids
from games.models import Game, GameResult, Series, Termination
from games.services import series as series_service
from games.services import tables
from tests.games.helpers import current_game, play_out_game, users_by_position

pytestmark = pytest.mark.django_db


@pytest.fixture
def voided(cast, mona) -> Game:
    """alice, bob, carol, dan play one game out; then mona voids the series."""
    table = tables.create_table(cast.alice, tables.TableSettings(name="Void me"))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, cast.alice)
    game = current_game(series)
    play_out_game(game, users_by_position(series))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    voids.void_series(mona, series.pk, "Collusion")
    game.refresh_from_db()
    return game


def test_voiding_a_series_marks_its_played_out_games_void(voided):
    assert voided.series.status == Series.Status.VOIDED
    assert voided.status == Game.Status.VOIDED and voided.is_void
    # Played out before the void: the result and the termination stay.
    assert voided.termination == Termination.COMPLETED and voided.played_out
    assert GameResult.objects.filter(game=voided).exists()
    assert not Game.objects.filter(series=voided.series, status=Game.Status.FINISHED).exists()


def test_the_game_history_shows_the_series_and_its_games_void(client, voided):
    page = client.get("/@/alice/games").content.decode()
    assert 'data-result="void"' in page and ">Void</span>" in page
    assert 'data-void="1"' in page and 'class="badge badge-void"' in page
    # Still replayable and downloadable.
    assert f"/game/{voided.pk}/replay/" in page and f"/game/{voided.pk}/record.json" in page


def test_the_replay_page_says_void(client, voided):
    response = client.get(f"/game/{voided.pk}/replay/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'class="replay-void"' in page and "voided this game's series" in page


def test_the_record_still_downloads_and_says_it_is_void(client, voided):
    response = client.get(f"/game/{voided.pk}/record.json")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    body = json.loads(response.content)
    assert body["void"] is True and body["status"] == "voided"
    assert body["record"]["seed"] == voided.seed and body["record"]["result"]


def test_the_table_page_lists_the_series_games_void(client, voided):
    page = client.get(f"/table/{voided.series.table_id}/").content.decode()
    assert '<p id="kz-series-void" class="kz-series-void" role="status">' in page
    assert '<tr class="game-void">' in page
    snapshot = json.loads(page.split('id="initial-snapshot" type="application/json">')[1]
                          .split("</script>")[0])
    assert snapshot["series"]["status"] == "voided"
    assert [(g["id"], g["void"]) for g in snapshot["games"]] == [(voided.pk, True)]


def test_verify_games_does_not_report_a_voided_series(voided):
    out = StringIO()
    call_command("verify_games", "--all", stdout=out)  # raises CommandError on any anomaly
    assert out.getvalue().strip() == "verified 1 games in 1 series: 0 anomalies"


def test_verify_games_still_checks_a_voided_games_result(voided):
    """Void is not a blind spot: a tampered result of a voided game is still reported."""
    GameResult.objects.filter(game=voided).update(points_a=0)
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_games", "--all", stdout=out)
    assert f"game {voided.pk}: result points_a is 0" in out.getvalue()
