"""kozel_site/autobahn_gil.py: daphne's frames are unmasked and their UTF-8 checked as
autobahn's own code does it, chunk by chunk, without its calls through cffi (which give
the GIL away; issue 15). autobahn's implementations are the oracle."""

from __future__ import annotations

from autobahn.websocket import protocol
from autobahn.websocket.utf8validator import Utf8Validator as AutobahnValidator
from autobahn.websocket.xormasker import create_xor_masker as autobahn_masker
from hypothesis import given, settings
from hypothesis import strategies as st

import kozel_site.asgi  # noqa: F401 - installs the fix, as daphne's import does
from kozel_site import autobahn_gil


def _chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` split at ``cuts`` (positions, in any order, repeats allowed)."""
    points = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    return [data[a:b] for a, b in zip(points, points[1:], strict=False)] or [data]


def test_daphnes_autobahn_uses_them():
    assert protocol.Utf8Validator is autobahn_gil.CodecUtf8Validator
    assert protocol.create_xor_masker is autobahn_gil.create_xor_masker
    autobahn_gil.install()  # idempotent
    assert protocol.Utf8Validator is autobahn_gil.CodecUtf8Validator


@settings(max_examples=300, deadline=None)
@given(mask=st.binary(min_size=4, max_size=4), data=st.binary(max_size=600),
       cuts=st.lists(st.integers(min_value=0, max_value=600), max_size=6))
def test_a_frame_is_unmasked_as_autobahn_does_chunk_by_chunk(mask, data, cuts):
    """RFC 6455 5.3: the key continues across the chunks a frame arrives in."""
    ours, theirs = autobahn_gil.create_xor_masker(mask, len(data)), autobahn_masker(
        mask, len(data))
    for chunk in _chunks(data, cuts):
        assert ours.process(chunk) == theirs.process(chunk)
        assert ours.pointer() == theirs.pointer()
    ours.reset()
    assert ours.pointer() == 0 and ours.process(data[:7]) == autobahn_masker(
        mask).process(data[:7])


def _verdicts(validator, chunks: list[bytes]) -> list[tuple[bool, bool]]:
    """(valid, ends on a code point) after each chunk, up to the first invalid one."""
    out = []
    for chunk in chunks:
        valid, ends, _index, _total = validator.validate(chunk)
        out.append((valid, ends))
        if not valid:
            break
    return out


@settings(max_examples=400, deadline=None)
@given(data=st.one_of(st.text(max_size=80).map(lambda t: t.encode("utf-8", "surrogatepass")),
                      st.binary(max_size=40)),
       cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=5))
def test_utf8_is_judged_as_autobahn_judges_it_chunk_by_chunk(data, cuts):
    """Valid text, text with lone surrogates (invalid UTF-8), random bytes; split
    anywhere, including inside a code point."""
    chunks = _chunks(data, cuts)
    assert _verdicts(autobahn_gil.CodecUtf8Validator(), chunks) == _verdicts(
        AutobahnValidator(), chunks)


def test_known_utf8_cases_and_a_reset_between_messages():
    validator = autobahn_gil.CodecUtf8Validator()
    assert validator.validate("κόσμε".encode()) == (True, True, 10, 10)
    assert validator.validate(b"\xe2\x82")[:2] == (True, False)  # inside a code point
    assert validator.validate(b"\xac")[:2] == (True, True)  # the euro sign completed
    for bad in (b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xff"):
        validator.reset()
        assert validator.validate(b"ok " + bad)[0] is False, bad
    validator.reset()
    assert validator.validate(b"fine") == (True, True, 4, 4)
