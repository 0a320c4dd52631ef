"""Shared settings. The environment variables read here:

- ``DATABASE_URL``: a PostgreSQL (or other) database as a URL; without it the
  site uses SQLite in ``var/db.sqlite3`` under the project.
- ``KLAVERJAS_DATA_DIR``: where the SQLite file and uploads live (default ``var/``).
"""

import os
from pathlib import Path

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
    "clubs",
    "scoring",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
    return config


if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": database_from_url(os.environ["DATABASE_URL"])}
else:
    DATABASES = {"default": sqlite_database(DATA_DIR / "db.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
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
STATIC_ROOT = BASE_DIR / "staticfiles"
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
