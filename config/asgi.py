"""ASGI entry point."""

import os

from config.startup import run_guarded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

from django.core.asgi import get_asgi_application  # noqa: E402

application = run_guarded(get_asgi_application)
