"""Club-laptop mode: the site served to the hall's own network, no internet needed.

Started by ``make lan`` (``scripts/lan.py``): gunicorn on all interfaces,
SQLite in WAL mode, static files from whitenoise. The laptop's addresses are
found at start and passed in ``KLAVERJAS_LAN_HOSTS``; plain http on the local
network, so cookies are not marked secure. The secret key is made once and kept
in the data folder, so sessions survive a restart and nothing secret is in the
repository.
"""

import os
import secrets

from .base import *  # noqa: F403
from .base import DATA_DIR, STORAGES

DEBUG = False
DATA_DIR.mkdir(parents=True, exist_ok=True)
_key_file = DATA_DIR / "secret_key"
if not _key_file.exists():
    _key_file.write_text(secrets.token_urlsafe(50))
    _key_file.chmod(0o600)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or _key_file.read_text().strip()

_hosts = [h for h in os.environ.get("KLAVERJAS_LAN_HOSTS", "").split(",") if h]
ALLOWED_HOSTS = ["127.0.0.1", "localhost", *_hosts]
_port = os.environ.get("KLAVERJAS_LAN_PORT", "8000")
CSRF_TRUSTED_ORIGINS = [f"http://{host}:{_port}" for host in ALLOWED_HOSTS]

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False

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
