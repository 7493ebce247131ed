"""Queue entries and pair invites.

A person has at most one QueueEntry (one row per user, reused): ``waiting`` while in the
queue, ``matched`` once seated (it then names the table, so the queue page can send the
player there). A pair is two entries pointing at each other through ``partner``.

``kind`` says which queue: ``ranked`` or ``casual`` (quick match).
A casual entry's preferences are optional: ``turn_seconds`` None means any clock and 0
no clock; ``target`` None means any target; with ``allow_bots`` the matcher fills the
missing seats with bots once the player has waited ``bot_wait_seconds``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games.models import CASUAL_TARGETS, Table


class QueueKind(models.TextChoices):
    RANKED = "ranked", "Ranked"
    CASUAL = "casual", "Casual"


CASUAL_CLOCKS = (0, 15, 30, 60)  # 0: no clock
BOT_WAITS = (15, 30, 60, 120)


def _preferences_valid() -> Q:
    """The check both models share: ranked keeps its 15/30 clock and nothing else;
    casual preferences are each open (NULL) or one of the allowed values."""
    ranked = Q(kind="ranked", turn_seconds__in=[15, 30], target__isnull=True,
               allow_bots=False)
    casual = (Q(kind="casual")
              & (Q(turn_seconds__isnull=True) | Q(turn_seconds__in=list(CASUAL_CLOCKS)))
              & (Q(target__isnull=True) | Q(target__in=list(CASUAL_TARGETS)))
              & Q(bot_wait_seconds__in=list(BOT_WAITS)))
    return ranked | casual


class QueueEntry(models.Model):
    """One person waiting for (or just matched into) a ranked or casual series."""

    Kind = QueueKind

    class Mode(models.TextChoices):
        SOLO = "solo", "Solo queue"
        PAIR = "pair", "Pair queue"

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        MATCHED = "matched", "Matched"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="queue_entry")
    kind = models.CharField(max_length=6, choices=QueueKind.choices, default=QueueKind.RANKED)
    mode = models.CharField(max_length=4, choices=Mode.choices)
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.CASCADE, related_name="+")
    turn_seconds = models.PositiveSmallIntegerField(default=30, null=True, blank=True)
    target = models.PositiveSmallIntegerField(null=True, blank=True)
    allow_bots = models.BooleanField(default=False)
    bot_wait_seconds = models.PositiveSmallIntegerField(default=30)
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
            models.CheckConstraint(condition=_preferences_valid(), name="queue_preferences"),
            models.CheckConstraint(
                condition=(Q(mode="solo", partner__isnull=True)
                           | (Q(mode="pair", partner__isnull=False) & ~Q(partner=F("user")))),
                name="queue_pair_has_partner"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.mode} {self.status}"


class PairInvite(models.Model):
    """An invitation to play the pair queue together; both must accept (join).

    A casual invite carries the inviter's casual preferences (as on QueueEntry)."""

    Kind = QueueKind

    from_user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                     related_name="pair_invite_sent")
    to_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="pair_invites_received")
    kind = models.CharField(max_length=6, choices=QueueKind.choices, default=QueueKind.RANKED)
    turn_seconds = models.PositiveSmallIntegerField(default=30, null=True, blank=True)
    target = models.PositiveSmallIntegerField(null=True, blank=True)
    allow_bots = models.BooleanField(default=False)
    bot_wait_seconds = models.PositiveSmallIntegerField(default=30)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(from_user=F("to_user")),
                                   name="pair_invite_not_self"),
            models.CheckConstraint(condition=_preferences_valid(),
                                   name="pair_invite_preferences"),
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} invites {self.to_user_id}"
