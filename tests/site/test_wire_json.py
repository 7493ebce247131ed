"""The sockets' JSON (kozel_site.wire_json): orjson's speed, the standard library's
meaning."""

from __future__ import annotations

import json

import pytest

from kozel_site import wire_json

SAME_AS_THE_STANDARD_LIBRARY = [
    '{"type": "act", "action": {"kind": "lead", "cards": ["AH", "7S"]}, "version": 12}',
    '{"n": ' + str(2 ** 70) + ', "m": -' + str(2 ** 64) + "}",
    '{"version": 1234567890123456789}',
    '{"version": NaN, "x": Infinity, "y": -Infinity, "z": 1e400}',
    '{"text": "\\ud800"}',
    '{"text": "Козёл 💥", "a": 1, "a": 2}',
    '{"type":"act","action":' + '{"a":' * 600 + "1" + "}" * 600 + ',"version":0}',
    "  [1.5e300, -0, 0.1, 1E5, true, null]  ",
]


@pytest.mark.parametrize("text", SAME_AS_THE_STANDARD_LIBRARY)
def test_reads_what_the_standard_library_reads_as_it_reads_it(text):
    assert repr(wire_json.loads(text)) == repr(json.loads(text))


@pytest.mark.parametrize("text", ["not json", "{", "[1,]", "{'a': 1}", '{"a":1}x', "\ufeff{}",
                                  "[" * 1100 + "]" * 1100, "[" * 3000, '{"": [' * 600])
def test_refuses_what_is_not_json_or_too_deep(text):
    with pytest.raises((ValueError, RecursionError)):
        wire_json.loads(text)


def test_a_frame_nested_deeper_than_orjson_reads_is_refused_without_the_standard_library(
        monkeypatch):
    """The cheap refusal: json.loads spent 50-180 us on such a frame (issue 15)."""
    def not_called(text):
        raise AssertionError("json.loads was asked")

    monkeypatch.setattr(json, "loads", not_called)
    with pytest.raises(ValueError, match="1024 levels"):
        wire_json.loads("[" * 2000 + "]" * 2000)


def test_writes_json_the_standard_library_reads_back_with_string_keys():
    content = {"type": "event", "seats": {0: "alice", 3: None}, "cards": ["AH"],
               "text": "Козёл 💥", "version": 7, "ratio": 1.5}
    assert json.loads(wire_json.dumps(content)) == json.loads(json.dumps(content))


def test_writes_non_ascii_text_that_reads_back_the_same():
    text = "Козёл, ход за тобой 💥 \u2028"
    assert json.loads(wire_json.dumps({"text": text}))["text"] == text


def test_writes_what_orjson_refuses_as_the_standard_library_does():
    """A client's nonce beyond 64 bits comes back in its pong (the fuzzer's sockets
    closed with 1011 when orjson refused it)."""
    content = {"type": "pong", "nonce": 2 ** 70, "big": -(2 ** 64)}
    assert json.loads(wire_json.dumps(content)) == content
