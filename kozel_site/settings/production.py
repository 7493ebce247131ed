"""Production settings: base plus the security switches. Secrets have no default."""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

for _required in ("SECRET_KEY", "REDIS_URL", "DATABASE_URL"):
    if not os.environ.get(_required):
        raise ImproperlyConfigured(
            f"{_required} must be set in production (kozel_site.settings.production)."
        )
os.environ.setdefault("DEBUG", "false")

from .base import *  # noqa: E402,F403
from .base import DEBUG  # noqa: E402

if DEBUG:
    raise ImproperlyConfigured("DEBUG must be off in production.")

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = True
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "kozel_site.storage.ModuleAwareStaticFilesStorage"},
}
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
WHITENOISE_USE_FINDERS = False
WHITENOISE_AUTOREFRESH = False
