"""Development and club-laptop defaults that just work: no environment needed."""

from .base import *  # noqa: F403
from .base import DATA_DIR, SECRET_KEY

DEBUG = True
# A fixed key for development only; production refuses to start without its own.
SECRET_KEY = SECRET_KEY or "dev-only-insecure-key-do-not-use-in-production"
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

DATA_DIR.mkdir(parents=True, exist_ok=True)
