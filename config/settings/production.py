"""Production: secrets and hosts from the environment, secure defaults.

Required: ``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS`` (comma separated).
Optional: ``DATABASE_URL`` (PostgreSQL for a federation; SQLite otherwise),
``DJANGO_DATABASE_REPLICA_URL`` (a replica of it for the public pages' reads, see
``config.routers``),
``DJANGO_CSRF_TRUSTED_ORIGINS`` (comma separated, with scheme),
``DJANGO_SECURE_SSL_REDIRECT`` (default on; set 0 behind a proxy that redirects),
``DJANGO_HSTS_SECONDS`` (whole seconds, default a year), ``DJANGO_TRUSTED_PROXY_COUNT``,
``DJANGO_LOGIN_LOG_DAYS`` (days the login log is kept, default 30),
``DJANGO_SECRET_KEY_FALLBACKS`` (comma separated: the keys before a rotation, so that
sessions, password links and members' PINs, which are keyed with it, keep working)
and the e-mail settings (see ``base``).
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import SECRET_KEY, STORAGES, env_int


def _list(name):
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


DEBUG = False
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is not set. Production needs its own secret key: "
        "export DJANGO_SECRET_KEY to a long random string (for example the output of "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))')."
    )
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY is too short: use at least 50 random characters.")

SECRET_KEY_FALLBACKS = _list("DJANGO_SECRET_KEY_FALLBACKS")
ALLOWED_HOSTS = _list("DJANGO_ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "DJANGO_ALLOWED_HOSTS is not set: list the host names the site answers to, "
        "comma separated (for example klaverjas.example.org)."
    )
CSRF_TRUSTED_ORIGINS = _list("DJANGO_CSRF_TRUSTED_ORIGINS")

SECURE_SSL_REDIRECT = os.environ.get("DJANGO_SECURE_SSL_REDIRECT", "1") != "0"
if not SECURE_SSL_REDIRECT:
    # The operator says the proxy in front redirects http to https itself, so the
    # site's own redirect (whose absence check W008 reports) is not needed.
    SILENCED_SYSTEM_CHECKS = ["security.W008"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env_int(
    "DJANGO_HSTS_SECONDS", 31536000, unit=" of seconds (31536000 is a year)"
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO"},
}
