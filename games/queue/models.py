"""Queue entries and pair invites.

A person has at most one QueueEntry (one row per user, reused): ``waiting`` while in the
queue, ``matched`` once seated (it then names the table, so the queue page can send the
player there). A pair is two entries pointing at each other through ``partner``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games.models import Table


class QueueEntry(models.Model):
    """One person waiting for (or just matched into) a ranked series."""

    class Mode(models.TextChoices):
        SOLO = "solo", "Solo queue"
        PAIR = "pair", "Pair queue"

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        MATCHED = "matched", "Matched"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="queue_entry")
    mode = models.CharField(max_length=4, choices=Mode.choices)
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.CASCADE, related_name="+")
    turn_seconds = models.PositiveSmallIntegerField(default=30)
    # The rating's mu when the player joined: what matching compares.
    mu = models.FloatField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    joined_at = models.DateTimeField()
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    matched_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "turn_seconds", "joined_at"],
                                name="queue_waiting_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(turn_seconds__in=[15, 30]),
                                   name="queue_turn_seconds"),
            models.CheckConstraint(
                condition=(Q(mode="solo", partner__isnull=True)
                           | (Q(mode="pair", partner__isnull=False) & ~Q(partner=F("user")))),
                name="queue_pair_has_partner"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.mode} {self.status}"


class PairInvite(models.Model):
    """An invitation to play the pair queue together; both must accept (join)."""

    from_user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                     related_name="pair_invite_sent")
    to_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="pair_invites_received")
    turn_seconds = models.PositiveSmallIntegerField(default=30)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(from_user=F("to_user")),
                                   name="pair_invite_not_self"),
            models.CheckConstraint(condition=Q(turn_seconds__in=[15, 30]),
                                   name="pair_invite_turn_seconds"),
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} invites {self.to_user_id}"
