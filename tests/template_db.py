"""Each test process's database made from one migrated copy instead of migrating again.

A test process (the SQLite leg's two, each PostgreSQL worker) starts with its own test
database, and Django makes it by running every migration: seconds of CPU each, most
of them in rebuilding the models' state after each operation, the same work for each
process. The first process to need it migrates as Django does and keeps the result as
a template: an SQLite file in the data folder, a PostgreSQL database
(``test_template_<key>``); the others copy it (SQLite's backup API; PostgreSQL's
``CREATE DATABASE ... TEMPLATE``). The key (:func:`template_key`) is a hash of every
installed app's migrations, Django's version, the settings and ``manage.py``, so a
changed migration makes a new template, and a template of other migrations is dropped
when a new one is kept. One process makes it at a time: a file lock for SQLite, an
advisory lock on the server for PostgreSQL (test runs from two checkouts share one).
The templates are kept for the next run.

Only the ``default`` database of a normal run: ``--reuse-db``, ``--nomigrations``,
``MIGRATE=False`` and the mirrors go Django's way. :func:`restore` copies the template
again after a data migration's tests; :func:`made_once` shares another file made once
(the migrated laptop).
"""

import fcntl
import functools
import hashlib
import importlib.util
import sqlite3
from contextlib import contextmanager
from pathlib import Path

import django
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError
from django.db.backends.base.creation import BaseDatabaseCreation

ROOT = Path(__file__).resolve().parents[1]
#: The session-level advisory lock under which one PostgreSQL worker makes the template.
ADVISORY_LOCK = 0x6B6C_6A73  # "kljs"
_django_create_test_db = BaseDatabaseCreation.create_test_db


