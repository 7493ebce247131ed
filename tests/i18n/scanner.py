"""Find user-visible English outside translation calls (issue 16), in templates and in
JavaScript (the table's modules and the scripts inside templates).

Templates: everything a person sees (text between tags, and the aria-label, title,
placeholder, alt and label attributes) once {% translate %}, {% blocktranslate %} …
{% endblocktranslate %}, {{ variables }}, other tags, comments, <script> and <style> are
taken out, must hold no English word.

JavaScript: a string literal (quoted or a template literal's text) is flagged when it
reads as prose (a capitalised word, or words ending in sentence punctuation) or when it
lands where people see it (``text:``, ``title:``, ``"aria-label":``, ``.textContent =``,
``toast(``, ``flash(``, ``announce(``, ``showBanner(``, ``setAttribute("aria-label"|
"title"|"placeholder", …)``) and has a word in it; the messages given to ``gettext``,
``ngettext`` and ``pgettext`` are what is *meant* to be English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

WORD = re.compile(r"[A-Za-z]{2,}")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}"


def _line_of(source: str, index: int) -> int:
    return source.count("\n", 0, index) + 1


def _blank(match: re.Match[str]) -> str:
    """Replace a match by as many newlines as it spans, so that line numbers hold."""
    return "\n" * match.group(0).count("\n") + " "


# --- templates ---------------------------------------------------------------------
_TEMPLATE_DROPS = [
    # Blocks that hold CSS classes, not words: {% block main_class %}page rules{% endblock %}.
    re.compile(r"{%\s*block\s+\w*_class\s*%}.*?{%\s*endblock[^%]*%}", re.S),
    re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", re.S),
    re.compile(r"{#.*?#}", re.S),
    re.compile(r"{%\s*blocktrans(?:late)?\b.*?%}.*?{%\s*endblocktrans(?:late)?\s*%}", re.S),
    re.compile(r"{%\s*trans(?:late)?\s.*?%}", re.S),
    re.compile(r"<style\b.*?</style>", re.S | re.I),
    re.compile(r"{{.*?}}", re.S),
    re.compile(r"{%.*?%}", re.S),
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"&[a-z]+;|&#\d+;"),
]
_SCRIPT = re.compile(r"(<script\b[^>]*>)(.*?)</script>", re.S | re.I)
_VISIBLE_ATTRIBUTE = re.compile(
    r"""\s(?:aria-label|title|placeholder|alt|label)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_TAG = re.compile(r"<[^>]*>", re.S)
# Words that are the same in every language: the game's rule numbers are R1..R19 (no
# two-letter word); the JavaScript that a template names; the time zone UTC.
_TEMPLATE_ALLOW = {"JavaScript", "UTC"}


def scan_template(path: Path, root: Path) -> list[Finding]:
    source = path.read_text(encoding="utf-8")
    name = str(path.relative_to(root))
    findings: list[Finding] = []
    # Inline scripts are JavaScript: scanned as such, then dropped.
    for match in _SCRIPT.finditer(source):
        if "src=" in match.group(1) or 'type="application/json"' in match.group(1):
            continue
        offset = _line_of(source, match.start(2)) - 1
        findings += [Finding(name, f.line + offset, f.text)
                     for f in scan_javascript_source(match.group(2), name)]
    text = _SCRIPT.sub(_blank, source)
    for pattern in _TEMPLATE_DROPS:
        text = pattern.sub(_blank, text)
    for match in _VISIBLE_ATTRIBUTE.finditer(text):
        value = match.group(1) if match.group(1) is not None else match.group(2)
        if _has_words(value, _TEMPLATE_ALLOW):
            findings.append(Finding(name, _line_of(text, match.start()), value.strip()))
    body = _TAG.sub(_blank, text)
    for match in re.finditer(r"[^\n]+", body):
        chunk = match.group(0).strip()
        if _has_words(chunk, _TEMPLATE_ALLOW):
            findings.append(Finding(name, _line_of(body, match.start()), chunk))
    return findings


def _has_words(text: str, allow: set[str]) -> bool:
    return any(word not in allow for word in WORD.findall(text))


# --- JavaScript ----------------------------------------------------------------------
_TRANSLATING_CALL = re.compile(r"\b(?:gettext|ngettext|pgettext)\s*\(\s*$")
_NEXT_ARGUMENT = re.compile(r"\b(?:ngettext|pgettext)\s*\(\s*(?:\"(?:[^\"\\]|\\.)*\"\s*,\s*)+$")
_VISIBLE_SLOT = re.compile(
    r"""(?:\btext\s*:|\btitle\s*:|["']aria-label["']\s*:|\.textContent\s*=|\.title\s*=|"""
    r"""\b(?:toast|flash|announce|showBanner)\s*\(|"""
    r"""setAttribute\(\s*["'](?:aria-label|title|placeholder)["']\s*,)\s*$""")
# A capitalised word that is not part of a hyphenated name ("HX-Request"), or a word
# that ends a sentence.
_PROSE = re.compile(r"(?<![\w-])[A-Z][a-z]+(?![\w-])|[A-Za-z]{2,}[.!?…](?:\s|$)")
# Strings of the code itself: CSS, selectors, markup, URLs, keys, event and frame names.
_TECHNICAL = re.compile(r"^(?:[#.\[<]|/|https?:)")


def _strings(source: str) -> list[tuple[int, str]]:
    """(offset, text) of every string literal, comments and regex literals left out; a
    template literal's ${…} parts become spaces."""
    out: list[tuple[int, str]] = []
    i, n = 0, len(source)
    last_significant = ""
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
            continue
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        if c in "\"'":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            out.append((i, source[i + 1:j]))
            i = j + 1
            last_significant = c
            continue
        if c == "`":
            j, depth, buf = i + 1, 0, []
            while j < n:
                if depth == 0 and source[j] == "`":
                    break
                if source.startswith("${", j):
                    depth += 1
                    buf.append(" ")
                    j += 2
                    continue
                if depth and source[j] == "}":
                    depth -= 1
                    j += 1
                    continue
                if not depth:
                    buf.append(source[j])
                j += 2 if source[j] == "\\" else 1
            out.append((i, "".join(buf)))
            i = j + 1
            last_significant = "`"
            continue
        if c == "/" and (last_significant in "(,=:[!&|?{};" or last_significant == ""):
            j = i + 1
            in_class = False
            while j < n and source[j] != "\n":
                if source[j] == "\\":
                    j += 2
                    continue
                if source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                elif source[j] == "/" and not in_class:
                    break
                j += 1
            i = j + 1
            last_significant = "/"
            continue
        if not c.isspace():
            last_significant = c
        i += 1
    return out


# Key names compared with KeyboardEvent.key: the browser's words, never shown.
_JS_ALLOW = {"End", "Home", "Enter", "Escape", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown",
             "Tab", "Space"}


def scan_javascript_source(source: str, name: str) -> list[Finding]:
    findings = []
    for offset, text in _strings(source):
        if text in _JS_ALLOW:
            continue
        before = source[max(0, offset - 200):offset]
        if _TRANSLATING_CALL.search(before) or _NEXT_ARGUMENT.search(before):
            continue  # the English message itself
        words = WORD.findall(text)
        if not words:
            continue
        visible = bool(_VISIBLE_SLOT.search(before))
        prose = bool(_PROSE.search(text)) and not _TECHNICAL.match(text)
        if visible or prose:
            findings.append(Finding(name, _line_of(source, offset), text))
    return findings


def scan_javascript(path: Path, root: Path) -> list[Finding]:
    return scan_javascript_source(path.read_text(encoding="utf-8"), str(path.relative_to(root)))
