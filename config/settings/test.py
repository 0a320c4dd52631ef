"""Settings for the test suite: fast hashing, a fixed key, in-memory e-mail."""

import os

from .base import *  # noqa: F403
from .base import DATA_DIR

DEBUG = False
SECRET_KEY = "test-only-key"
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "throttle": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "t"},
}

DATA_DIR.mkdir(parents=True, exist_ok=True)

# A real SQLite file (in WAL mode), not :memory:, so live-server and
# concurrency tests see what a club laptop sees. One test database per test
# process, so two suites run side by side (SQLite and PostgreSQL legs, or two
# developers' runs) never drop each other's database.
_db = DATABASES["default"]  # noqa: F405
if _db["ENGINE"].endswith("sqlite3"):
    _db["TEST"] = {"NAME": str(DATA_DIR / f"test-{os.getpid()}.sqlite3")}
else:
    _db["TEST"] = {"NAME": f"test_{_db['NAME']}_{os.getpid()}"}
    # A commit does not wait for the server's disk (the flush after each
    # transactional test, every live-server write): a test database outlives no
    # crash anyway, and what other sessions see is the same.
    _db.setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"

# The replica is the test database itself (a mirror: no database of its own), so that a
# public page's reads take the replica's path (config/routers.py) in the tests too.
DATABASES = {  # noqa: F405
    **DATABASES,  # noqa: F405
    "replica": {**_db, "OPTIONS": dict(_db.get("OPTIONS", {})), "TEST": {"MIRROR": "default"}},
}
