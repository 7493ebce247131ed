"""Table chat lines. Stored so reconnecting players see recent chat and moderators can act."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from games.models.tables import Table

# Ranked tables have no free chat, only these presets; a client sends the
# code or the text itself (games/WEBSOCKET.md). They are stored in English; every
# screen shows them in its own language.
RANKED_PRESETS = {"gl": gettext_noop("Good luck"), "wp": gettext_noop("Well played"),
                  "ty": gettext_noop("Thanks")}


class ChatMessage(models.Model):
    """One line of table chat; ``hidden`` lets a moderator remove it without deleting it.

    ``channel`` says who wrote it: a seated player (the players' chat, which everyone at
    the table reads) or a spectator (the spectators' chat, which spectators read and
    players only when they chose to; :class:`ChatPreference`)."""

    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")
        # A tournament director's message to a table (everyone at the table reads it).
        DIRECTOR = "director", _("Tournament director")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="+")
    text = models.CharField(max_length=300)
    channel = models.CharField(max_length=10, choices=Channel.choices,
                               default=Channel.PLAYERS)
    hidden = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at"]
        indexes = [models.Index(fields=["table", "-created_at"], name="chat_table_recent_idx")]

    def __str__(self) -> str:
        return f"{self.user_id}@{self.table_id}: {self.text[:40]}"


class ChatPreference(models.Model):
    """A person's table-chat choices, remembered across tables. No row: the defaults
    (a seated player does not see the spectators' chat)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="chat_preference")
    show_spectators = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: spectators' chat {'shown' if self.show_spectators else 'hidden'}"
