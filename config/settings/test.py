"""Settings for the test suite: fast hashing, a fixed key, in-memory e-mail."""

from .base import *  # noqa: F403
from .base import DATA_DIR

DEBUG = False
SECRET_KEY = "test-only-key"
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

DATA_DIR.mkdir(parents=True, exist_ok=True)

# A real SQLite file (in WAL mode), not :memory:, so live-server and
# concurrency tests see what a club laptop sees.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test.sqlite3")}  # noqa: F405
