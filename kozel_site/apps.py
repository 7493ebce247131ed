from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The site's glue: registers its system checks and URL converters."""

    name = "kozel_site"

    def ready(self) -> None:
        from kozel_site import (
            checks,  # noqa: F401  (registers system checks)
            ids,
        )

        ids.register()  # <id:…> and <wsid:…>, before any URL conf is read
