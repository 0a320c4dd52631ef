"""Shared settings. The environment variables read here:

- ``DATABASE_URL``: a PostgreSQL (or other) database as a URL; without it the
  site uses SQLite in ``var/db.sqlite3`` under the project.
- ``KLAVERJAS_DATA_DIR``: where the SQLite file and uploads live (default ``var/``).
- ``KLAVERJAS_STATIC_ROOT``: where ``collectstatic`` writes the static files that
  ``make lan`` serves (default ``staticfiles/`` in the project).
- ``DJANGO_TRUSTED_PROXY_COUNT``: how many proxies in front of the site append
  the client's address to ``X-Forwarded-For`` (default 0: the header is ignored).
- ``DJANGO_EMAIL_URL`` (``smtp://user:password@host:587?tls=1``, ``smtps://`` for
  SSL) or ``DJANGO_EMAIL_HOST`` with ``DJANGO_EMAIL_PORT``, ``DJANGO_EMAIL_HOST_USER``,
  ``DJANGO_EMAIL_HOST_PASSWORD``, ``DJANGO_EMAIL_USE_TLS``/``_SSL``; and
  ``DJANGO_DEFAULT_FROM_EMAIL``. Without any, password reset says to ask the club's
  administrator instead of pretending to send.
- ``DJANGO_CLUB_CREATION``: who may start a club on the site: ``operators`` (the
  default: staff and superusers only) or ``anyone`` (a federation hosting clubs:
  a sign-up page lets anyone make an account and start one).
- ``DJANGO_DATABASE_REPLICA_URL``: a read-only replica of ``DATABASE_URL`` (streaming
  replication); anonymous visitors' reads of the public pages go there
  (``config.routers``). Without it, everything reads from the primary.
- ``DJANGO_DB_POOLING`` (``pgbouncer`` or ``pool``) and ``DJANGO_DB_POOL_SIZE``: how
  PostgreSQL's connections are shared when many boxes use it (see ``_pooled``).
- ``DJANGO_CACHE_URL``: one cache for every box of the site (``redis://host:port/db``):
  the brakes count there, so several boxes count together. Without it, the brakes count
  in a file cache under the data folder (one machine, every server process on it).
"""

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent
DATA_DIR = Path(os.environ.get("KLAVERJAS_DATA_DIR", BASE_DIR / "var"))

DEBUG = False
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
ALLOWED_HOSTS: list[str] = []

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "csp",
    "axes",
    "clubs",
    "scoring",
    "tournaments",
    "leagues",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files first: nothing before it touches the database.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.middleware.permissions_policy",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns a login refused by the brake into the locked-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # common has no models and is no app: its template filters are named here.
            "libraries": {
                "catalog": "common.templatetags.catalog",
                "dates": "common.templatetags.dates",
            },
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"


def sqlite_database(path):
    """SQLite tuned for many tables entering scores at once.

    WAL lets readers carry on while one writer writes; ``transaction_mode``
    IMMEDIATE takes the write lock at BEGIN, so concurrent writers queue for
    up to ``timeout`` seconds instead of failing with "database is locked"
    half-way through a transaction.
    """
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(path),
        "OPTIONS": {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": (
                "PRAGMA journal_mode=WAL;"
                "PRAGMA synchronous=NORMAL;"
                "PRAGMA foreign_keys=ON;"
                "PRAGMA busy_timeout=20000;"
            ),
        },
    }


