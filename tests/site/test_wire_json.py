"""The sockets' JSON (kozel_site.wire_json): written by orjson, as the standard library
would have it."""

from __future__ import annotations

import json

from kozel_site import wire_json


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
