"""Security that comes with moderation: production settings refuse to start
without ALLOWED_HOSTS or with a weak SECRET_KEY; the sign-in lockout counts failures
per client and account together, so a stranger cannot lock the owner out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.accounts.conftest import is_signed_in, sign_in
from tests.games.conftest import make_user

PASSWORD = "pw-12345!"  # tests.games.conftest.make_user's

ROOT = Path(__file__).resolve().parents[2]
STRONG = "Vq3-T9xk_2PzL8wQm4RyN7bHc1JdF6sGa5KeU0oXiWtZvMnBpC"


def check(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if k not in {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "KOZEL_SITE_URL"}}
    base.update({"DJANGO_SETTINGS_MODULE": "kozel_site.settings.production",
                 "DATABASE_URL": "sqlite:///" + str(ROOT / ".run/prod-check.db")})
    base.update(env)
    return subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=base,
                          capture_output=True, text=True, timeout=120)


def test_production_requires_allowed_hosts():
    result = check(SECRET_KEY=STRONG)
    assert result.returncode != 0 and "ALLOWED_HOSTS must be set" in result.stderr
    result = check(SECRET_KEY=STRONG, ALLOWED_HOSTS="*")
    assert result.returncode != 0 and "not '*'" in result.stderr
    assert check(SECRET_KEY=STRONG, ALLOWED_HOSTS="kozel.example",
                 KOZEL_SITE_URL="https://kozel.example").returncode == 0


@pytest.mark.parametrize("key, why", [
    ("dev-only-insecure-key-change-me", "characters"),
    ("dev-only-insecure-key-change-me" + "x" * 40, "dev-only"),
    ("django-insecure-" + STRONG, "insecure"),
    ("ab" * 40, "different characters"),
    ("short-but-random-Q8z", "at least 50"),
    ("please-change-me-" + STRONG, "change-me"),
])
def test_production_refuses_a_weak_secret_key(key, why):
    result = check(SECRET_KEY=key, ALLOWED_HOSTS="kozel.example")
    assert result.returncode != 0
    assert "SECRET_KEY is too weak" in result.stderr and why in result.stderr


@pytest.mark.django_db
def test_a_stranger_cannot_lock_the_owner_out(client, cast):
    stranger = {"REMOTE_ADDR": "203.0.113.50"}
    for _ in range(5):
        assert "not correct" in sign_in(client, "bob", "guess", **stranger).content.decode()
    limited = sign_in(client, "bob", "guess", **stranger).content.decode()
    assert "Too many failed sign-ins for this account from this device" in limited
    assert "Nobody else is locked out" in limited, "the user is told what happened"
    assert not is_signed_in(client)
    # Bob, from his own device, signs in at once.
    assert sign_in(client, "bob", PASSWORD, **{"REMOTE_ADDR": "198.51.100.60"}).status_code \
        == 302
    assert is_signed_in(client)


@pytest.mark.django_db
def test_one_client_is_still_limited_over_all_accounts(client):
    for name in ("u1", "u2", "u3"):
        make_user(name)
    ip = {"REMOTE_ADDR": "203.0.113.51"}
    pages = [sign_in(client, name, "guess", **ip).content.decode()
             for name in ("u1", "u2", "u3") for _ in range(4)]
    assert "not correct" in pages[0]
    assert any("Too many failed" in page for page in pages[10:]), "10/m per client"
