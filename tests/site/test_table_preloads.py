"""The table page preloads exactly the modules static/js/table.js imports, directly or
not: a module missing from the list costs a phone one more round trip before the hand is
drawn (the Lighthouse figures of docs/accessibility.md), a stale one a wasted download.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "static" / "js"
IMPORT = re.compile(r'^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"|^\s*import\s+"(\.[^"]+)"',
                    re.MULTILINE | re.DOTALL)
PRELOAD = re.compile(r"""<link rel="modulepreload" href="\{% static 'js/([^']+)' %\}">""")


def _module_graph(entry: Path) -> set[str]:
    """Every module reachable from ``entry`` by static imports, as paths under static/js/."""
    found: set[str] = set()
    todo = [entry.resolve()]
    while todo:
        path = todo.pop()
        name = path.relative_to(JS).as_posix()
        if name in found:
            continue
        found.add(name)
        for match in IMPORT.finditer(path.read_text()):
            todo.append((path.parent / (match.group(1) or match.group(2))).resolve())
    return found


def test_the_table_preloads_its_whole_module_graph():
    graph = _module_graph(JS / "table.js")
    assert {"table.js", "i18n.js", "table/cards.js", "table/render/side.js"} <= graph
    preloaded = PRELOAD.findall((ROOT / "templates" / "games" / "table.html").read_text())
    assert len(preloaded) == len(set(preloaded)), "a module is preloaded twice"
    assert set(preloaded) == graph