def env_int(name, default, *, unit=""):
    """A whole number from the environment; a clear error for anything else."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isascii() or not raw.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number{unit}, not {raw!r}.")
    return int(raw)


def database_from_url(url):
    """A database from ``DATABASE_URL``; a clear error when it cannot be used."""
    try:
        import dj_database_url
    except ImportError as exc:
        raise ImproperlyConfigured(
            "DATABASE_URL is set but dj-database-url is not installed; "
            "install the PostgreSQL extra: pip install '.[postgres]'"
        ) from exc
    try:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from exc
    if not config.get("ENGINE"):
        raise ImproperlyConfigured("DATABASE_URL names no known database engine.")
    if "sqlite" in config["ENGINE"]:
        return sqlite_database(config["NAME"])
    if "postgresql" in config["ENGINE"]:
        config.setdefault("OPTIONS", {})["connect_timeout"] = 5
        _pooled(config, os.environ.get("DJANGO_DB_POOLING", "").strip().lower())
    return config


def _pooled(config, pooling):
    """PostgreSQL's connections when many boxes share it (``DJANGO_DB_POOLING``).

    Every gunicorn thread keeps a connection of its own; 8 boxes of 16 threads are 128,
    above PostgreSQL's default ``max_connections`` of 100. Either:

    - ``pgbouncer``: ``DATABASE_URL`` names a PgBouncer in transaction pooling, which
      lends a server connection for one transaction at a time. Nothing may then outlive
      a transaction on the server: no server-side cursors (``.iterator()`` reads in
      chunks on the client instead; Django's documented setting). Django binds query
      parameters on the client (psycopg's client-side cursors), so no prepared
      statement is left on a server connection, and every lock the site takes is a
      transaction's (``select_for_update``, ``pg_advisory_xact_lock``), so it holds.
    - ``pool``: Django's own pool (psycopg_pool) in each process, of
      ``DJANGO_DB_POOL_SIZE`` connections (default 4) shared by its threads; the
      connections are kept by the pool, not per request (``CONN_MAX_AGE`` 0).
    """
    if not pooling:
        return
    if pooling == "pgbouncer":
        config["DISABLE_SERVER_SIDE_CURSORS"] = True
    elif pooling == "pool":
        size = env_int("DJANGO_DB_POOL_SIZE", 4, unit=" of connections")
        config["CONN_MAX_AGE"] = 0
        config["CONN_HEALTH_CHECKS"] = False
        config["OPTIONS"]["pool"] = {"min_size": 1, "max_size": max(size, 1), "timeout": 10}
    else:
        raise ImproperlyConfigured(f"DJANGO_DB_POOLING must be pgbouncer or pool, not {pooling!r}.")


if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": database_from_url(os.environ["DATABASE_URL"])}
else:
    DATABASES = {"default": sqlite_database(DATA_DIR / "db.sqlite3")}
# A replica of that PostgreSQL for the public pages' reads (config/routers.py); without
# one, every read is the primary's.
if os.environ.get("DJANGO_DATABASE_REPLICA_URL", "").strip():
    if not os.environ.get("DATABASE_URL"):
        raise ImproperlyConfigured(
            "DJANGO_DATABASE_REPLICA_URL is set but DATABASE_URL is not: a replica "
            "copies the site's own database server (PostgreSQL)."
        )
    DATABASES["replica"] = database_from_url(os.environ["DJANGO_DATABASE_REPLICA_URL"].strip())
DATABASE_ROUTERS = ["config.routers.ReplicaRouter"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    # First: refuses a password check once a username or an address has failed too often.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "clubs:home"
LOGOUT_REDIRECT_URL = "clubs:home"

# Dutch first: clubs write in Dutch; English for guests and foreign members.
LANGUAGE_CODE = "nl"
LANGUAGES = [("nl", _("Dutch")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Amsterdam"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("KLAVERJAS_STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

DJANGO_TABLES2_TEMPLATE = "django_tables2/semantic.html"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}


# --- Content-Security-Policy (django-csp) ---------------------------------------------------
# Only the site's own files: no inline script or style (templates keep none), nothing
# from another site, no plugins, no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}


# --- Logins: django-axes, tuned in clubs/auth.py -------------------------------------------
# A brake on guessing passwords: 5 failures per username or 20 per address
# (a club's hall shares one address) lock that username or address for 15
# minutes after the last failure. Every login form, the admin's included.
TRUSTED_PROXY_COUNT = env_int("DJANGO_TRUSTED_PROXY_COUNT", 0)
LOGIN_FAILURE_LIMITS = {"username": 5, "ip_address": 20}
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMITS["username"]
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_USERNAME_CALLABLE = "clubs.auth.normalised_username"
AXES_CLIENT_IP_CALLABLE = "clubs.auth.client_address"
AXES_HANDLER = "clubs.auth.LoginHandler"
AXES_LOCKOUT_CALLABLE = "clubs.auth.lockout_response"
AXES_ENABLE_ACCESS_FAILURE_LOG = False
AXES_VERBOSE = False
# How long the login log (username, address and browser of each login) is kept.
LOGIN_LOG_DAYS = env_int("DJANGO_LOGIN_LOG_DAYS", 30, unit=" of days")


# --- Caches ----------------------------------------------------------------------------------
def cache_from_url(url: str, *, prefix: str) -> dict:
    """One of ``CACHES`` from ``DJANGO_CACHE_URL``: ``redis://host:port/db`` (or
    ``rediss://``, a password as ``redis://:password@host``) is Django's own Redis cache,
    ``file:///folder`` a file cache in that folder; anything else is a clear error."""
    parts = urlsplit(url)
    if parts.scheme in ("redis", "rediss") and parts.hostname:
        return {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
        }
    if parts.scheme == "file" and parts.path.startswith("/") and not parts.netloc:
        return {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(Path(parts.path) / prefix),
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    # Shown without what stands before an "@" (a password there would reach the logs).
    shown = f"{parts.scheme}:…@{url.rpartition('@')[2]}" if "@" in url else url
    raise ImproperlyConfigured(
        "DJANGO_CACHE_URL must be redis://host:port/db, rediss://host:port/db or "
        f"file:///folder, not {shown!r}."
    )


# Small counters: the brake on password resets, sign-ups, new clubs and PINs
# (``clubs.auth.throttle_allowed``). A file cache by default, so every server process on
# the machine shares the counts; room for many keys, so that a flood of new ones does
# not push an address's count out. Several boxes share one cache: DJANGO_CACHE_URL
# (Redis), which then holds every cache of the site.
CACHE_URL = os.environ.get("DJANGO_CACHE_URL", "").strip()
if CACHE_URL:
    CACHES = {
        "default": cache_from_url(CACHE_URL, prefix="klaverjas"),
        "throttle": cache_from_url(CACHE_URL, prefix="klaverjas-throttle"),
    }
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "throttle": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(DATA_DIR / "throttle"),
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        },
    }
# Per window, counted from the first request; the request that reaches a limit
# starts the window again, so a refusal lasts the whole window.
PASSWORD_RESET_LIMITS = {"ip_address": 10, "email": 3}
PASSWORD_RESET_WINDOW_SECONDS = 3600
SIGNUP_LIMITS = {"ip_address": 5}
SIGNUP_WINDOW_SECONDS = 3600
CLUB_START_LIMITS = {"ip_address": 5, "user": 3}  # the site's operators have none
CLUB_START_WINDOW_SECONDS = 24 * 3600
# Club archives read (each up to 20,000 rows checked), refused or not, per day.
ARCHIVE_IMPORT_LIMITS = {"ip_address": 20, "user": 10}  # the site's operators have none
ARCHIVE_IMPORT_WINDOW_SECONDS = 24 * 3600


# --- E-mail (password reset) -----------------------------------------------------------------
def email_from_url(url):
    """Django's e-mail settings from ``smtp://user:password@host:port?tls=1`` (or ``smtps://``)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ImproperlyConfigured(
            "DJANGO_EMAIL_URL must look like smtp://user:password@host:587?tls=1 "
            "(or smtps://... for SSL)."
        )
    try:
        port = parts.port
    except ValueError as exc:
        raise ImproperlyConfigured(f"DJANGO_EMAIL_URL has a bad port: {exc}.") from None
    options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    use_ssl = parts.scheme == "smtps" or options.get("ssl") in ("1", "true", "yes")
    use_tls = options.get("tls") in ("1", "true", "yes")
    if use_ssl and use_tls:
        raise ImproperlyConfigured("DJANGO_EMAIL_URL: choose tls or ssl, not both.")
    return {
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port or (465 if use_ssl else 587 if use_tls else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": use_tls,
        "EMAIL_USE_SSL": use_ssl,
    }


def _flag(name):
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


if os.environ.get("DJANGO_EMAIL_URL", "").strip():
    globals().update(email_from_url(os.environ["DJANGO_EMAIL_URL"].strip()))
    EMAIL_CONFIGURED = True
elif os.environ.get("DJANGO_EMAIL_HOST", "").strip():
    EMAIL_HOST = os.environ["DJANGO_EMAIL_HOST"].strip()
    EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 25)
    EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = _flag("DJANGO_EMAIL_USE_TLS")
    EMAIL_USE_SSL = _flag("DJANGO_EMAIL_USE_SSL")
    EMAIL_CONFIGURED = True
else:
    EMAIL_CONFIGURED = False
if os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "").strip():
    DEFAULT_FROM_EMAIL = os.environ["DJANGO_DEFAULT_FROM_EMAIL"].strip()
EMAIL_TIMEOUT = 10


# --- Who may start a club: the site's operators, or anyone who signs up -------------------
CLUB_CREATION = os.environ.get("DJANGO_CLUB_CREATION", "operators").strip() or "operators"
if CLUB_CREATION not in ("operators", "anyone"):
    raise ImproperlyConfigured("DJANGO_CLUB_CREATION must be 'operators' or 'anyone'.")
