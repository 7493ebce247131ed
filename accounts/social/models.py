"""Follows, privacy and email settings, table invitations and notifications."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Table


class Follow(models.Model):
    """``follower`` follows ``followed`` (one-way): ``followed`` is in their friends list."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="follows")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="followers")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")),
                                   name="follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class SocialSettings(models.Model):
    """Privacy and email choices; a user without a row has the defaults (all off)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="social_settings")
    hide_online = models.BooleanField(default=False)
    invites_from_friends_only = models.BooleanField(default=False)
    # Email only for what the user opted into; each email can unsubscribe.
    # (A round start is emailed by tournaments, opted into on the entry form.)
    email_invite = models.BooleanField(default=False)
    email_friend_table = models.BooleanField(default=False)
    email_moderator = models.BooleanField(default=False)
    email_announcement = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"settings of {self.user_id}"


class TableInvite(models.Model):
    """An invitation by ``from_user`` to sit at ``table``; ``to_user`` accepts or declines."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        GONE = "gone", _("No longer open")

    from_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                  related_name="table_invites_sent")
    to_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="table_invites_received")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(from_user=F("to_user")),
                                   name="table_invite_not_self"),
            # One open invitation per person and table: asking twice is one ask.
            models.UniqueConstraint(fields=["to_user", "table"], condition=Q(status="pending"),
                                    name="table_invite_pending_once"),
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} invites {self.to_user_id} to {self.table_id}"


class Notification(models.Model):
    """One line in a user's notification centre. The text is rendered when shown (in
    the reader's language) from ``kind`` and ``params``; ``url`` is where it leads."""

    class Kind(models.TextChoices):
        INVITE = "invite", _("Table invitation")
        FRIEND_TABLE = "friend_table", _("A friend started a table")
        ROUND = "round", _("Your tournament round starts")
        MODERATOR = "moderator", _("A moderator's message")
        DECLINED = "declined", _("An invitation was declined")
        FOLLOW = "follow", _("Someone follows you")
        RESULT = "result", _("A result of yours was corrected")
        PARTNER = "partner", _("A partner invitation to a tournament")
        ANNOUNCEMENT = "announcement", _("A club director's announcement")
        REMINDER = "reminder", _("A tournament you entered starts soon")
        REPORT_ACTED = "report_acted", _("Moderators acted on your report")
        APPEAL = "appeal", _("Your appeal was decided")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    params = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=200, blank=True)
    invite = models.ForeignKey(TableInvite, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="notifications")
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread_idx")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"
