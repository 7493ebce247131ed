"""Asking for a review and running one (the only writer of reviews).

Fair play: only a game played to its end is reviewed (a live game's hidden cards stay
hidden, R19), and the review sees what the reviewed seat saw, nothing more
(games.bots.review). Each account has one review in progress at a time and a number per
day (conf.per_day); a seat of a game is reviewed once, and everyone who may see it reads
the same review.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.bots.review import review_seat, summary
from games.events import send_task_on_commit
from games.models import Game

from . import conf, selectors
from .models import Review


class ReviewRefused(Exception):
    """A request for a review that is not allowed; the message says why, for people."""


def request_review(user: AbstractBaseUser, game_id: int, seat: int) -> Review:
    """The review of ``seat`` in game ``game_id``: the one made or under way, or a new one
    queued for ``user``. Raises :class:`ReviewRefused`."""
    if not user.is_authenticated:
        raise ReviewRefused(_("Sign in to ask for a review."))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ReviewRefused(_("There is no such seat."))
    with transaction.atomic():
        game = (Game.objects.select_related("series__table").select_for_update(of=("self",))
                .filter(pk=game_id).first())
        if game is None or not selectors.may_see_reviews(game, user):
            raise ReviewRefused(_("There is no such game."))
        if not game.played_out:
            raise ReviewRefused(_("A game is reviewed only once it is over."))
        review = Review.objects.filter(game=game, seat=seat).first()
        if review is not None and not _lost(review):
            return review
        _check_limits(user)
        if review is None:
            review = Review.objects.create(game=game, seat=seat, requested_by=user)
        else:  # lost with its worker: asked for again
            review.status, review.requested_by = Review.Status.QUEUED, user
            review.created_at = timezone.now()
            review.save(update_fields=["status", "requested_by", "created_at"])
        send_task_on_commit("reviews.run", (review.pk,), queue=conf.queue())
    return review


def _lost(review: Review) -> bool:
    stale = timezone.now() - timedelta(seconds=conf.stale_seconds())
    return review.status == Review.Status.FAILED or (
        review.in_progress and review.created_at < stale)


def _check_limits(user: AbstractBaseUser) -> None:
    mine = Review.objects.filter(requested_by=user)
    stale = timezone.now() - timedelta(seconds=conf.stale_seconds())
    if mine.filter(status__in=[Review.Status.QUEUED, Review.Status.RUNNING],
                   created_at__gte=stale).exists():
        raise ReviewRefused(_("Your last review is still being made: one at a time."))
    if mine.filter(created_at__gte=timezone.now() - timedelta(days=1)).count() >= conf.per_day():
        raise ReviewRefused(_("You have asked for %(n)d reviews today, the most for a day.")
                            % {"n": conf.per_day()})


def run_review(review_id: int) -> None:
    """Make review ``review_id`` if it is still waiting (a task delivered twice, or again
    after its worker died, finds it made and does nothing more)."""
    with transaction.atomic():
        review = (Review.objects.select_for_update().select_related("game")
                  .filter(pk=review_id).first())
        if review is None or review.status == Review.Status.DONE:
            return
        review.status, review.started_at = Review.Status.RUNNING, timezone.now()
        review.save(update_fields=["status", "started_at"])
    game = review.game
    actions = [(m.seat, engine.action_from_dict({"kind": m.kind, "cards": m.cards}))
               for m in game.moves.order_by("seq")]
    try:
        decisions = review_seat(game.seed, game.dealer, game.first_leader, actions, review.seat,
                                sampling_seed=review.sampling_seed, algorithm=game.algorithm)
    except Exception as exc:  # noqa: BLE001 - a review that cannot be made says so
        Review.objects.filter(pk=review.pk).update(
            status=Review.Status.FAILED, error=str(exc)[:200], finished_at=timezone.now())
        raise
    Review.objects.filter(pk=review.pk).update(
        status=Review.Status.DONE, decisions=[d.to_dict() for d in decisions],
        summary=summary(decisions), error="", finished_at=timezone.now())
