"""The games app's data: tables and seats (the lobby), series, games and their move log."""

from games.models.chat import ChatMessage
from games.models.play import Conduct, Game, GameResult, Move, Series, SeriesVote, Team
from games.models.tables import BotLevel, Seat, Table

__all__ = [
    "BotLevel", "ChatMessage", "Conduct", "Game", "GameResult", "Move", "Seat", "Series",
    "SeriesVote", "Table", "Team",
]
