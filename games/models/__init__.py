"""The games app's data: tables and seats (the lobby), series, games and their move log."""

from games.models.chat import RANKED_PRESETS, ChatMessage, ChatPreference
from games.models.play import (
    Conduct,
    Game,
    GameResult,
    Move,
    Series,
    SeriesSeat,
    SeriesVote,
    Team,
    Termination,
)
from games.models.tables import (
    BOT_NAMES,
    CASUAL_TARGETS,
    CLOCKS,
    FIXED_DEALS_TARGET,
    RANKED_CLOCKS,
    BotLevel,
    Seat,
    Table,
)

__all__ = [
    "BOT_NAMES", "CASUAL_TARGETS", "CLOCKS", "FIXED_DEALS_TARGET", "RANKED_CLOCKS",
    "RANKED_PRESETS", "BotLevel",
    "ChatMessage", "ChatPreference", "Conduct", "Game", "GameResult", "Move", "Seat", "Series",
    "SeriesSeat", "SeriesVote", "Table", "Team", "Termination",
]
