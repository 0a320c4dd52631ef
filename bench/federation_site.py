"""The site as the federation night (``bench.federation``) serves it: every URL of
``config.urls`` plus the baseline view, and a middleware that says what each request
cost the server.

Not part of the site: only the benchmark's settings name this module (its
``ROOT_URLCONF`` and the first of its ``MIDDLEWARE``), so the baseline URL exists in
the benchmark's server alone.
"""

import time

from django.db import connection
from django.http import HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.urls import path

from bench.federation import BASELINE_PATH, CPU_HEADER, QUERIES_HEADER
from config import urls


def measured(get_response):
    """The first middleware: the thread's CPU time and the queries of each request."""

    def middleware(request):
        queries = 0

        def count(execute, sql, params, many, context):
            nonlocal queries
            queries += 1
            return execute(sql, params, many, context)

        started = time.thread_time_ns()
        with connection.execute_wrapper(count):
            response = get_response(request)
        response[CPU_HEADER] = str((time.thread_time_ns() - started) // 1000)
        response[QUERIES_HEADER] = str(queries)
        return response

    return middleware


def baseline(request):
    """The least a page of this stack can do: a form's CSRF token (and a hand's number,
    for the phones) on a GET, a redirect back on a POST; no query of its own."""
    if request.method == "POST":
        return HttpResponseRedirect(f"{request.path}?as=table")
    if request.GET.get("as") != "table":
        return HttpResponse("ok", content_type="text/plain")
    return HttpResponse(
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{get_token(request)}">'
        '<input type="hidden" name="number" value="1">'
    )


urlpatterns = [*urls.urlpatterns, path(BASELINE_PATH.strip("/") + "/", baseline)]
handler500 = urls.handler500
