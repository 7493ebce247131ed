"""Reviews of finished games: who may ask, the limits, fair play (R19), the queue of their
own, the pages."""

from __future__ import annotations

import pytest
from celery.contrib.testing.worker import start_worker
from django.test import Client

from games.models import Game
from games.reviews import conf, services
from games.reviews.models import Review
from games.services import series as series_service
from games.services import tables
from tests.games.helpers import current_game, play_out_game, start_with_bots
from tests.waiting import stays_false, wait_for


def finished_game(owner, *, private: bool = False, name: str = "Bots") -> Game:
    """A game alice (seat 0) played to its end against three random bots."""
    visibility = "private" if private else "public"
    table = tables.create_table(owner, tables.TableSettings(name=name, visibility=visibility))
    tables.take_seat(table.pk, owner, 0)
    for position in (1, 2, 3):
        tables.add_bot(table.pk, owner, position, "random")
    series = series_service.start_series(table.pk, owner)
    game = current_game(series)
    play_out_game(game, {0: owner})
    game.refresh_from_db()
    return game


def live_game(owner) -> Game:
    return current_game(start_with_bots(owner, name="Live"))


@pytest.mark.django_db
def test_r19_a_game_still_being_played_is_never_reviewed(cast) -> None:
    game = live_game(cast.alice)
    with pytest.raises(services.ReviewRefused, match="once it is over"):
        services.request_review(cast.alice, game.pk, 0)
    assert not Review.objects.exists()


@pytest.mark.django_db
def test_who_may_ask_players_and_anyone_on_public_tables_never_strangers_on_private(cast) -> None:
    public = finished_game(cast.alice)
    private = finished_game(cast.alice, private=True, name="Home")
    assert services.request_review(cast.charlie, public.pk, 1).requested_by == cast.charlie
    with pytest.raises(services.ReviewRefused, match="no such game"):
        services.request_review(cast.charlie, private.pk, 0)
    from django.contrib.auth.models import AnonymousUser
    with pytest.raises(services.ReviewRefused, match="Sign in"):
        services.request_review(AnonymousUser(), public.pk, 0)
    for bad in (-1, 4, True, "1", None):
        with pytest.raises(services.ReviewRefused, match="no such seat"):
            services.request_review(cast.alice, public.pk, bad)  # type: ignore[arg-type]
    assert services.request_review(cast.alice, private.pk, 0).seat == 0
    assert Review.objects.count() == 2


@pytest.mark.django_db
def test_one_review_per_seat_is_shared_and_costs_only_who_asked_first(cast, settings) -> None:
    game = finished_game(cast.alice)
    first = services.request_review(cast.alice, game.pk, 2)
    again = services.request_review(cast.bob, game.pk, 2)
    assert again.pk == first.pk and again.requested_by == cast.alice


@pytest.mark.django_db
def test_limits_one_review_at_a_time_and_n_a_day(cast, settings) -> None:
    settings.KOZEL_REVIEWS_PER_DAY = 2
    game = finished_game(cast.alice)
    services.request_review(cast.alice, game.pk, 0)
    with pytest.raises(services.ReviewRefused, match="one at a time"):
        services.request_review(cast.alice, game.pk, 1)
    Review.objects.update(status=Review.Status.DONE)
    services.request_review(cast.alice, game.pk, 1)
    Review.objects.update(status=Review.Status.DONE)
    with pytest.raises(services.ReviewRefused, match="2 reviews today"):
        services.request_review(cast.alice, game.pk, 2)
    assert Review.objects.count() == 2


@pytest.mark.django_db
def test_running_a_review_stores_each_decision_once(cast) -> None:
    game = finished_game(cast.alice)
    review = services.request_review(cast.alice, game.pk, 0)
    services.run_review(review.pk)
    review.refresh_from_db()
    assert review.status == Review.Status.DONE
    assert review.decisions and review.summary["decisions"] == len(review.decisions)
    assert all(d["grade"] in ("good", "inaccuracy", "mistake", "blunder")
               for d in review.decisions)
    # Every decision is one the seat made or could have made (R11): the move index points
    # at a position in the game, in order.
    moves = [d["move"] for d in review.decisions]
    assert moves == sorted(moves) and moves[-1] < game.moves.count()
    finished = review.finished_at
    services.run_review(review.pk)  # delivered twice: nothing more
    review.refresh_from_db()
    assert review.finished_at == finished


