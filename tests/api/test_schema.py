"""The OpenAPI schema is valid, describes every endpoint, and every answer matches it;
its docs page loads Swagger UI from the site's own static files, never a CDN."""

from __future__ import annotations

import re

import jsonschema
import pytest
from django.test import Client, override_settings
from openapi_spec_validator import validate

from games.tournaments.services import clubs
from tests.api.conftest import finished_game, live_game

ENDPOINTS = {"/api/players/{username}", "/api/players/{username}/games", "/api/games/{game_id}",
             "/api/games/{game_id}/reviews/{seat}",
             "/api/leaderboard", "/api/leaderboard/month", "/api/clubs", "/api/clubs/{slug}",
             "/api/tournaments/{tournament_id}", "/api/tournaments/{tournament_id}/pairings",
             "/api/tournaments/{tournament_id}/standings",
             "/api/tournaments/{tournament_id}/boards"}


@pytest.fixture
def schema(db):
    response = Client().get("/api/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_the_schema_is_valid_openapi_and_lists_every_endpoint(schema):
    validate(schema)
    assert set(schema["paths"]) == ENDPOINTS
    assert all(set(ops) == {"get"} for ops in schema["paths"].values())  # read-only
    bearer = schema["components"]["securitySchemes"]
    assert [s["scheme"] for s in bearer.values()] == ["bearer"]


def _check(schema: dict, template: str, path: str, headers: dict | None = None) -> int:
    """GET ``path`` and validate its body against what ``template`` declares for its status."""
    response = Client().get(path, **(headers or {}))
    declared = schema["paths"][template]["get"]["responses"]
    assert str(response.status_code) in declared, (path, response.status_code)
    body_schema = declared[str(response.status_code)]["content"]["application/json"]["schema"]
    document = {**body_schema, "components": schema["components"]}
    jsonschema.validate(response.json(), document, cls=jsonschema.Draft202012Validator)
    return response.status_code


def test_every_answer_matches_the_schema(cast, schema):
    four = [cast.alice, cast.bob, cast.carol, cast.dan]
    done = finished_game(cast.alice, four)
    live = live_game(cast.olga, four, visibility="private")
    clubs.create_club(cast.olga, clubs.ClubSettings(name="Goats", slug="goats"))
    seen = {
        _check(schema, "/api/players/{username}", "/api/players/alice"),
        _check(schema, "/api/players/{username}", "/api/players/nobody"),
        _check(schema, "/api/players/{username}/games", "/api/players/alice/games",
               cast.bearer("alice")),
        _check(schema, "/api/players/{username}/games", "/api/players/alice/games?page=0"),
        _check(schema, "/api/games/{game_id}", f"/api/games/{done.pk}"),
        _check(schema, "/api/games/{game_id}", f"/api/games/{live.pk}"),
        _check(schema, "/api/games/{game_id}", f"/api/games/{live.pk}", cast.bearer("alice")),
        _check(schema, "/api/leaderboard", "/api/leaderboard"),
        _check(schema, "/api/leaderboard/month", "/api/leaderboard/month"),
        _check(schema, "/api/clubs", "/api/clubs"),
        _check(schema, "/api/clubs/{slug}", "/api/clubs/goats"),
        _check(schema, "/api/tournaments/{tournament_id}", "/api/tournaments/5"),
        _check(schema, "/api/tournaments/{tournament_id}/pairings", "/api/tournaments/5/pairings"),
        _check(schema, "/api/tournaments/{tournament_id}/standings",
               "/api/tournaments/5/standings"),
        _check(schema, "/api/tournaments/{tournament_id}/boards", "/api/tournaments/5/boards"),
        _check(schema, "/api/clubs", "/api/clubs", {"HTTP_AUTHORIZATION": "Bearer kzt_nope"}),
    }
    with override_settings(KOZEL_API_REQUESTS_PER_MINUTE_PER_ADDRESS=1):
        seen |= {_check(schema, "/api/leaderboard", "/api/leaderboard") for _ in range(2)}
    assert seen == {200, 400, 401, 403, 404, 429}
    # Every operation declares every refusal it can answer.
    for path, operations in schema["paths"].items():
        declared = set(operations["get"]["responses"])
        assert {"200", "400", "401", "403", "429"} <= declared, path


def test_the_docs_page_uses_only_the_sites_own_files(db):
    response = Client().get("/api/docs")
    assert response.status_code == 200
    page = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any(s.endswith("swagger-ui-bundle.js") for s in sources)
    assert all(s.startswith("/static/") for s in sources), sources
    assert "cdn" not in page.lower()
    assert "/api/openapi.json" in page
