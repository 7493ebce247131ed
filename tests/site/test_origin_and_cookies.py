"""A socket's page must be this site's own (scheme, host and port), and under the
production settings the language cookie is Secure like the others."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator

from kozel_site.asgi import application

ROOT = Path(__file__).resolve().parents[2]
STRONG = "Vq3-T9xk_2PzL8wQm4RyN7bHc1JdF6sGa5KeU0oXiWtZvMnBpC"


async def _connects(origin: str, host: str | None = "127.0.0.1:8000",
                    extra: list[tuple[bytes, bytes]] | None = None) -> bool:
    headers = [(b"origin", origin.encode())] + (extra or [])
    if host is not None:
        headers.append((b"host", host.encode()))
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    if connected:
        await communicator.disconnect()
    return connected


@pytest.mark.django_db
async def test_the_sites_own_origin_connects():
    assert await _connects("http://127.0.0.1:8000")
    assert await _connects("http://localhost", host="localhost:80")


@pytest.mark.django_db
@pytest.mark.parametrize("origin", [
    "http://127.0.0.1:1",  # another port of the same host
    "https://127.0.0.1:8000",  # another scheme
    "http://localhost:8000",  # another host, allowed but not this page's
    "null", "file://", "http://127.0.0.1:99999", "http://evil.example:8000",
])
async def test_another_port_scheme_or_host_is_refused(origin):
    assert not await _connects(origin)


@pytest.mark.django_db
async def test_behind_the_tls_proxy_the_origin_is_https(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = [(b"x-forwarded-proto", b"https")]
    assert await _connects("https://localhost", host="localhost", extra=proxied)
    assert not await _connects("http://localhost", host="localhost", extra=proxied)
    assert not await _connects("https://localhost:1", host="localhost", extra=proxied)


def _production(expression: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG"}}
    env.update({"DJANGO_SETTINGS_MODULE": "kozel_site.settings.production",
                "SECRET_KEY": STRONG, "ALLOWED_HOSTS": "kozel.example",
                "DATABASE_URL": "sqlite:///" + str(ROOT / ".run/prod-check.db"),
                "REDIS_URL": env.get("REDIS_URL", "redis://127.0.0.1:6379/0")})
    code = ("import django; django.setup(); from django.conf import settings; "
            f"print({expression})")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_production_language_cookie_is_secure():
    assert _production("settings.LANGUAGE_COOKIE_SECURE") == "True"


@pytest.mark.django_db
def test_the_settings_page_sets_the_language_cookie_with_the_settings_flags(
        client, settings, django_user_model):
    settings.LANGUAGE_COOKIE_SECURE = True
    user = django_user_model.objects.create_user("carol", password="pw-12345!")
    client.force_login(user)
    page = client.get("/account/settings/")
    assert page.status_code == 200
    form = page.context["form"]
    data = {name: (value if value is not None else "")
            for name, value in form.initial.items() if name in form.fields}
    data["preferred_language"] = "ru"
    response = client.post("/account/settings/", data)
    assert response.status_code == 302, response.content[:500]
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME]["secure"] is True
