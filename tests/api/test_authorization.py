"""The API authorizes exactly as the pages do: for every endpoint and every role, the
status the API answers equals the status of the matching page (200, 403 or 404), and a
player's games list holds the same games as their history page.

Roles: anonymous; alice, a player of every game; charlie, another signed-in user;
olga, who owns the private table without playing there; mona, a moderator. The page is
read signed in on a session, the API with that person's token. R19: a private table's
games only for whom the table lets in, nobody's game before it is over.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.test import Client

from games.reviews.models import Review
from games.tournaments.models import Membership
from games.tournaments.services import clubs
from tests.api.conftest import finished_game, live_game
from tests.tournaments.helpers import enter_pairs, event

ROLES = ["anonymous", "alice", "charlie", "olga", "mona"]


@dataclass
class World:
    """One of each thing an endpoint can be asked about."""

    public_done: int
    private_done: int
    public_live: int
    private_live: int
    club: str
    tournament: int


@pytest.fixture
def world(cast) -> World:
    four = [cast.alice, cast.bob, cast.carol, cast.dan]
    public_done = finished_game(cast.alice, four, name="pub")
    private_done = finished_game(cast.olga, four, visibility="private", name="priv")
    public_live = live_game(cast.bob, [cast.bob, cast.alice, cast.dan, cast.carol])
    # A second private table of olga's, its game still being played.
    private_live = live_game(cast.olga, [cast.carol, cast.dan, cast.alice, cast.bob],
                             visibility="private", name="priv-live")
    club = clubs.create_club(cast.olga, clubs.ClubSettings(name="Goats", slug="goats"))
    director = cast.olga
    for user in (cast.alice, cast.bob, cast.carol, cast.dan):
        Membership.objects.create(club=club, user=user)
    tournament = event(type("C", (), {"club": club, "director": director}), rounds=2)
    enter_pairs(tournament, [cast.alice, cast.carol, cast.bob, cast.dan])
    for done in (public_done, private_done):  # seat 0 reviewed (its content is not the point)
        Review.objects.create(game=done, seat=0, status=Review.Status.DONE,
                              summary={"decisions": 0})
    return World(public_done.pk, private_done.pk, public_live.pk, private_live.pk,
                 club.slug, tournament.pk)


def _pairs(w: World) -> list[tuple[str, list[str], str]]:
    """(what, the pages, the API endpoint) for every endpoint of the API."""
    games = [("public finished game", w.public_done), ("private finished game", w.private_done),
             ("public live game", w.public_live), ("private live game", w.private_live),
             ("unknown game", 987654321)]
    out = [(what, [f"/game/{gid}/replay/", f"/game/{gid}/record.json"], f"/api/games/{gid}")
           for what, gid in games]
    out += [(f"review of a {what}", [f"/game/{gid}/review/0/"], f"/api/games/{gid}/reviews/0")
            for what, gid in games]
    out += [(f"unasked review of a {what}", [f"/game/{gid}/review/1/"],
             f"/api/games/{gid}/reviews/1") for what, gid in games[:2]]
    t = w.tournament
    out += [
        ("profile", ["/@/alice"], "/api/players/alice"),
        ("unknown profile", ["/@/nobody"], "/api/players/nobody"),
        ("games list", ["/@/alice/games"], "/api/players/alice/games"),
        ("games list of the owner", ["/@/olga/games"], "/api/players/olga/games"),
        ("unknown player's games", ["/@/nobody/games"], "/api/players/nobody/games"),
        ("leaderboard", ["/leaderboard/"], "/api/leaderboard"),
        ("monthly boards", ["/leaderboard/"], "/api/leaderboard/month"),
        ("clubs", ["/clubs/"], "/api/clubs"),
        ("club", [f"/club/{w.club}/"], f"/api/clubs/{w.club}"),
        ("unknown club", ["/club/no-such-club/"], "/api/clubs/no-such-club"),
        ("tournament", [f"/tournament/{t}/"], f"/api/tournaments/{t}"),
        ("pairings", [f"/tournament/{t}/"], f"/api/tournaments/{t}/pairings"),
        ("standings", [f"/tournament/{t}/", f"/tournament/{t}/standings.csv"],
         f"/api/tournaments/{t}/standings"),
        ("unknown tournament", ["/tournament/987654321/"], "/api/tournaments/987654321"),
        ("unknown tournament's pairings", ["/tournament/987654321/"],
         "/api/tournaments/987654321/pairings"),
        ("unknown tournament's standings", ["/tournament/987654321/"],
         "/api/tournaments/987654321/standings"),
    ]
    return out


def _clients(cast) -> dict[str, tuple[Client, dict[str, str]]]:
    """Per role: a browser client signed in as them, and the API header of their token."""
    out = {}
    for role in ROLES:
        page = Client()
        headers: dict[str, str] = {}
        if role != "anonymous":
            page.force_login(getattr(cast, role))
            headers = cast.bearer(role)
        out[role] = (page, headers)
    return out


def test_every_endpoint_answers_every_role_as_its_pages_do(cast, world):
    clients = _clients(cast)
    api = Client()
    table = []
    for what, pages, endpoint in _pairs(world):
        for role in ROLES:
            page_client, headers = clients[role]
            page_status = {page_client.get(p).status_code for p in pages}
            assert len(page_status) == 1, (what, role, pages, page_status)
            api_status = api.get(endpoint, **headers).status_code
            table.append((what, role, page_status.pop(), api_status))
    mismatches = [row for row in table if row[2] != row[3]]
    assert not mismatches, "\n".join(f"{w} as {r}: page {p}, API {a}"
                                     for w, r, p, a in mismatches)
    # The matrix is not trivially all 200: each refusal the rules call for happens.
    status = {(w, r): a for w, r, _p, a in table}
    assert status[("private finished game", "anonymous")] == 403
    assert status[("private finished game", "charlie")] == 403
    assert status[("private finished game", "mona")] == 403
    assert status[("private finished game", "alice")] == 200
    assert status[("private finished game", "olga")] == 200
    assert {status[("public live game", r)] for r in ROLES} == {404}  # R19
    assert status[("private live game", "alice")] == 404  # R19, even for its player
    assert status[("private live game", "charlie")] == 403
    assert status[("public finished game", "anonymous")] == 200
    # Reviews: a public game's for all, a private game's for those who played it.
    assert {status[("review of a public finished game", r)] for r in ROLES} == {200}
    assert status[("review of a private finished game", "alice")] == 200
    assert status[("review of a private finished game", "olga")] == 404  # owner, not a player
    assert status[("review of a private finished game", "charlie")] == 404
    assert {status[("unasked review of a public finished game", r)] for r in ROLES} == {404}


_GAME_LINK = re.compile(r'href="/game/(\d+)/replay/"')


@pytest.mark.parametrize("role", ROLES)
def test_a_games_list_holds_the_games_its_history_page_links(cast, world, role):
    """Series of private tables are listed only to the player themself, on the page and
    in the API alike."""
    page_client, headers = _clients(cast)[role]
    for player in ("alice", "olga", "bob"):
        page = page_client.get(f"/@/{player}/games").content.decode()
        on_page = {int(g) for g in _GAME_LINK.findall(page)}
        body = Client().get(f"/api/players/{player}/games", **headers).json()
        in_api = {g["id"] for s in body["items"] for g in s["games"] if g["record"]}
        assert in_api == on_page, (player, role)
    # alice's private game: in her own list only, and olga (the owner, no seat) never
    # lists it (the history shows the series one played).
    alice = Client().get("/api/players/alice/games", **headers).json()
    listed = {g["id"] for s in alice["items"] for g in s["games"]}
    assert (world.private_done in listed) == (role == "alice")
