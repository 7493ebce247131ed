"""Base settings, driven by environment variables with embedded defaults.

With nothing set, the site runs on SQLite and an embedded real Redis server, so that
``make run`` works on a bare machine. Production sets ``DATABASE_URL``, ``REDIS_URL``
and ``SECRET_KEY`` (see ``production.py``).
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url

from kozel_site import embedded_redis
from kozel_site.env import env_bool, env_choice, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent
# Runtime files of the embedded defaults (SQLite file, beat schedule); git-ignored.
RUN_DIR = Path(env_str("KOZEL_RUN_DIR", str(BASE_DIR / ".run")) or BASE_DIR / ".run")
RUN_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", True)
# A development key only; production.py refuses to start without a real one.
SECRET_KEY = env_str("SECRET_KEY", "dev-only-insecure-key-change-me") or ""
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "allauth",
    "allauth.account",
    "accounts",
    "accounts.moderation",  # reports, sanctions, the moderation log
    "accounts.social",  # follows, invitations, notifications, privacy
    "games",
    "games.ratings",
    "games.queue",
    "games.reviews",  # the strong bot's reviews of finished games
    "games.tournaments",  # clubs and club tournaments
    "kozel_site",  # system checks of the patched libraries' versions
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header on every response (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Development without KOZEL_SITE_URL: e-mails link to the address the site is used at.
    "kozel_site.site_url.RememberOriginMiddleware",
    # A signed-in user's pages speak the profile's language.
    "accounts.language.PreferredLanguageMiddleware",
    # A suspended account sees only its notice and the appeal form.
    "accounts.moderation.middleware.SuspensionMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "kozel_site.urls"
ASGI_APPLICATION = "kozel_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.live_game",
                "accounts.moderation.context_processors.sanctions",
                "games.tournaments.context_processors.round_banner",
                "accounts.social.context_processors.notifications",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------
# PostgreSQL when DATABASE_URL is set; otherwise SQLite tuned for several processes
# (daphne + Celery): WAL, a busy timeout and IMMEDIATE transactions, which took
# "database is locked" errors under concurrent writers to none.
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(RUN_DIR / "db.sqlite3"),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery ----------------------------------------------
# When REDIS_URL is unset an embedded real redis-server is started and REDIS_URL is
# exported for child processes (kozel_site/embedded_redis.py).
REDIS_URL = embedded_redis.ensure_redis_url(RUN_DIR / "redis.url")
REDIS_PREFIX = env_str("KOZEL_REDIS_PREFIX", "kozel") or "kozel"

# channels-redis' pub/sub layer by default: one PUBLISH per group, one reader per process.
# KOZEL_CHANNEL_LAYER=redis selects its list-based core layer instead, whose receive pops
# one message per Redis round trip per process, one after the other, so that at many
# tables the broadcasts queue there (docs/performance.md). Either is at-most-once;
# clients resync on a version gap, and a socket resyncs after a Redis restart.
CHANNEL_LAYER_KIND = env_choice("KOZEL_CHANNEL_LAYER", "pubsub", ("pubsub", "redis"))
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": ("channels_redis.pubsub.RedisPubSubChannelLayer"
                    if CHANNEL_LAYER_KIND != "redis" else "channels_redis.core.RedisChannelLayer"),
        "CONFIG": {
            # redis-py 8 defaults to a 5 s socket_timeout, which kills channels-redis'
            # blocking receive on an idle consumer.
            # redis-py 8 also caps a connection pool at 100 connections by default, and
            # channels-redis takes one per group_add/send in flight: 100 tables (400
            # sockets on 2 processes) raised "Too many connections" in consumers, which
            # closed with 1011.
            "hosts": [{"address": REDIS_URL, "socket_timeout": None,
                       "max_connections": env_int("KOZEL_CHANNEL_LAYER_MAX_CONNECTIONS",
                                                  2000, minimum=10)}],
            "prefix": f"{REDIS_PREFIX}:ch",
            "capacity": 500,
            "expiry": 60,
        },
    }
}

# allauth's rate limits live in the cache: it must be shared by every web process.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"{REDIS_PREFIX}:cache",
    }
}
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# The broker is Redis by default (the embedded one under `make run`); production may point
# it at RabbitMQ instead (KOZEL_BROKER_URL=amqp://user:pass@host:5672//), which gives a
# killed worker's tasks back at once instead of after the visibility timeout
# (docs/operations.md). Results and everything else stay on Redis.
CELERY_BROKER_URL = env_str("KOZEL_BROKER_URL", "") or REDIS_URL
BROKER_IS_REDIS = CELERY_BROKER_URL.startswith(("redis://", "rediss://", "unix://"))
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_DEFAULT_QUEUE = env_str("KOZEL_CELERY_QUEUE", "kozel") or "kozel"
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 50
CELERY_RESULT_EXPIRES = 600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# A killed worker's unacked tasks come back after the visibility timeout (kombu's default
# restore sweep is slow); the beat sweep moves their tables on within seconds anyway.
# The timeout is above the longest turn clock (60 s): on Redis a countdown longer than
# it is delivered again before it is due, once per timeout, and at 100 tables with 60 s
# clocks those copies swamped the workers. Every delayed task stays idempotent: the
# services compare a stored version.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("KOZEL_CELERY_VISIBILITY_TIMEOUT", 90, minimum=5),
    "unacked_restore_interval": 2,
    "unacked_restore_throttle": 0.5,
    "global_keyprefix": f"{REDIS_PREFIX}:celery:",
} if BROKER_IS_REDIS else {}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"global_keyprefix": f"{REDIS_PREFIX}:celery:"}
CELERY_IMPORTS = ["kozel_site.tasks"]
CELERY_BEAT_SCHEDULE_FILENAME = str(RUN_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # The backstop that keeps every table moving when a task message is lost (a killed
    # worker's tasks come back only after the visibility timeout on Redis): every second,
    # so that such a table moves again within seconds (games/services/sweep.py).
    "games-sweep": {"task": "games.sweep",
                    "schedule": env_float("KOZEL_SWEEP_SECONDS", 1.0, minimum=0.5)},
    # Ranked matchmaking runs here (and on a kick at each enqueue), never in a request.
    "queue-match": {"task": "queue.match", "options": {"expires": 2},
                    "schedule": env_float("KOZEL_QUEUE_MATCH_SECONDS", 2.0, minimum=0.5)},
    # Rates finished series whose rate_series_task was lost.
    "ratings-sweep": {"task": "ratings.sweep", "schedule": 60.0},
    # Removes guests nobody used for KOZEL_GUEST_MAX_AGE_DAYS (accounts/guests.py).
    "guests-purge": {"task": "accounts.purge_guests", "schedule": 3600.0},
    # Abandonment escalation for ranked series whose task was lost (idempotent).
    "moderation-sweep": {"task": "moderation.sweep", "schedule": 60.0},
    # Tournaments: scheduled starts, check-in deadlines, round time limits and rounds due
    # after their break, when the countdown task that should have done it was lost.
    "tournaments-tick": {"task": "tournaments.tick", "options": {"expires": 5},
                         "schedule": env_float("KOZEL_TOURNAMENT_TICK_SECONDS", 5.0,
                                               minimum=1.0)},
}

# --- Auth (django-allauth 65) ---------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
# Profiles on sign-up, reserved "deleted-" usernames (accounts/adapter.py).
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
# Sign-up never says whether an address is taken: it always shows "check your email",
# and the owner of a taken address gets account/email/account_already_exists instead of
# a confirmation link (allauth's default, written out because we rely on it).
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CHANGE_EMAIL = True
# Rate limits, chosen deliberately. "login_failed": 10 failures a minute from
# one client address over all accounts, and 5 in 5 minutes for one account *from one
# client*: the adapter makes the key "login|client address" (accounts/adapter.py), so a
# stranger guessing someone's password locks out only themselves, never the owner.
# Behind a proxy, KOZEL_TRUSTED_PROXY_COUNT must say how many (production.py), or every
# client would share the proxy's address.
ACCOUNT_RATE_LIMITS = {
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/h/ip",
    "confirm_email": "1/3m/key",
    "reset_password": "20/m/ip,5/m/key",
}
LOGIN_REDIRECT_URL = "/"
# Guests (accounts/guests.py): "Play now" without an account. At most this many new
# guests per client address an hour; a guest that never played is deleted this many days
# after its last visit.
KOZEL_GUEST_CREATIONS_PER_HOUR = env_int("KOZEL_GUEST_CREATIONS_PER_HOUR", 10, minimum=1)
KOZEL_GUEST_MAX_AGE_DAYS = env_int("KOZEL_GUEST_MAX_AGE_DAYS", 7, minimum=1)
LOGIN_URL = "account_login"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Email ----------------------------------------------------------------------------
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Kozel <noreply@localhost>")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "") or ""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
# Where e-mails and notifications link to (kozel_site/site_url.py): scheme and host, e.g.
# https://kozel.example. Production requires it; development derives it when unset.
KOZEL_SITE_URL = (env_str("KOZEL_SITE_URL", "") or "").strip().rstrip("/")
KOZEL_SITE_URL_REQUIRED = False
# The name every e-mail's subject begins with.
KOZEL_SITE_NAME = env_str("KOZEL_SITE_NAME", "Kozel") or "Kozel"

# --- I18n, static ------------------------------------------------------------
# English is the source language. Each language is named in itself (the footer's switcher
# and the settings page list them so). The catalogs are locale/<code>/LC_MESSAGES/
# django.po (templates, Python) and djangojs.po (the table's JavaScript, served by
# /jsi18n/); the game's own words per language live in locale/glossary.toml (README,
# Translating). A visitor gets the language cookie (the switcher), else Accept-Language;
# a signed-in user the profile's preferred_language (accounts/language.py). URLs carry no
# language prefix.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ru", "Русский"),
    ("eu", "Euskara"),
    ("mk", "Македонски"),
    ("id", "Bahasa Indonesia"),
    ("et", "Eesti"),
    ("sq", "Shqip"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Dates and numbers follow the active locale; our own formats (kozel_site/formats/) only
# keep English dates day-first, as the site always wrote them.
FORMAT_MODULE_PATH = ["kozel_site.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(RUN_DIR / "staticfiles")) or RUN_DIR)

# --- Game tunables (read through games/conf.py) ---------------------------------------
KOZEL_BOT_DELAY_SECONDS = env_float("KOZEL_BOT_DELAY_SECONDS", 0.8, minimum=0)
KOZEL_NEXT_GAME_DELAY_SECONDS = env_float("KOZEL_NEXT_GAME_DELAY_SECONDS", 3.0, minimum=0)
# A table socket refreshes its presence entry this often; it expires after 3 missed beats.
KOZEL_PRESENCE_HEARTBEAT_SECONDS = env_float("KOZEL_PRESENCE_HEARTBEAT_SECONDS", 10.0, minimum=0.2)
# Threads of a web process that run its sockets' database calls (kozel_site/ws.py).
KOZEL_WS_DATABASE_THREADS = env_int("KOZEL_WS_DATABASE_THREADS", 6, minimum=1)
KOZEL_HEALTHZ_CELERY_TIMEOUT = env_float("KOZEL_HEALTHZ_CELERY_TIMEOUT", 3.0, minimum=0.1)
KOZEL_TEST_HOOKS = False
# Moderation governs play through the hooks games declares (games/policy.py); its own
# tunables (KOZEL_MODERATION = {...}) default in accounts/moderation/conf.py.
KOZEL_POLICY = "accounts.moderation.policy.ModerationPolicy"
# Ratings (KOZEL_RATING = {...}) and ranked matchmaking (KOZEL_QUEUE = {...}) take their
# defaults from games/ratings/conf.py and games/queue/conf.py, which document every key:
# set only what you change.

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# WhiteNoise serves static files straight from the app folders outside production
# (daphne has no static handler); production.py serves the collected, hashed files.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# --- Content-Security-Policy (django-csp 4) ----------------------------------
# Scripts, styles, images, fonts and connections (fetch and the WebSockets: CSP Level 3
# matches ws:/wss: of the same host with 'self') only from this site; no inline script
# or style anywhere (JSON data blocks from json_script are data, not script); no plugins,
# no framing, forms post only here. Set KOZEL_CSP_REPORT_ONLY=true to try a change safely.
from csp.constants import NONE, SELF  # noqa: E402

_CSP_DIRECTIVES = {
    "default-src": [SELF],
    "script-src": [SELF],
    "style-src": [SELF],
    "img-src": [SELF, "data:"],
    "font-src": [SELF],
    "connect-src": [SELF],
    "object-src": [NONE],
    "base-uri": [SELF],
    "form-action": [SELF],
    "frame-ancestors": [NONE],
}
if env_bool("KOZEL_CSP_REPORT_ONLY", False):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": _CSP_DIRECTIVES}
else:
    CONTENT_SECURITY_POLICY = {"DIRECTIVES": _CSP_DIRECTIVES}
