"""Turn bad configuration into one clear line instead of a traceback.

A club volunteer who starts the site with a wrong ``DATABASE_URL`` or without
``DJANGO_SECRET_KEY`` in production needs to read what is wrong, not a Python
stack. Used by ``manage.py`` and the WSGI/ASGI entry points.
"""

import sys


def _database_hint():
    try:
        from django.conf import settings

        db = settings.DATABASES["default"]
    except Exception:  # settings themselves failed; nothing more to say
        return ""
    if "sqlite" in db.get("ENGINE", ""):
        return f" (SQLite file {db.get('NAME')})"
    host = db.get("HOST") or "localhost"
    port = db.get("PORT") or "5432"
    return (
        f" ({db.get('ENGINE', '').rsplit('.', 1)[-1]} at {host}:{port}, database {db.get('NAME')})"
    )


def explain(exc):
    """Return a one-line explanation for a configuration error, or None for a bug."""
    from django.core.exceptions import ImproperlyConfigured
    from django.db.utils import OperationalError

    if isinstance(exc, ImproperlyConfigured):
        return f"Configuration error: {exc}"
    if isinstance(exc, OperationalError):
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return (
            f"Cannot use the database{_database_hint()}: {first}. "
            "Check DATABASE_URL and that the database server is running."
        )
    return None


def run_guarded(func, *args):
    """Call ``func(*args)``; print configuration errors in one line and exit 2."""
    try:
        return func(*args)
    except Exception as exc:
        message = explain(exc)
        if message is None:
            raise
        print(message, file=sys.stderr)
        raise SystemExit(2) from None
