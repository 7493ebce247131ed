"""Production settings: base plus the security switches. Secrets have no default."""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

for _required in ("SECRET_KEY", "REDIS_URL", "DATABASE_URL", "ALLOWED_HOSTS"):
    if not os.environ.get(_required, "").strip():
        raise ImproperlyConfigured(
            f"{_required} must be set in production (kozel_site.settings.production)."
        )
os.environ.setdefault("DEBUG", "false")

# Known development and placeholder keys, and the markers of generated insecure ones.
_WEAK_MARKERS = ("dev-only", "insecure", "change-me", "changeme", "replace-me", "example")
_MIN_KEY_LENGTH = 50
_MIN_KEY_CHARACTERS = 10


def weak_secret_key(key: str) -> str | None:
    """Why ``key`` is too weak for production, or None."""
    if len(key) < _MIN_KEY_LENGTH:
        return f"it has {len(key)} characters; use at least {_MIN_KEY_LENGTH}"
    if len(set(key)) < _MIN_KEY_CHARACTERS:
        return f"it uses fewer than {_MIN_KEY_CHARACTERS} different characters"
    lowered = key.lower()
    for marker in _WEAK_MARKERS:
        if marker in lowered:
            return f"it contains {marker!r}, the mark of a development or placeholder key"
    return None


_weak = weak_secret_key(os.environ["SECRET_KEY"].strip())
if _weak:
    raise ImproperlyConfigured(
        f"SECRET_KEY is too weak for production: {_weak}. Generate one with: python -c "
        "'import secrets; print(secrets.token_urlsafe(64))'")
if "*" in [h.strip() for h in os.environ["ALLOWED_HOSTS"].split(",")]:
    raise ImproperlyConfigured("ALLOWED_HOSTS must name the site's hosts in production, not '*'.")

from .base import *  # noqa: E402,F403
from .base import DEBUG, env_int  # noqa: E402

if DEBUG:
    raise ImproperlyConfigured("DEBUG must be off in production.")

# Production runs behind a proxy (SECURE_PROXY_SSL_HEADER below): allauth's rate limits
# must see the client's address, the last of this many X-Forwarded-For hops.
ALLAUTH_TRUSTED_PROXY_COUNT = env_int("KOZEL_TRUSTED_PROXY_COUNT", 1, minimum=0)

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = True
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True  # the language cookie too: every cookie of the site is Secure
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "kozel_site.storage.ModuleAwareStaticFilesStorage"},
}
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
WHITENOISE_USE_FINDERS = False
WHITENOISE_AUTOREFRESH = False
# E-mails and notifications need the site's real address (system check kozel.E020).
KOZEL_SITE_URL_REQUIRED = True
