"""Rate limits: per token and per client address, counted in the shared cache (the real
Redis), answering 429 with ``Retry-After``."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from kozel_site.api import limits


@pytest.fixture(autouse=True)
def _small_budgets():
    with override_settings(KOZEL_API_REQUESTS_PER_MINUTE_PER_TOKEN=4,
                           KOZEL_API_REQUESTS_PER_MINUTE_PER_ADDRESS=3):
        yield


def _statuses(n: int, **headers) -> list[int]:
    return [Client().get("/api/clubs", **headers).status_code for _ in range(n)]


def test_an_address_without_a_token_gets_its_budget_then_429_with_retry_after(db):
    assert _statuses(3, REMOTE_ADDR="10.0.0.1") == [200, 200, 200]
    refused = Client().get("/api/clubs", REMOTE_ADDR="10.0.0.1")
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= limits.WINDOW_SECONDS
    assert "Too many requests" in refused.json()["detail"]
    # Another address has its own budget.
    assert _statuses(1, REMOTE_ADDR="10.0.0.2") == [200]


def test_a_token_has_its_own_budget_apart_from_its_address(cast):
    # The address is spent by anonymous requests; the token still answers.
    assert _statuses(3, REMOTE_ADDR="10.0.0.3") == [200] * 3
    assert _statuses(1, REMOTE_ADDR="10.0.0.3") == [429]
    alice = cast.bearer("alice")
    assert _statuses(4, REMOTE_ADDR="10.0.0.3", **alice) == [200] * 4
    assert _statuses(1, REMOTE_ADDR="10.0.0.4", **alice) == [429]  # per token, any address
    # bob's token is another budget.
    assert _statuses(1, REMOTE_ADDR="10.0.0.3", **cast.bearer("bob")) == [200]


def test_guessing_tokens_spends_the_address_budget(cast):
    bad = {"HTTP_AUTHORIZATION": "Bearer kzt_" + "B" * 43, "REMOTE_ADDR": "10.0.0.5"}
    assert _statuses(3, **bad) == [401, 401, 401]
    assert _statuses(1, **bad) == [429]


def test_the_window_turns_and_retry_after_counts_down_to_it(db):
    start = 1_000_000 * limits.WINDOW_SECONDS + 10.2  # 10.2 s into a window
    for _ in range(2):
        limits.spend("test:window", 2, now=start)
    with pytest.raises(limits.RateLimitedError) as refused:
        limits.spend("test:window", 2, now=start + 5)
    assert refused.value.retry_after == 45  # 60 − 15.2, rounded up
    limits.spend("test:window", 2, now=start + 50)  # the next window: allowed again