@pytest.mark.worker
@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_reviews_run_on_their_own_queue_never_the_bots_worker(cast) -> None:
    """A worker of the bots' queue leaves a review alone; the reviews' worker makes it."""
    from kozel_site.celery import app

    game = finished_game(cast.alice)
    app.control.purge()
    with start_worker(app, pool="threads", concurrency=1, perform_ping_check=False,
                      shutdown_timeout=20, loglevel="WARNING", hostname="bots@test",
                      queues=[app.conf.task_default_queue]) as worker:
        review = services.request_review(cast.alice, game.pk, 0)
        stays_false(lambda: Review.objects.get(pk=review.pk).status != "queued", 2,
                    "the bots' worker to leave the review alone")
        app.control.shutdown(destination=[worker.hostname])
    with start_worker(app, pool="threads", concurrency=1, perform_ping_check=False,
                      shutdown_timeout=20, loglevel="WARNING", queues=[conf.queue()],
                      hostname="reviews@test") as worker:
        wait_for(lambda: Review.objects.get(pk=review.pk).status == "done", 60,
                 "the reviews' worker to make the review")
        app.control.shutdown(destination=[worker.hostname])
    # Queues.select is app-wide: the next test's worker names its own queue
    # (tests/conftest.py), so the reviews' queue selected here does not carry over.


@pytest.mark.django_db
def test_pages_ask_and_read_and_refuse_with_a_reason(cast) -> None:
    game = finished_game(cast.alice)
    client = Client()
    client.force_login(cast.alice)
    json = {"HTTP_ACCEPT": "application/json"}
    bad = client.post(f"/game/{game.pk}/review/", {"seat": "9"}, **json)
    assert bad.status_code == 400 and "seat" in bad.json()["error"]
    asked = client.post(f"/game/{game.pk}/review/", {"seat": "1"}, **json)
    assert asked.status_code == 202 and asked.json()["status"] == "queued"
    read = client.get(f"/game/{game.pk}/review/1/")
    assert read.status_code == 200 and read.json()["decisions"] == []
    assert client.get(f"/game/{game.pk}/review/3/").status_code == 404
    live = live_game(cast.bob)
    refused = client.post(f"/game/{live.pk}/review/", {"seat": "0"}, **json)
    assert refused.status_code == 403 and "over" in refused.json()["error"]
    # Without JavaScript the form comes back to the replay.
    page = client.post(f"/game/{game.pk}/review/", {"seat": "1"})
    assert page.status_code == 302 and page["Location"].startswith(f"/game/{game.pk}/replay/")


@pytest.mark.django_db
def test_r19_the_review_command_is_on_the_replay_never_on_a_live_table(cast) -> None:
    game = finished_game(cast.alice)
    live = live_game(cast.bob)
    client = Client()
    client.force_login(cast.bob)
    replay = client.get(f"/game/{game.pk}/replay/").content.decode()
    assert f'action="/game/{game.pk}/review/"' in replay
    table = client.get(f"/table/{live.series.table_id}/").content.decode()
    assert "/review/" not in table


@pytest.mark.django_db
def test_a_private_game_s_review_is_for_its_players(cast) -> None:
    game = finished_game(cast.alice, private=True)
    review = services.request_review(cast.alice, game.pk, 0)
    services.run_review(review.pk)
    stranger = Client()
    stranger.force_login(cast.charlie)
    assert stranger.get(f"/game/{game.pk}/review/0/").status_code == 404
    player = Client()
    player.force_login(cast.alice)
    assert player.get(f"/game/{game.pk}/review/0/").json()["status"] == "done"


@pytest.mark.django_db
def test_the_profile_sums_up_the_player_s_reviewed_games(cast) -> None:
    game = finished_game(cast.alice)
    review = services.request_review(cast.bob, game.pk, 0)
    services.run_review(review.pk)
    review.refresh_from_db()
    page = Client().get("/@/alice").content.decode()
    assert 'data-stat="reviewed">1<' in page
    bots_seat = services.request_review(cast.bob, finished_game(cast.bob).pk, 1)
    services.run_review(bots_seat.pk)  # a bot's seat counts for nobody
    assert 'data-stat="reviewed">1<' in Client().get("/@/alice").content.decode()
