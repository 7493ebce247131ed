"""The chat filter: configured words and link patterns that block a line or flag it.

Matching is done on a folded copy of the line, so that the usual disguises do not get
through: case (``casefold``), accents (NFKD, combining marks dropped), look-alike
letters across Latin and Cyrillic (a Latin "xуй" still reads as Cyrillic), digits and
symbols used as letters (``f4ck``), separators inside a word (``f.u.c.k``) and repeated
letters (``fuuuck``). Words are matched whole; "re:" entries are regular expressions
on the folded text. The lists live in ``KOZEL_MODERATION["CHAT_FILTER"]`` (conf.py).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from accounts.moderation.conf import moderation_settings

BLOCK = "block"
FLAG = "flag"

# Look-alikes, folded towards one alphabet or the other.
_CYR_TO_LAT = str.maketrans("асеорхукмтвнiі", "aceopxykmtbhii")
_LAT_TO_CYR = str.maketrans("aceopxykmtbh", "асеорхукмтвн")
_LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s",
         "!": "i", "|": "i"}
# A digit or symbol standing for a letter sits between letters ("f4ck"); "idiot!" keeps
# its "!".
_LEET_INSIDE = re.compile(r"(?<=[^\W\d_])[013457@$!|]+(?=[^\W\d_])")
_JOINERS = re.compile(r"(?<=\w)[.\-_*·•'’]+(?=\w)")
_REPEATS = re.compile(r"(\w)\1{2,}")
_SPACES = re.compile(r"\s+")


def _base(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    # Keep й and ё whole: they are letters of their own in Russian, not accented и / е.
    kept = unicodedata.normalize("NFC", decomposed)
    text = "".join(ch for ch in unicodedata.normalize("NFKD", kept)
                   if not unicodedata.combining(ch) or ch in "\u0306\u0308")
    text = unicodedata.normalize("NFC", text)
    text = _LEET_INSIDE.sub(lambda m: "".join(_LEET[c] for c in m.group()), text)
    text = _JOINERS.sub("", text)
    text = _REPEATS.sub(r"\1", text)
    return _SPACES.sub(" ", text).strip()


def folded(text: str) -> tuple[str, str]:
    """The line folded towards Latin and towards Cyrillic (each list is matched on both)."""
    base = _base(text)
    return base.translate(_CYR_TO_LAT), base.translate(_LAT_TO_CYR)


def _compile(entry: str) -> re.Pattern[str]:
    if entry.startswith("re:"):
        return re.compile(entry[3:], re.IGNORECASE)
    word = _base(entry)
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=8)
def _compiled(config: str) -> tuple[tuple[str, re.Pattern[str], str], ...]:
    lists, links_action, link_patterns = json.loads(config)
    out: list[tuple[str, re.Pattern[str], str]] = []
    for language, by_action in lists.items():
        for action in (BLOCK, FLAG):
            for entry in by_action.get(action, []):
                out.append((action, _compile(entry), f"{language}:{entry}"))
    if links_action in (BLOCK, FLAG):
        for entry in link_patterns:
            out.append((links_action, _compile(entry), f"link:{entry}"))
    return tuple(out)


def _rules() -> tuple[tuple[str, re.Pattern[str], str], ...]:
    conf = moderation_settings
    return _compiled(json.dumps([conf.CHAT_FILTER, conf.CHAT_LINKS, conf.CHAT_LINK_PATTERNS],
                                sort_keys=True))


@dataclass(frozen=True)
class Verdict:
    """What the filter says about one line: ``action`` is "", "flag" or "block"."""

    action: str
    matched: tuple[str, ...] = ()

    @property
    def blocked(self) -> bool:
        return self.action == BLOCK

    @property
    def flagged(self) -> bool:
        return self.action == FLAG

    @property
    def is_link(self) -> bool:
        return any(m.startswith("link:") for m in self.matched)


def check(text: str) -> Verdict:
    """Block beats flag; no match is ``Verdict("")``. Links are matched on the raw
    lower-cased text too (folding would join ``example.com`` into one word)."""
    latin, cyrillic = folded(text)
    raw = text.casefold()
    hits: dict[str, list[str]] = {BLOCK: [], FLAG: []}
    for action, pattern, name in _rules():
        targets = (raw,) if name.startswith("link:") else (latin, cyrillic)
        if any(pattern.search(t) for t in targets):
            hits[action].append(name)
    if hits[BLOCK]:
        return Verdict(BLOCK, tuple(hits[BLOCK]))
    if hits[FLAG]:
        return Verdict(FLAG, tuple(hits[FLAG]))
    return Verdict("")
