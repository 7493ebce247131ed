"""Moderation data: reports, sanctions, blocks, per-table chat mutes and the log.

- :class:`Report`: a player (or the chat filter, or an appeal) asks moderators to look
  at someone, with the context at that moment attached (chat around the line, the
  table, series and game, the conduct record).
- :class:`Sanction`: what a moderator (or the automatic escalation) did to a player,
  with a reason shown to them and an end (``ends_at``; none for a permanent one).
  A sanction is in force from ``starts_at`` until ``ends_at`` unless lifted.
- :class:`Block` and :class:`TableChatMute`: what a player chose not to see.
- :class:`ModerationLog`: every moderator action and every automatic sanction, append
  only: the model, its queryset, the admin and (on PostgreSQL) a trigger all refuse to
  change or delete a row.

Every write goes through ``accounts.moderation.services``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import ChatMessage, Game, Series, Table

REPORT_TEXT_MAX = 1000
REASON_MAX = 500


class Report(models.Model):
    """One report about one player."""

    class Category(models.TextChoices):
        ABUSIVE_CHAT = "abuse", _("Abusive chat")
        STALLING = "stalling", _("Stalling or leaving")
        CHEATING = "cheating", _("Cheating or collusion")
        OFFENSIVE_NAME = "name", _("Offensive name")
        OTHER = "other", _("Other")
        # Not offered to reporters: an appeal against a sanction, and a line the chat
        # filter flagged for review.
        APPEAL = "appeal", _("Appeal against a sanction")
        FILTER = "filter", _("Flagged by the chat filter")

    class Source(models.TextChoices):
        SEAT = "seat", _("A seat at the table")
        CHAT = "chat", _("A chat line")
        PROFILE = "profile", _("The player's profile")
        SERIES = "series", _("After a series")
        APPEAL = "appeal", _("An appeal")
        FILTER = "filter", _("The chat filter")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACTED = "acted", _("Acted on")
        CLOSED = "closed", _("Closed")

    # None: filed by the site itself (the chat filter).
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                 on_delete=models.PROTECT, related_name="reports_filed")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                 related_name="reports_received")
    category = models.CharField(max_length=10, choices=Category.choices)
    source = models.CharField(max_length=10, choices=Source.choices)
    text = models.TextField(max_length=REPORT_TEXT_MAX, blank=True)
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    series = models.ForeignKey(Series, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    chat_message = models.ForeignKey(ChatMessage, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    # An appeal names the sanction it is about.
    sanction = models.ForeignKey("Sanction", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="appeals")
    # What the moderator needs, captured when the report was filed: the chat around the
    # line, the conduct record then. Later edits or hiding do not change the evidence.
    context = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.PROTECT, related_name="+")
    # An appeal's decision, in the deciding moderator's words: the player reads it.
    decision = models.TextField(max_length=REASON_MAX, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="report_queue_idx"),
            models.Index(fields=["reported", "status"], name="report_reported_idx"),
            models.Index(fields=["reporter", "-created_at"], name="report_reporter_idx"),
        ]
        constraints = [
            # Nobody reports themselves; an appeal is the sanctioned player's own.
            models.CheckConstraint(condition=Q(reporter__isnull=True)
                                   | ~Q(reporter=F("reported")) | Q(category="appeal"),
                                   name="report_not_self"),
            models.CheckConstraint(condition=Q(status="open") | Q(resolved_at__isnull=False),
                                   name="report_resolved_has_time"),
        ]

    def __str__(self) -> str:
        return f"Report #{self.pk} on {self.reported_id} ({self.category}, {self.status})"


class Sanction(models.Model):
    """A warning, mute, ban, suspension, rename or mark, in force for a time."""

    class Kind(models.TextChoices):
        WARN = "warn", _("Warning")
        CHAT_MUTE = "chat_mute", _("Muted in chat")
        RANKED_BAN = "ranked_ban", _("Banned from ranked play")
        SUSPEND = "suspend", _("Account suspended")
        RENAME = "rename", _("Name changed by a moderator")
        CHEATING = "cheating", _("Marked for cheating")
        BOOSTING = "boosting", _("Marked for boosting")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="sanctions")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # Shown to the sanctioned player: what, why and until when.
    reason = models.CharField(max_length=REASON_MAX)
    starts_at = models.DateTimeField(default=timezone.now)
    ends_at = models.DateTimeField(null=True, blank=True, help_text=_("empty: for good"))
    # None: the automatic escalation for repeated abandonment.
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.PROTECT, related_name="+")
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="sanctions")
    details = models.JSONField(default=dict, blank=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.PROTECT, related_name="+")
    # A heavy sanction (for good, or of a club owner, director or moderator) holds at
    # once but waits for a second moderator's confirmation (services.sanctions.confirm).
    needs_confirmation = models.BooleanField(default=False)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["user", "kind", "ends_at"], name="sanction_user_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__isnull=True)
                                   | Q(ends_at__gt=F("starts_at")),
                                   name="sanction_ends_after_start"),
        ]
        permissions = [("void_series", "Can void series and mark cheating or boosting")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.user_id} until {self.ends_at or 'ever'}"

    @property
    def is_automatic(self) -> bool:
        return self.created_by_id is None

    @property
    def unconfirmed(self) -> bool:
        """Waiting for a second moderator (and still in force, or lifting settled it)."""
        return self.needs_confirmation and self.confirmed_at is None and self.lifted_at is None

    def in_force(self, at: Any = None) -> bool:
        """Whether the sanction applies at ``at`` (now by default)."""
        at = at or timezone.now()
        return (self.lifted_at is None and self.starts_at <= at
                and (self.ends_at is None or self.ends_at > at))


class Block(models.Model):
    """``blocker`` never sees ``blocked``'s chat; they cannot invite or sit with them."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="blocked_by")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class TableChatMute(models.Model):
    """``user`` muted the chat of ``table`` for themselves."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "table"], name="table_mute_once")]

    def __str__(self) -> str:
        return f"{self.user_id} muted chat at {self.table_id}"


class BlockedChat(models.Model):
    """A chat line the filter refused: never stored as a message nor shown to anyone,
    kept so that moderators see the worst attempts in the chat around a report."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=10, blank=True)
    text = models.TextField(max_length=2000)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["table", "created_at"], name="blocked_chat_table_idx")]

    def __str__(self) -> str:
        return f"Blocked line by {self.user_id} at {self.table_id}"


