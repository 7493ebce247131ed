"""Find user-visible English outside translation calls, in templates and in
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


# --- Python --------------------------------------------------------------------------
# The places where Python code hands English to a person: a refusal raised or
# built (``raise PermissionDeniedError("...")``, ``ValidationError("...")``,
# ``form.add_error(None, "...")``), a flash message (``messages.error(request, "...")``),
# a form's or model's ``label=``/``help_text=``/``verbose_name=``… (and a visible form
# field with no label at all: Django would show its English name), a choice's label
# (``PENDING = "pending", "Pending"``, or no label, when Django makes one from the name),
# and an email's ``subject``/``body``. The literal must be inside gettext (``_``); an
# f-string is flagged inside gettext too (its text is not a fixed message id).
# Exceptions that programmers or operators read are left alone: ValueError & co., system
# checks (``Error(...)``), the moderation log's guard against writes (LogImmutableError)
# and the pairer's PairingError (its text goes into the audit log as the worker's reason).
import ast  # noqa: E402 - the Python part of the scanner, kept apart from the rest

_PROGRAMMER_ERRORS = {"ValueError", "TypeError", "KeyError", "RuntimeError", "AssertionError",
                      "LookupError", "AttributeError", "NotImplementedError",
                      "ImproperlyConfigured", "IndexError", "OSError", "ImportError",
                      "Error", "LogImmutableError", "PairingError"}
_TRANSLATORS = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext",
                "pgettext_lazy", "npgettext", "npgettext_lazy", "_lazy"}
_VISIBLE_KEYWORDS = {"label", "help_text", "verbose_name", "verbose_name_plural",
                     "empty_label", "subject", "body", "message"}
_VISIBLE_NAMES = {"subject", "body"}
_MESSAGE_LEVELS = {"debug", "info", "success", "warning", "error", "add_message"}
_CHOICES_BASES = {"TextChoices", "IntegerChoices", "Choices"}


def _callee(node: ast.AST) -> str:
    """The last name of what is called: ``errors.PermissionDeniedError`` -> that."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _english(node: ast.AST | None) -> str | None:
    """The text of a literal (or f-string) with a word in it, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values
                       if isinstance(v, ast.Constant) and isinstance(v.value, str))
    elif isinstance(node, ast.BinOp):  # "a" % x, "a" + "b"
        return _english(node.left) or _english(node.right)
    else:
        return None
    return text if WORD.search(text) else None


class _PythonScan(ast.NodeVisitor):
    def __init__(self, name: str) -> None:
        self.name = name
        self.findings: list[Finding] = []

    def _flag(self, node: ast.AST, text: str) -> None:
        self.findings.append(Finding(self.name, getattr(node, "lineno", 0), text))

    def _check(self, node: ast.AST | None) -> None:
        text = _english(node)
        if text is not None and node is not None:
            self._flag(node, text)

    def visit_Call(self, node: ast.Call) -> None:
        name = _callee(node.func)
        if name in _TRANSLATORS:
            for arg in node.args:
                if isinstance(arg, ast.JoinedStr):
                    self._flag(arg, "f-string inside gettext: " + (_english(arg) or ""))
            return  # the English message id itself: what is meant to be English
        if (name.endswith("Error") or name == "ValidationError") and name not in \
                _PROGRAMMER_ERRORS and node.args:
            self._check(node.args[0])
        if name == "add_error" and len(node.args) >= 2:
            self._check(node.args[1])
        if (isinstance(node.func, ast.Attribute) and name in _MESSAGE_LEVELS
                and _callee(node.func.value) == "messages"):
            for arg in node.args[1:]:
                self._check(arg)
        if name in {"send_mail", "EmailMessage", "EmailMultiAlternatives"}:
            for arg in node.args[:2]:
                self._check(arg)
        for keyword in node.keywords:
            if keyword.arg in _VISIBLE_KEYWORDS:
                self._check(keyword.value)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(isinstance(t, ast.Name) and t.id in _VISIBLE_NAMES for t in node.targets):
            self._check(node.value)
        self.generic_visit(node)

    def _check_form_fields(self, node: ast.ClassDef) -> None:
        """A form field without ``label=`` shows Django's English name for it ("Starts
        at"), unless it is hidden."""
        for item in node.body:
            if not (isinstance(item, ast.Assign) and isinstance(item.value, ast.Call)
                    and _callee(item.value.func).endswith("Field")
                    and isinstance(item.targets[0], ast.Name)):
                continue
            keywords = {k.arg: k.value for k in item.value.keywords}
            if "label" in keywords or "HiddenInput" in ast.dump(keywords.get("widget",
                                                                             ast.Constant(0))):
                continue
            self._flag(item, f"{item.targets[0].id}: a form field without a label")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if any(_callee(base).endswith("Form") for base in node.bases):
            self._check_form_fields(node)
        if any(_callee(base) in _CHOICES_BASES for base in node.bases):
            for item in node.body:
                if not (isinstance(item, ast.Assign) and len(item.targets) == 1
                        and isinstance(item.targets[0], ast.Name)
                        and not item.targets[0].id.startswith("_")):
                    continue
                value = item.value
                if isinstance(value, ast.Tuple) and len(value.elts) >= 2:
                    self._check(value.elts[-1])
                elif isinstance(value, ast.Constant):
                    self._flag(item, f"{item.targets[0].id}: a choice without a label")
        self.generic_visit(node)


def scan_python_source(source: str, name: str) -> list[Finding]:
    scan = _PythonScan(name)
    scan.visit(ast.parse(source, filename=name))
    return scan.findings


def scan_python(path: Path, root: Path) -> list[Finding]:
    return scan_python_source(path.read_text(encoding="utf-8"), str(path.relative_to(root)))
