"""The games app's data: tables and seats (the lobby), series, games and their move log."""

from games.models.chat import ChatMessage
from games.models.play import Game, GameResult, Move, Series, Team
from games.models.tables import BotLevel, Seat, Table

__all__ = ["BotLevel", "ChatMessage", "Game", "GameResult", "Move", "Seat", "Series", "Table", "Team"]
