"""Site pages: the shell's navigation, the rules page, the card include, placeholders."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

pytestmark = pytest.mark.django_db


def test_navigation_for_visitors(client):
    html = client.get("/rules/").content.decode()
    for href, label in [("/", "Play"), ("/leaderboard/", "Leaderboard"), ("/clubs/", "Clubs"),
                        ("/rules/", "Rules")]:
        assert re.search(rf'<a href="{href}"[^>]*>{label}</a>', html), label
    assert 'href="/rules/" aria-current="page"' in html
    assert "Sign in" in html and "Sign up" in html


def test_navigation_for_players_has_the_profile_menu(client, django_user_model):
    user = django_user_model.objects.create_user("alice", password="x")
    client.force_login(user)
    html = client.get("/").content.decode()
    assert '<details class="profile-menu">' in html
    assert '<svg class="avatar"' in html
    assert 'href="/@/alice">Profile</a>' in html
    assert 'href="/account/settings/">Settings</a>' in html
    assert 'action="/accounts/logout/"' in html


def test_rules_page_covers_every_rule(client):
    response = client.get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    for n in range(1, 20):
        assert f'<h3 id="r{n}">R{n} ·' in html, f"R{n} missing"
    # Cards are drawn by us; the 10 reads "10", never "T".
    assert 'data-card="TD"' in html
    assert re.search(r'<text class="pc-rank"[^>]*>10</text>', html)
    assert not re.search(r'<text class="pc-rank"[^>]*>T</text>', html)


@pytest.mark.parametrize(("code", "rank", "suit", "colour", "label"), [
    ("TD", "10", "♦", "suit-D", "10 of diamonds"),
    ("as", "A", "♠", "suit-S", "Ace of spades"),
    ("6C", "6", "♣", "suit-C", "6 of clubs"),
    ("QH", "Q", "♥", "suit-H", "Queen of hearts"),
])
def test_card_include(code, rank, suit, colour, label):
    """A card standing alone is named with a capital, like the table's."""
    html = render_to_string("cards/card.html", {"code": code})
    assert f'aria-label="{label}"' in html
    assert f">{rank}</text>" in html and f">{suit}</text>" in html
    assert colour in html


def test_card_include_trump_and_back():
    assert "(trump)" in render_to_string("cards/card.html", {"code": "7H", "trump": True})
    back = render_to_string("cards/card.html", {"back": True})
    assert 'aria-label="face-down card"' in back and "<text" not in back


def test_clubs_is_no_longer_a_placeholder(client):
    """Clubs: /clubs/ lists and searches them (tests/tournaments)."""
    html = client.get("/clubs/").content.decode()
    assert "<h1>Clubs</h1>" in html
    assert "coming soon" not in html and 'role="search"' in html


def test_every_page_links_the_svg_favicon_and_it_is_served(client):
    html = client.get("/rules/").content.decode()
    assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">' in html
    icon = client.get("/static/img/favicon.svg")
    assert icon.status_code == 200 and icon["Content-Type"].startswith("image/svg+xml")
    svg = b"".join(icon.streaming_content) if icon.streaming else icon.content
    assert svg.lstrip().startswith(b"<svg") and b"</svg>" in svg


def test_favicon_ico_redirects_to_the_svg(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == "/static/img/favicon.svg"
