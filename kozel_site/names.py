"""Names and chat lines that look like what they are.

- :func:`hidden_characters`: bidi controls, zero-width and other invisible format
  characters. In a name they reorder or hide what a reader sees (``\\u202egnp.exe``
  shows as ``exe.png``), so every user-written name refuses them; in chat they are
  dropped (:func:`without_hidden`), all but the zero-width joiner that emoji sequences
  are made of.
- :func:`skeletons`: the Unicode TR39 confusables skeleton of a username after NFKC and
  case folding, so ``аlice`` (a Cyrillic а), ``ａｌｉｃｅ`` and ``alice`` are one name.
  The confusables table is the ``confusable_homoglyphs`` package's copy of Unicode's
  ``confusables.txt``, kept in both directions; a prototype is the character many others
  map to, and a lone pair goes to its smaller member, so look-alikes share a skeleton.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources

ZERO_WIDTH_JOINER = "\u200d"
# Invisible letters and fillers that are not format characters (category Cf).
_INVISIBLE_OTHER = frozenset("\u115f\u1160\u3164\uffa0\u180e\u2028\u2029\u034f")


def _hidden(ch: str) -> bool:
    category = unicodedata.category(ch)
    return (category in {"Cf", "Co", "Cs", "Zl", "Zp"} or (category == "Cc" and ch not in "\n\t")
            or ch in _INVISIBLE_OTHER or unicodedata.bidirectional(ch) in {
                "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})


def hidden_characters(text: str) -> list[str]:
    """The invisible or reordering characters in ``text``, as ``U+XXXX`` codes."""
    return [f"U+{ord(ch):04X}" for ch in dict.fromkeys(text) if _hidden(ch)]


def without_hidden(text: str) -> str:
    """``text`` without its invisible or reordering characters (a chat line), keeping
    the zero-width joiner inside emoji sequences."""
    return "".join(ch for ch in text if ch == ZERO_WIDTH_JOINER or not _hidden(ch))


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character to its prototype (see the module's doc)."""
    source = resources.files("confusable_homoglyphs").joinpath("confusables.json")
    table: dict[str, list[dict[str, str]]] = json.loads(source.read_text("utf-8"))

    def clean(text: str) -> str:  # the package wraps right-to-left letters in U+200E
        return text.replace("\u200e", "")

    mapping: dict[str, str] = {}
    for key, others in table.items():
        char = clean(key)
        if len(char) != 1 or len(others) != 1:
            continue  # a prototype (many map to it) or a sequence: kept as it is
        target = clean(others[0]["c"])
        back = table.get(others[0]["c"], [])
        if len(back) == 1 and len(target) == 1:
            target = min(char, target)  # a lone pair: both to one member
        if target != char:
            mapping[char] = target
    return mapping


def _skeleton(text: str) -> str:
    mapping = _prototypes()
    return "".join(mapping.get(ch, ch) for ch in unicodedata.normalize("NFD", text))


def _folded(text: str) -> str:
    return _skeleton(unicodedata.normalize("NFD", _skeleton(text).casefold()))


def skeletons(name: str) -> frozenset[str]:
    """The forms a username shares with every name that looks like it: of its NFKC
    form, the TR39 skeleton case folded (``aIice`` is ``alice``: a capital I looks like
    an l), and the skeleton of its case folded form (``Кozel`` is ``kozel``). Two names
    look alike when their sets meet."""
    text = unicodedata.normalize("NFKC", name)
    return frozenset({_folded(text), _folded(text.casefold())})


def look_alike(first: str, second: str) -> bool:
    """Whether two names would pass for each other (:func:`skeletons`)."""
    return not skeletons(first).isdisjoint(skeletons(second))
