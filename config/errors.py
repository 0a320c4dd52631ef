"""The site's answer when a request fails: a busy database is 503, anything else 500.

SQLite lets one writer at a time; another process holding the write lock (a
backup, a long import, a second server) makes a save wait up to the busy
timeout and then fail with "database is locked". That is not a bug but a busy
moment: the answer is 503 with ``Retry-After``, so the phone's queue keeps the
hand and sends it again. Django calls this handler (``handler500``) inside the
``except`` block of any uncaught exception, from a view or a middleware.

Neither page touches the database (no session, no user): it may be locked.
"""

import sys

from django.db import OperationalError
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext
from django.views.defaults import server_error as django_server_error

RETRY_AFTER_SECONDS = 5
BUSY_MESSAGES = ("database is locked", "database table is locked")


def database_is_busy(exc):
    return isinstance(exc, OperationalError) and any(
        message in str(exc) for message in BUSY_MESSAGES
    )


def wants_json(request):
    return request.path.endswith(".json") or "application/json" in request.headers.get("Accept", "")


def server_error(request, template_name="500.html"):
    if not database_is_busy(sys.exc_info()[1]):
        return django_server_error(request, template_name)
    if wants_json(request):
        message = gettext("The site is busy for a moment; nothing was stored. Try again.")
        body = {"ok": False, "busy": True, "errors": {"__all__": [{"message": message}]}}
        response = JsonResponse(body, status=503)
    else:
        response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response
