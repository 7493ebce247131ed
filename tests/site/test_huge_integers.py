"""Every integer from a URL or a form is range-checked into a clear 400 (or a form
error), never a 500: this walks the URL resolver and every form of the site and sends
numbers far too large for any column (a 20-digit user id was an OverflowError)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter

from games.tournaments.services import clubs
from kozel_site import ids
from tests.games.conftest import make_user

HUGE = "9" * 20  # 99999999999999999999: more than a signed 64-bit column holds
PACKAGES = ("accounts", "games", "kozel_site")


def _patterns(resolver: URLResolver = None, prefix: str = "") -> Iterator[tuple[str, object]]:
    """``(route, pattern)`` for every URL pattern, included ones too."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, route)
        elif isinstance(entry, URLPattern):
            yield route, entry.pattern


def _all_forms() -> list[type[forms.BaseForm]]:
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            if info.name.rsplit(".", 1)[-1] in {"forms", "views", "admin"}:
                importlib.import_module(info.name)
    found, todo = set(), [forms.BaseForm]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return sorted((f for f in found if f.__module__.split(".")[0] in PACKAGES),
                  key=lambda f: f"{f.__module__}.{f.__qualname__}")


def _integer_fields() -> list[tuple[str, str, forms.IntegerField]]:
    return [(f"{form.__module__}.{form.__qualname__}", name, field)
            for form in _all_forms() for name, field in form.base_fields.items()
            if isinstance(field, forms.IntegerField)]


def test_the_walk_finds_the_sites_forms_and_routes():
    assert len(_all_forms()) >= 10
    assert any(name == "match_id" for _, name, _ in _integer_fields())
    assert sum(1 for route, _ in _patterns() if "<id:" in route) >= 20


def test_no_url_takes_an_unbounded_integer():
    """Every integer in a route goes through the ``id`` converter, which answers 400."""
    unbounded = [route for route, pattern in _patterns()
                 for converter in getattr(pattern, "converters", {}).values()
                 if isinstance(converter, IntConverter)]
    assert unbounded == []


@pytest.mark.parametrize("where", [pytest.param(f, id=f"{f[0]}.{f[1]}")
                                   for f in _integer_fields()])
def test_every_integer_form_field_refuses_a_huge_number(where):
    _, _, field = where
    assert field.max_value is not None and field.max_value <= ids.ID_MAX
    with pytest.raises(ValidationError):
        field.clean(HUGE)


def _fill(route: str, slug: str) -> str:
    def value(match: re.Match[str]) -> str:
        kind = match.group(1) or "str"
        if kind in {"id", "int", "wsid"}:
            return HUGE
        return slug if kind == "slug" else HUGE
    path = re.sub(r"<(?:(\w+):)?\w+>", value, route)
    return "/" + path.lstrip("^").rstrip("$").replace("\\Z", "")


def _integer_post_names() -> set[str]:
    """The integer fields the forms name, and those the views read by hand."""
    names = {name for _, name, _ in _integer_fields()}
    names |= {"user_id", "entry_id", "match_id", "table_id", "id", "series", "page"}
    return names


@pytest.mark.django_db
def test_huge_numbers_in_every_url_and_form_are_never_a_500():
    """As the site's owner (who may reach every page): GET and POST every route with
    huge numbers in its path, its query string and every integer field a form or a
    view reads."""
    owner = make_user("olga")
    owner.is_staff = owner.is_superuser = True
    owner.save()
    club = clubs.create_club(owner, clubs.ClubSettings(name="Friday Goats",
                                                       slug="friday-goats"))
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    data = dict.fromkeys(_integer_post_names(), HUGE)
    failures = []
    for route, _ in _patterns():
        if route.startswith(("ws/", "static/", "media/", "healthz")) or "logout" in route:
            continue
        path = _fill(route, club.slug)
        for method in (client.get, client.post):
            response = method(path, data)
            if response.status_code >= 500:
                failures.append(f"{method.__name__.upper()} {path}: {response.status_code}")
    assert failures == []


@pytest.mark.django_db
@pytest.mark.parametrize("tool", ["decide", "remove", "unban", "role"])
def test_a_20_digit_user_id_in_a_clubs_member_tools_is_a_400(tool):
    owner = make_user("olga")
    club = clubs.create_club(owner, clubs.ClubSettings(name="Friday Goats",
                                                       slug="friday-goats"))
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    response = client.post(f"/club/{club.slug}/members/{tool}/",
                           {"user_id": HUGE, "reason": "x", "role": "director",
                            "approve": "1"})
    assert response.status_code == 400


@pytest.mark.django_db
def test_a_huge_id_in_a_url_is_a_400(client):
    assert client.get(f"/tournament/{HUGE}/").status_code == 400
