"""Table chat lines. Stored so reconnecting players see recent chat and moderators can act."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models.tables import Table


class ChatMessage(models.Model):
    """One line of table chat; ``hidden`` lets a moderator remove it without deleting it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="+")
    text = models.CharField(max_length=300)
    hidden = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at"]
        indexes = [models.Index(fields=["table", "-created_at"], name="chat_table_recent_idx")]

    def __str__(self) -> str:
        return f"{self.user_id}@{self.table_id}: {self.text[:40]}"
