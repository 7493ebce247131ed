"""The games admin: every model is listed; history (moves, results) is read-only."""

from __future__ import annotations

import pytest
from django.contrib import admin

from games import models
from games.services import series as series_service
from tests.games.helpers import current_game


@pytest.mark.parametrize("model", [models.Table, models.Seat, models.Team, models.Series,
                                   models.Game, models.Move, models.GameResult,
                                   models.ChatMessage, models.Conduct, models.SeriesVote])
def test_every_model_has_an_admin(model):
    assert admin.site.is_registered(model)


def test_admin_pages_render_and_moves_are_read_only(admin_client, cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    for url in ["/admin/games/table/", f"/admin/games/table/{full_table.pk}/change/",
                "/admin/games/series/", "/admin/games/game/", "/admin/games/move/",
                "/admin/games/conduct/", "/admin/games/gameresult/",
                "/admin/games/table/?status__exact=playing", "/admin/games/table/?q=Friday"]:
        assert admin_client.get(url).status_code == 200, url
    assert admin_client.get("/admin/games/move/add/").status_code == 403
    assert admin_client.post(f"/admin/games/game/{game.pk}/delete/").status_code == 403
