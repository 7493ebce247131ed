"""The library patches the site keeps: each fails loudly here if the patched names move,
and the system checks refuse a release other than the tested one."""

from __future__ import annotations

import importlib.metadata
import inspect

import pytest
import redis
from allauth.account.adapter import DefaultAccountAdapter
from django.core import checks
from kombu import Connection
from kombu.transport import redis as transport

from kozel_site import kombu_fixes
from kozel_site.checks import PATCHED, version_errors


def _channel_without_client() -> transport.Channel:
    """A Redis channel as ``Connection.collect()`` leaves it: its transport's client
    dropped."""
    conn = Connection("redis://127.0.0.1:1/0")
    channel = transport.Channel.__new__(transport.Channel)
    channel.connection = conn.transport
    channel.connection.client = None
    return channel


def test_kombus_patched_method_is_where_the_fix_expects_it_and_still_has_the_bug():
    """The method kombu_fixes wraps, with its arguments, still reads the lost client:
    once kombu fixes that, this fails and the patch can go."""
    kombu_fixes.install()
    original = inspect.unwrap(transport.Channel._connparams)
    assert original is not transport.Channel._connparams
    assert list(inspect.signature(original).parameters) == ["self", "asynchronous"]
    with pytest.raises(AttributeError, match="hostname"):
        original(_channel_without_client())


def test_a_channel_whose_transport_lost_its_client_raises_a_connection_error():
    """With the patch the close path meets an error kombu ignores, not the
    AttributeError that killed workers on a Redis restart."""
    kombu_fixes.install()
    kombu_fixes.install()  # idempotent
    channel = _channel_without_client()
    with pytest.raises(redis.exceptions.ConnectionError):
        channel._connparams()
    assert redis.exceptions.ConnectionError in Connection(
        "redis://127.0.0.1:1/0").connection_errors  # ignored by kombu's close path


def test_allauths_overridden_private_method_is_still_there_and_used():
    """accounts/adapter.py overrides ``_get_login_attempts_cache_key``: it must still
    exist with its arguments, and allauth's login flow must still ask it."""
    method = DefaultAccountAdapter._get_login_attempts_cache_key
    parameters = inspect.signature(method).parameters
    assert list(parameters) == ["self", "request", "credentials"]
    assert parameters["credentials"].kind is inspect.Parameter.VAR_KEYWORD
    for caller in (DefaultAccountAdapter.pre_authenticate,
                   DefaultAccountAdapter._delete_login_attempts_cached_email):
        assert "_get_login_attempts_cache_key" in inspect.getsource(caller)


def test_the_installed_patched_libraries_are_the_tested_ones():
    assert version_errors(importlib.metadata.version) == []
    assert not [e for e in checks.run_checks() if e.id in {p.check_id for p in PATCHED}]


def test_another_release_of_a_patched_library_is_refused():
    errors = version_errors(lambda name: "0.0.1" if name == "kombu" else
                            importlib.metadata.version(name))
    assert [e.id for e in errors] == ["kozel.E010"]
    assert "kombu 0.0.1" in errors[0].msg and "kombu_fixes" in errors[0].msg
