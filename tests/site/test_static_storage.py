"""Production static files: the table's ES-module imports point at the hashed files."""

from __future__ import annotations

import re

from django.core.management import call_command
from django.test import override_settings


def test_collected_table_modules_import_their_hashed_siblings(tmp_path):
    storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "staticfiles": {"BACKEND": "kozel_site.storage.ModuleAwareStaticFilesStorage"}}
    with override_settings(STORAGES=storages, STATIC_ROOT=str(tmp_path)):
        call_command("collectstatic", "--noinput", verbosity=0)
    entry = next((tmp_path / "js").glob("table.*.js"))
    imports = re.findall(r'from "([^"]+)"', entry.read_text())
    assert imports, "the entry module imports its parts"
    # Every import names a content-hashed file that was collected (no stale cached name).
    for target in imports:
        assert re.search(r"\.[0-9a-f]{12}\.js$", target), target
        assert (entry.parent / target).resolve().exists(), target
