"""Settings are driven by the environment and refuse malformed or unsafe values."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kozel_site.env import EnvError, env_bool, env_choice, env_float, env_int, env_list

ROOT = Path(__file__).resolve().parents[2]


def test_env_bool_accepts_words_and_rejects_typos(monkeypatch):
    monkeypatch.setenv("X_FLAG", "Yes")
    assert env_bool("X_FLAG", False) is True
    monkeypatch.setenv("X_FLAG", "off")
    assert env_bool("X_FLAG", True) is False
    monkeypatch.setenv("X_FLAG", "ture")
    with pytest.raises(EnvError, match="not a boolean"):
        env_bool("X_FLAG", False)
    monkeypatch.delenv("X_FLAG")
    assert env_bool("X_FLAG", True) is True


def test_env_choice_names_the_choices_on_a_typo(monkeypatch):
    monkeypatch.delenv("X_LAYER", raising=False)
    assert env_choice("X_LAYER", "pubsub", ("pubsub", "redis")) == "pubsub"
    monkeypatch.setenv("X_LAYER", "redis")
    assert env_choice("X_LAYER", "pubsub", ("pubsub", "redis")) == "redis"
    monkeypatch.setenv("X_LAYER", "pubusb")
    with pytest.raises(EnvError, match="not one of pubsub, redis"):
        env_choice("X_LAYER", "pubsub", ("pubsub", "redis"))


def test_env_numbers_and_lists(monkeypatch):
    monkeypatch.setenv("X_N", "12")
    assert env_int("X_N", 1) == 12
    monkeypatch.setenv("X_N", "twelve")
    with pytest.raises(EnvError, match="not an integer"):
        env_int("X_N", 1)
    monkeypatch.setenv("X_N", "-3")
    with pytest.raises(EnvError, match="at least 0"):
        env_int("X_N", 1, minimum=0)
    monkeypatch.setenv("X_F", "0.5")
    assert env_float("X_F", 1.0) == 0.5
    monkeypatch.setenv("X_F", "fast")
    with pytest.raises(EnvError):
        env_float("X_F", 1.0)
    monkeypatch.setenv("X_L", "a, b,,c")
    assert env_list("X_L", []) == ["a", "b", "c"]


def _django_check(extra_env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    env.update({"DJANGO_SETTINGS_MODULE": "kozel_site.settings.production"})
    env.update(extra_env)
    return subprocess.run([sys.executable, "manage.py", "check", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_production_refuses_to_start_without_secret_key():
    result = _django_check({"DATABASE_URL": "sqlite:///" + str(ROOT / ".run/prod-check.db")})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


PRODUCTION = {
    "SECRET_KEY": "x9" * 32 + "-a-long-random-production-secret",
    "DATABASE_URL": "sqlite:///" + str(ROOT / ".run/prod-check.db"),
    "ALLOWED_HOSTS": "kozel.example",
    "KOZEL_SITE_URL": "https://kozel.example",
}


def test_production_check_deploy_is_clean():
    result = _django_check(PRODUCTION, "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_requires_the_site_address_for_its_emails():
    """Without KOZEL_SITE_URL every e-mail's links would point nowhere (kozel.E020)."""
    env = {k: v for k, v in PRODUCTION.items() if k != "KOZEL_SITE_URL"}
    result = _django_check({**env, "KOZEL_SITE_URL": ""})
    assert result.returncode != 0
    assert "kozel.E020" in result.stdout + result.stderr


def test_time_zone_is_utc_and_checks_pass(settings):
    from games.checks import check_site_settings

    assert check_site_settings() == []
    settings.TIME_ZONE = "Europe/Moscow"
    assert [e.id for e in check_site_settings()] == ["kozel.E002"]


def test_in_memory_channel_layer_is_refused_outside_tests(settings):
    from games.checks import check_site_settings

    settings.KOZEL_TEST_HOOKS = False
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    assert "kozel.E001" in [e.id for e in check_site_settings()]
