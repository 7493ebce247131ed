"""Path and query parameters, each bounded before any query (kozel_site/ids.py): an id
is 1 … 2⁶³−1, a page number a positive id, a name no longer than the column it is
looked up in. Out of range is a 400 that says which parameter and why."""

from __future__ import annotations

from typing import Annotated, Literal

from ninja import Path, Query

from kozel_site.ids import ID_MAX

GameId = Annotated[int, Path(ge=1, le=ID_MAX, description="A game's id.")]
SeatNumber = Annotated[int, Path(ge=0, le=3, description="A seat, 0-3 (the page shows 1-4).")]
TournamentId = Annotated[int, Path(ge=1, le=ID_MAX, description="A tournament's id.")]
Username = Annotated[str, Path(min_length=1, max_length=150, description="A username.")]
Slug = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[-a-zA-Z0-9_]+$",
                           description="A club's slug.")]
Page = Annotated[int, Query(ge=1, le=ID_MAX, description="The page, from 1.")]
Kind = Annotated[Literal["", "ranked", "casual", "tournament"] | None,
                 Query(description="Only ranked, casual or tournament series.")]
OptionalUsername = Annotated[str | None, Query(max_length=150)]
Search = Annotated[str | None, Query(max_length=60, description="Name, slug, text or country.")]
