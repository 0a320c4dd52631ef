"""What a read costs: a page's version, its ETag, the 304 and the cached bytes.

Every club, competition and evening has a ``version`` (a column on its row), given a
new value in the transaction of every change to what its pages show (``clubs.versions``,
``tournaments.versions``; the scoring changes through ``scoring.results.services``). A
polled page is wrapped in :func:`versioned` with a function that reads its version (one
small query beside the club the permission check loads anyway):

- the ETag is a hash of that version, the language, the viewer (nobody for an
  anonymous visitor; the account, its name and its CSRF cookie for a logged-in one,
  whose page shows them) and the address; a browser or proxy that sends it back in
  ``If-None-Match`` gets ``304 Not Modified`` (Django's ``condition`` decorator);
- a page that is the same for every viewer of a kind (an anonymous visitor's, or a
  fragment that shows no viewer) is kept in the ``default`` cache under its ETag: the
  first viewer renders it, the others get its bytes, on every box when the cache is
  shared (``DJANGO_CACHE_URL``);
- an anonymous visitor's page says ``Cache-Control: public, max-age=0,
  must-revalidate`` (a proxy keeps it and asks again with the ETag), a logged-in
  viewer's ``private, no-cache``.

A version is a fresh random number, not a counter: a save of a row read before
another change writes the old number back, and a counter's ``+ 1`` could then give a
number already handed out for other content; a random one never repeats.

There is no ``Last-Modified``: it counts whole seconds, and two changes in one second
would leave the second unseen by a client that asks ``If-Modified-Since``.
"""

import hashlib
import secrets
from functools import wraps

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.views.decorators.http import condition

#: How long a rendered page is kept (a newer version has another key anyway).
PAGE_SECONDS = 15 * 60
ANONYMOUS_CACHE_CONTROL = {"public": True, "max_age": 0, "must_revalidate": True}
PRIVATE_CACHE_CONTROL = {"private": True, "no_cache": True}


def new_version() -> int:
    """A fresh version for a row's pages (a random positive 62-bit number)."""
    return secrets.randbits(62) + 1


def _viewer(request, *, forms=False):
    """Who the page is rendered for: "" for an anonymous visitor (unless the page holds
    forms: then their CSRF cookie, which its tokens fit); None when the page must be
    rendered now (messages wait to be shown)."""
    if len(get_messages(request)):
        return None
    user = request.user
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    if not user.is_authenticated:
        return f"-:{csrf}" if forms else ""
    return f"{user.pk}:{user.get_username()}:{csrf}"


def _tag(*parts) -> str:
    text = "|".join(str(part) for part in parts)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def versioned(version_of, *, per_viewer=True, forms=False):
    """Wrap a GET view whose page changes only with ``version_of(request, *args,
    **kwargs)`` (a string, or None: no version known, the view answers as it would).

    ``per_viewer``: the page shows the viewer (the site's header: their name, the
    log-out form), so a logged-in viewer's page is theirs alone and only an anonymous
    visitor's is shared. False: a fragment that shows no viewer, the same for everyone
    the view lets in with the same version (``version_of`` says what else it varies on,
    e.g. a role's link). ``forms``: the page holds forms with CSRF tokens (a table's
    page): every viewer's is their own, for the CSRF cookie they have, and it is kept by
    their browser only (``private``), never by a proxy.
    """

    def decorator(view):
        def etag_of(request, *args, **kwargs):
            return request.page_tag

        def cached(request, *args, **kwargs):
            key = f"page:{request.page_tag}" if request.page_shared else None
            if key is not None:
                kept = cache.get(key)
                if kept is not None:
                    return HttpResponse(kept[1], content_type=kept[0])
            response = view(request, *args, **kwargs)
            if (
                key is not None
                and response.status_code == 200
                and not response.streaming
                and not response.cookies
                and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
            ):
                cache.set(key, (response["Content-Type"], response.content), PAGE_SECONDS)
            return response

        conditional = condition(etag_func=etag_of)(cached)

        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in ("GET", "HEAD"):
                return view(request, *args, **kwargs)
            version = version_of(request, *args, **kwargs)
            viewer = _viewer(request, forms=forms) if per_viewer else "*"
            if version is None or viewer is None:
                return view(request, *args, **kwargs)
            request.page_shared = viewer in ("", "*")
            request.page_tag = _tag(
                version,
                get_language(),
                viewer,
                request.scheme,
                request.get_host(),
                request.get_full_path(),
            )
            response = conditional(request, *args, **kwargs)
            if request.page_shared and request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
                # The page holds a CSRF token after all (a form): it is this visitor's
                # alone, so no ETag that another visitor's copy could match.
                del response.headers["ETag"]
                patch_cache_control(response, **PRIVATE_CACHE_CONTROL)
                return response
            public = not forms and not request.user.is_authenticated
            patch_cache_control(
                response, **(ANONYMOUS_CACHE_CONTROL if public else PRIVATE_CACHE_CONTROL)
            )
            return response

        return wrapper

    return decorator
