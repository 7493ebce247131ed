"""The live table's hand-written ES modules parse (there is no build step to catch it).

Uses ``node --check`` on a ``.mjs`` copy of each module (parsed as an ES module); skipped
where node is not installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

JS_DIR = Path(__file__).resolve().parents[2] / "static" / "js"
MODULES = sorted(JS_DIR.rglob("*.js"))
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(JS_DIR)))
def test_module_parses(module: Path, tmp_path: Path) -> None:
    copy = tmp_path / (module.stem + ".mjs")
    copy.write_text(module.read_text(encoding="utf-8"), encoding="utf-8")
    result = subprocess.run([NODE, "--check", str(copy)], capture_output=True, text=True,
                            timeout=30, check=False)
    assert result.returncode == 0, result.stderr


def test_the_table_modules_exist_and_import_only_relative_modules() -> None:
    names = {str(p.relative_to(JS_DIR)) for p in MODULES}
    assert {"table.js", "replay.js", "table/cards.js", "table/legality.js", "table/state.js",
            "table/socket.js", "table/frames.js", "table/input.js", "table/render.js"} <= names
    for module in MODULES:
        for spec in re.findall(r'^\s*import[^"\']*["\']([^"\']+)["\']', module.read_text(),
                               flags=re.MULTILINE):
            # No CDN, no bare package names: only our own files, by relative path.
            assert spec.startswith(("./", "../")) and spec.endswith(".js"), (module, spec)
            target = (module.parent / spec).resolve()
            assert target.is_file() and JS_DIR in target.parents, (module, spec)


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(JS_DIR)))
def test_each_module_is_small_and_says_its_job(module: Path) -> None:
    """One job per module, stated in a header comment; none over ~300 lines."""
    text = module.read_text(encoding="utf-8")
    assert text.startswith("// "), module
    assert len(text.splitlines()) <= 300, module
