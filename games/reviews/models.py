"""A review: the strong bot's grading of one seat's decisions in one finished game."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Review(models.Model):
    """One seat of one game, reviewed once and shown to everyone who may see the replay."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for the reviewer")
        RUNNING = "running", _("Being reviewed")
        DONE = "done", _("Reviewed")
        FAILED = "failed", _("The review failed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                     on_delete=models.SET_NULL, related_name="reviews")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    # Decision.to_dict() for each decision of the seat (games.bots.review), in game order.
    decisions = models.JSONField(default=list, blank=True)
    summary = models.JSONField(default=dict, blank=True)
    sampling_seed = models.PositiveIntegerField(default=1)
    error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="review_one_per_seat"),
            models.CheckConstraint(condition=Q(seat__gte=0) & Q(seat__lte=3),
                                   name="review_seat_range"),
        ]
        indexes = [models.Index(fields=["requested_by", "created_at"],
                                name="review_requests_idx")]

    def __str__(self) -> str:
        return f"Review of game {self.game_id}, seat {self.seat + 1}"

    @property
    def in_progress(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)
