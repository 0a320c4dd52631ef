"""WSGI entry point (gunicorn config.wsgi)."""

import os

from config.startup import run_guarded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

from django.core.wsgi import get_wsgi_application  # noqa: E402

application = run_guarded(get_wsgi_application)