@functools.cache
def template_key():
    """A hash of what the migrated database depends on: the migration files of every
    installed app (ours in the checkout, Django's and django-axes' in the environment),
    Django's version, the settings modules (the installed apps, the SQLite pragmas a
    fresh laptop's file is made with) and ``manage.py``."""
    from django.apps import apps
    from django.db.migrations.loader import MigrationLoader

    digest = hashlib.sha256(repr((django.VERSION, settings.INSTALLED_APPS)).encode())
    files = [
        (f"config/settings/{path.name}", path)
        for path in sorted((ROOT / "config" / "settings").glob("*.py"))
    ]
    files.append(("manage.py", ROOT / "manage.py"))
    for app in apps.get_app_configs():
        module, _explicit = MigrationLoader.migrations_module(app.label)
        for folder in _package_folders(module):
            files += [(f"{app.label}/{path.name}", path) for path in sorted(folder.glob("*.py"))]
    # Named as within the project and its apps, not by where the checkout is: two
    # checkouts of the same migrations share one PostgreSQL template.
    for name, path in files:
        digest.update(name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _package_folders(module):
    """The folders of the package ``module`` (an app's migrations), none if there is none."""
    try:
        spec = importlib.util.find_spec(module) if module else None
    except (ImportError, ValueError):
        return []
    return [Path(folder) for folder in (spec and spec.submodule_search_locations) or ()]


def _migrations_disabled(connection):
    """``TEST["MIGRATE"] = False``, or pytest-django's ``--nomigrations`` (which swaps
    ``MIGRATION_MODULES`` for a mapping of every app to None): tables made from the
    models, with no migration rows, must not become the template."""
    if connection.settings_dict["TEST"].get("MIGRATE") is False:
        return True
    modules = settings.MIGRATION_MODULES
    return not isinstance(modules, dict) or any(value is None for value in modules.values())


def create_test_db(self, verbosity=1, autoclobber=False, serialize=True, keepdb=False):
    """``BaseDatabaseCreation.create_test_db`` by way of the migrated template."""
    vendor = self.connection.vendor
    name = self._get_test_db_name()
    if (
        self.connection.alias != DEFAULT_DB_ALIAS
        or keepdb
        or _migrations_disabled(self.connection)
        or vendor not in ("sqlite", "postgresql")
        or (vendor == "sqlite" and self.is_in_memory_db(name))
    ):
        return _django_create_test_db(self, verbosity, autoclobber, serialize, keepdb)
    kind = _SQLite(self) if vendor == "sqlite" else _PostgreSQL(self)
    with kind.lock():
        if not kind.template_exists():
            made = _django_create_test_db(self, verbosity, autoclobber, serialize, keepdb)
            kind.keep_as_template(made)
            return made
        kind.copy_template_to(name)
    self.connection.close()
    settings.DATABASES[self.connection.alias]["NAME"] = name
    self.connection.settings_dict["NAME"] = name
    if serialize:
        self.connection._test_serialized_contents = self.serialize_db_to_string()
    self.connection.ensure_connection()
    return name


class _SQLite:
    def __init__(self, creation):
        self.creation = creation
        self.folder = Path(settings.DATA_DIR)
        self.template = self.folder / f"test-template-{template_key()}.sqlite3"

    @staticmethod
    @contextmanager
    def file_lock(folder):
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / "test-template.lock", "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def lock(self):
        return self.file_lock(self.folder)

    def template_exists(self):
        return self.template.exists()

    def keep_as_template(self, made):
        self.creation.connection.close()
        partial = self.template.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        sqlite_copy(Path(made), partial)
        partial.replace(self.template)
        for old in self.folder.glob("test-template-*.sqlite3"):
            if old != self.template:
                old.unlink(missing_ok=True)

    def copy_template_to(self, name):
        target = Path(name)
        for path in (target, *(Path(f"{name}-{end}") for end in ("wal", "shm", "journal"))):
            path.unlink(missing_ok=True)
        sqlite_copy(self.template, target)


def made_once(stem, make):
    """The path of an SQLite file that every test process of this checkout shares, made
    once for these migrations by ``make(path)`` (under the file lock; kept for the next
    run, as the template is), for files the tests only read or copy."""
    folder = Path(settings.DATA_DIR)
    path = folder / f"{stem}-{template_key()}.sqlite3"
    with _SQLite.file_lock(folder):
        if not path.exists():
            partial = path.with_suffix(".partial")
            partial.unlink(missing_ok=True)
            make(partial)
            partial.replace(path)
            for old in folder.glob(f"{stem}-*.sqlite3"):
                if old != path:
                    old.unlink(missing_ok=True)
    return path


def sqlite_copy(source_path, target_path, *, journal_mode="DELETE"):
    """The whole database (with what its WAL holds) by SQLite's backup API; by default in
    SQLite's plain journal mode: a file that needs no -wal and -shm beside it to be read
    (the site's connections turn WAL on again). ``journal_mode=None`` keeps the source's."""
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    target = sqlite3.connect(target_path)
    try:
        source.backup(target)
        if journal_mode:
            target.execute(f"PRAGMA journal_mode={journal_mode}")
    finally:
        target.close()
        source.close()


def postgres_template():
    """The name of the PostgreSQL template of these migrations (made by the first test
    process that needs a test database: ask for ``django_db_setup`` first)."""
    return f"test_template_{template_key()}"


def postgres_database_exists(cursor, name):
    """Whether the PostgreSQL server of ``cursor`` holds a database ``name``."""
    cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
    return cursor.fetchone() is not None


class _PostgreSQL:
    def __init__(self, creation):
        self.creation = creation
        self.template = postgres_template()
        self.quote = creation.connection.ops.quote_name

    @contextmanager
    def lock(self):
        """The advisory lock, waited for at most ten minutes (a session stuck in another
        run's migrate fails this one with a message instead of hanging it)."""
        with self.creation._nodb_cursor() as cursor:
            cursor.execute("SET lock_timeout = '600s'")
            cursor.execute("SELECT pg_advisory_lock(%s)", [ADVISORY_LOCK])
            try:
                yield
            finally:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [ADVISORY_LOCK])

    def template_exists(self):
        with self.creation._nodb_cursor() as cursor:
            return postgres_database_exists(cursor, self.template)

    def keep_as_template(self, made):
        """The migrated test database copied as the template, which nobody may connect
        to (a copy needs it without sessions); templates of other migrations dropped
        where they can be (one that is being copied stays)."""
        self.creation.connection.close()
        if hasattr(self.creation.connection, "close_pool"):
            self.creation.connection.close_pool()
        template = self.quote(self.template)
        with self.creation._nodb_cursor() as cursor:
            cursor.execute(f"CREATE DATABASE {template} TEMPLATE {self.quote(made)}")
            cursor.execute(
                f"ALTER DATABASE {template} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"
            )
            cursor.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE 'test\\_template\\_%%'"
                " AND datname <> %s",
                [self.template],
            )
            for (old,) in cursor.fetchall():
                try:
                    cursor.execute(f"ALTER DATABASE {self.quote(old)} WITH IS_TEMPLATE false")
                    cursor.execute(f"DROP DATABASE IF EXISTS {self.quote(old)}")
                except DatabaseError:
                    pass

    def copy_template_to(self, name):
        with self.creation._nodb_cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {self.quote(name)}")
            template = self.quote(self.template)
            cursor.execute(f"CREATE DATABASE {self.quote(name)} TEMPLATE {template}")


def restore(connection) -> bool:
    """The test database of ``connection`` made again from the template, empty and at
    every app's newest migration (a copy instead of migrating forward, for the tests of
    a data migration). False where there is no template (nothing changed) or the server
    refused the copy; the caller then migrates forward instead."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import connections

    creation = connection.creation
    vendor = connection.vendor
    if vendor not in ("sqlite", "postgresql") or _migrations_disabled(connection):
        return False
    kind = _SQLite(creation) if vendor == "sqlite" else _PostgreSQL(creation)
    name = connection.settings_dict["NAME"]
    with kind.lock():
        if not kind.template_exists():
            return False
        for other in connections.all(initialized_only=True):
            if other.settings_dict["NAME"] == name:
                other.close()
        try:
            kind.copy_template_to(name)
        except DatabaseError:
            return False
    ContentType.objects.clear_cache()
    return True


def install():
    """Django makes every test database through the template from now on."""
    BaseDatabaseCreation.create_test_db = create_test_db
