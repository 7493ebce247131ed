"""``/jsi18n/``: the JavaScript's translations, as Django's JSON catalog.

The table's modules load it once (static/js/i18n.js, no build step): the ``djangojs``
catalog of the language in ``?l=`` (the page's own, so the URL alone decides the content
and browsers may cache it), its plural rule and formats, plus the card words of
locale/glossary.toml (``cards``).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.decorators import method_decorator
from django.views.decorators.cache import cache_control
from django.views.i18n import JSONCatalog

from accounts.language import supported
from kozel_site import glossary


@method_decorator(cache_control(max_age=600), name="dispatch")
class CatalogView(JSONCatalog):
    """Django's ``JSONCatalog`` for the ``djangojs`` domain, with the glossary's card words."""

    domain = "djangojs"
    # Only our own catalogs (LOCALE_PATHS, always read): not the admin's calendar words.
    # "games" has no locale folder of its own; naming it keeps Django from adding every app's.
    packages = ["games"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        code = supported(request.GET.get("l")) or translation.get_language()
        with translation.override(code):
            return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["language"] = translation.get_language()
        context["cards"] = glossary.for_js()
        return context
