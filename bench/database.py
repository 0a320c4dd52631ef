"""The benchmarks' throw-away database: a SQLite file in a new folder, or (with
``BENCH_DATABASE_URL``) a new database beside the one named, migrated by its creation
and dropped afterwards, so a benchmark never writes into a real database."""

import contextlib
import os
import tempfile
import warnings


@contextlib.contextmanager
def throwaway_database(prefix):
    """Set Django up on a new, migrated database and yield its connection."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    os.environ["KLAVERJAS_DATA_DIR"] = tmp
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    if os.environ.get("BENCH_DATABASE_URL"):
        os.environ["DATABASE_URL"] = os.environ["BENCH_DATABASE_URL"]
    else:
        os.environ.pop("DATABASE_URL", None)
    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    created = None
    if connection.vendor == "sqlite":
        settings.DATABASES["default"]["NAME"] = os.path.join(tmp, "bench.sqlite3")
        call_command("migrate", verbosity=0)
    else:
        created = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield connection
    finally:
        if created is not None:
            connection.creation.destroy_test_db(created, verbosity=0)