class LogImmutableError(Exception):
    """The moderation log is append-only: rows are never changed or deleted."""


class ModerationLogQuerySet(models.QuerySet):
    def update(self, **kwargs: Any) -> int:
        raise LogImmutableError("The moderation log cannot be changed.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise LogImmutableError("The moderation log cannot be deleted.")

    def bulk_update(self, *args: Any, **kwargs: Any) -> int:
        raise LogImmutableError("The moderation log cannot be changed.")


class ModerationLog(models.Model):
    """Who did what to whom, why and when, with the state before and after."""

    class Action(models.TextChoices):
        REPORT_CLOSED = "report_closed", _("Closed a report")
        WARN = "warn", _("Warned")
        CHAT_MUTE = "chat_mute", _("Muted in chat")
        RANKED_BAN = "ranked_ban", _("Banned from ranked")
        AUTO_RANKED_BAN = "auto_ranked_ban", _("Banned from ranked (repeated abandonment)")
        SUSPEND = "suspend", _("Suspended")
        RENAME = "rename", _("Forced a rename")
        HIDE_MESSAGE = "hide_message", _("Hid a chat message")
        VOID_SERIES = "void_series", _("Voided a series")
        MARK = "mark", _("Marked cheating or boosting")
        LIFT = "lift", _("Lifted a sanction")
        CONFIRM = "confirm", _("Confirmed a sanction")
        APPEAL_DECIDED = "appeal_decided", _("Decided an appeal")
        DISQUALIFY = "disqualify", _("Disqualified a tournament entry")

    # None: the site itself (automatic escalation).
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=16, choices=Action.choices)
    subject = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.PROTECT, related_name="moderation_history")
    reason = models.TextField(blank=True)
    # "series:12", "chat:40", "sanction:7", "report:3": what the action was done to.
    target = models.CharField(max_length=40, blank=True)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = ModerationLogQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["subject", "-created_at"], name="modlog_subject_idx")]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_id or 'auto'} {self.action} " \
               f"{self.subject_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding or kwargs.get("force_update"):
            raise LogImmutableError("The moderation log cannot be changed.")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise LogImmutableError("The moderation log cannot be deleted.")
