"""Page reads from the database's replica (``DJANGO_DATABASE_REPLICA_URL``).

:func:`replica_reads` marks a public read-only page: while it answers an anonymous
``GET`` or ``HEAD`` that brings no session cookie, its reads may go to the replica
(``config.routers.ReplicaRouter`` decides). Everything else (every write, a logged-in
visitor, a form's post, a request with a session) reads from the primary. A replica
lags behind the primary by its replication delay: only a page whose visitor cannot
have just changed what it shows is marked.
"""

from contextvars import ContextVar
from functools import wraps

from django.conf import settings

_replica_reads = ContextVar("replica_reads", default=False)


def reads_from_replica() -> bool:
    """Whether the request being answered may read from the replica."""
    return _replica_reads.get()


def replica_allowed(request) -> bool:
    """An anonymous GET or HEAD without a session: one who changed nothing."""
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and not request.user.is_authenticated
    )


def replica_reads(view):
    """Decorator for a public read-only view (outermost): its reads may go to the
    replica when :func:`replica_allowed` says so."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not replica_allowed(request):
            return view(request, *args, **kwargs)
        token = _replica_reads.set(True)
        try:
            return view(request, *args, **kwargs)
        finally:
            _replica_reads.reset(token)

    return wrapper
