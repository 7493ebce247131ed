"""Static files for production: hashed names, compressed, and ES-module imports rewritten.

The live table is a set of native ES modules (static/js/table/). Django's manifest
storage rewrites ``import ... from "./x.js"`` to the hashed name only when
``support_js_module_import_aggregation`` is on; without it a new deploy's modules would
load their imports by plain, cached names and could mix two versions of the table.
"""

from __future__ import annotations

from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage

OUR_MODULES = "js/"  # static/js/: the site's own modules; third-party files are left as is


class ModuleAwareStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

    def url_converter(self, name: str, hashed_files: Any, template: str | None = None) -> Any:
        """Rewrite references in our own files only: third-party modules (htmx's
        extensions) import names that are not files, which the rewriting would refuse."""
        if name.endswith(".js") and not name.startswith(OUR_MODULES):
            return lambda matchobj: matchobj["matched"]
        return super().url_converter(name, hashed_files, template)
