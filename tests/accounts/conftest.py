"""The accounts test cast (healthchecks style) and helpers.

- ``alice`` and ``bob``: active users with a verified email and a profile.
- ``charlie``: signed up but never confirmed his email; he must be refused wherever a
  verified account is needed (sign-in, verified-only pages).
Everyone's password is ``PASSWORD``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
import redis
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.core import mail
from django.http import HttpResponse
from django.test import Client

from accounts.services import ensure_profile

PASSWORD = "correct horse battery staple 9"

MakeUser = Callable[..., AbstractUser]


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> Iterator[None]:
    """Forget allauth's rate-limit counters (they live in the Redis cache).

    Only this run's keys are touched: the cache prefix carries a per-run id
    (settings/test.py), so other runs sharing the Redis server are left alone. Never
    ``cache.clear()``: on Redis that is FLUSHDB for everyone.
    """

    def wipe() -> None:
        client = redis.Redis.from_url(settings.REDIS_URL)
        try:
            keys = list(client.scan_iter(match=f"{settings.REDIS_PREFIX}:cache:*", count=500))
            if keys:
                client.delete(*keys)
        finally:
            client.close()

    wipe()
    yield
    wipe()


@pytest.fixture
def make_user(db: None) -> MakeUser:
    """Create a user the way sign-up would leave it: profile, email address row."""

    def make(username: str, *, verified: bool = True, email: str | None = None,
             **extra: object) -> AbstractUser:
        email = email or f"{username}@example.com"
        user = get_user_model().objects.create_user(
            username=username, email=email, password=PASSWORD, **extra
        )
        EmailAddress.objects.create(user=user, email=email, verified=verified, primary=True)
        ensure_profile(user)
        return user

    return make


@pytest.fixture
def alice(make_user: MakeUser) -> AbstractUser:
    return make_user("alice")


@pytest.fixture
def bob(make_user: MakeUser) -> AbstractUser:
    return make_user("bob")


@pytest.fixture
def charlie(make_user: MakeUser) -> AbstractUser:
    return make_user("charlie", verified=False)


def sign_in(client: Client, login: str, password: str = PASSWORD, **extra: str) -> HttpResponse:
    """POST allauth's sign-in form; return the (unfollowed) response."""
    return client.post("/accounts/login/", {"login": login, "password": password}, **extra)


def is_signed_in(client: Client) -> bool:
    """True when the client's session belongs to a user."""
    return "_auth_user_id" in client.session


def links_in_last_email(to: str) -> list[str]:
    """Every http(s) link in the last locmem email sent to ``to``."""
    sent = [m for m in mail.outbox if to in m.to]
    assert sent, f"no email to {to}; outbox: {[m.to for m in mail.outbox]}"
    return re.findall(r"https?://\S+", sent[-1].body)
