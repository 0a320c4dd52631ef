"""Backups of the whole site's database, and restoring them.

SQLite (the club laptop): SQLite's online backup API copies the live database
page by page into a dated file, safe while the site runs (WAL). Other
databases: ``dumpdata`` into a dated JSON file, database-neutral, read inside
one repeatable-read, read-only transaction, so the file is one consistent
snapshot even while an evening is being played.

Backups hold password hashes and session keys: files are written 0600 in a
0700 folder.

Restoring replaces the database's content with the file's: the site should be
stopped. The file is checked before anything is touched (:func:`check_backup`),
a safety copy of the current database is written first, and a restore that
fails leaves the current database as it was.
"""

import json
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

BACKUP_DIR_NAME = "backups"
SQLITE_HEADER = b"SQLite format 3\x00"
#: Apps whose objects make a file a backup of this site (not just any Django dump).
PROJECT_APPS = ("clubs", "scoring", "tournaments")


class BackupRejected(ValueError):
    """The file is no backup this site can restore; nothing was changed."""


def default_backup_dir() -> Path:
    return Path(settings.DATA_DIR) / BACKUP_DIR_NAME


def _private_dir(directory) -> Path:
    """The folder for backups, created 0700 (the site's own folder is kept 0700)."""
    directory = Path(directory or default_backup_dir())
    if not directory.exists():
        directory.mkdir(parents=True, mode=0o700)
        directory.chmod(0o700)  # mkdir's mode passes through the umask
    elif directory.resolve() == default_backup_dir().resolve():
        directory.chmod(0o700)
    return directory


def _private_file(path: Path, mode="wb", **kwargs):
    """Create ``path`` (which must not exist) readable by its owner only; the open file."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.fchmod(descriptor, 0o600)
    return os.fdopen(descriptor, mode, **kwargs)


def _dated_path(directory: Path, suffix: str, prefix="klaverjas") -> Path:
    stamp = timezone.localtime().strftime("%Y-%m-%d-%H%M%S")
    path = directory / f"{prefix}-{stamp}{suffix}"
    n = 1
    while path.exists():
        n += 1
        path = directory / f"{prefix}-{stamp}-{n}{suffix}"
    return path


def backup_database(directory=None, *, prefix="klaverjas") -> Path:
    """Write the whole database to a dated file in ``directory``; return its path."""
    directory = _private_dir(directory)
    if connection.vendor == "sqlite":
        target = _dated_path(directory, ".sqlite3", prefix)
        _private_file(target).close()
        connection.ensure_connection()
        copy = sqlite3.connect(target)
        try:
            connection.connection.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            copy.close()
        return target
    target = _dated_path(directory, ".json", prefix)
    with _private_file(target, "w", encoding="utf-8") as out:
        _dump_snapshot(out)
    return target


def _dump_snapshot(out):
    """``dumpdata`` of everything, all read from one snapshot of the database."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        call_command(
            "dumpdata",
            "--natural-foreign",
            "--exclude=contenttypes",
            "--exclude=auth.permission",
            "--exclude=sessions",
            stdout=out,
        )


# --- Checking a file before restoring it -----------------------------------------------------


def _migrations_of_this_version():
    """Every migration this version of the site has: a full backup has applied exactly these.

    Read from the code, not the live database, so a backup restores into a
    fresh install (``migrate`` not yet run) as well.
    """
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return set(loader.graph.nodes)


def _check_sqlite(path: Path):
    with path.open("rb") as handle:
        if handle.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise BackupRejected(f"{path.name} is not a SQLite database.")
    try:
        check = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            problems = [row[0] for row in check.execute("PRAGMA integrity_check")]
            tables = {
                row[0] for row in check.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            applied = (
                {tuple(row) for row in check.execute("SELECT app, name FROM django_migrations")}
                if "django_migrations" in tables
                else set()
            )
        finally:
            check.close()
    except sqlite3.DatabaseError as exc:
        raise BackupRejected(f"{path.name} is damaged: {exc}.") from None
    if problems != ["ok"]:
        raise BackupRejected(f"{path.name} is damaged: {problems[0]}.")
    expected = {model._meta.db_table for model in apps.get_models()}
    missing = sorted(expected - tables)
    if missing:
        raise BackupRejected(
            f"{path.name} is not a backup of this site: {len(missing)} of its tables are "
            f"missing (for example {missing[0]})."
        )
    here = _migrations_of_this_version()
    if applied != here:
        differ = sorted(applied ^ here)
        app, name = differ[0]
        raise BackupRejected(
            f"{path.name} was made by another version of this site: {len(differ)} "
            f"migrations differ (for example {app}.{name}). Restore it with the version that "
            "made it."
        )


def _check_json(path: Path):
    try:
        with path.open(encoding="utf-8") as handle:
            objects = json.load(handle)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BackupRejected(
            f"{path.name} is not a JSON backup (or it is cut short): {exc}."
        ) from None
    if not isinstance(objects, list) or not all(
        isinstance(item, dict) and isinstance(item.get("model"), str) and "fields" in item
        for item in objects
    ):
        raise BackupRejected(f"{path.name} is not a list of stored objects.")
    if not objects:
        raise BackupRejected(f"{path.name} is empty: restoring it would delete everything.")
    labels = {item["model"] for item in objects}
    for label in sorted(labels):
        try:
            apps.get_model(label)
        except (LookupError, ValueError):
            raise BackupRejected(
                f"{path.name} holds {label!r}, which this site does not know."
            ) from None
    if not any(label.split(".", 1)[0] in PROJECT_APPS for label in labels):
        raise BackupRejected(f"{path.name} holds no clubs, members or games of this site.")


def check_backup(path) -> Path:
    """Raise :class:`BackupRejected` with one clear line unless ``path`` can be restored."""
    path = Path(path)
    if not path.is_file():
        raise BackupRejected(f"No backup file at {path}")
    if path.suffix == ".sqlite3":
        if connection.vendor != "sqlite":
            raise BackupRejected("A .sqlite3 backup restores into a SQLite site only.")
        _check_sqlite(path)
    elif path.suffix == ".json":
        _check_json(path)
    else:
        raise BackupRejected("A backup is a .sqlite3 or a .json file.")
    return path


# --- Restoring ---------------------------------------------------------------------------------


def restore_database(path, *, safety_dir=None) -> Path:
    """Replace the database's content with a backup; return the safety copy's path.

    The file is checked first; then the current database is copied to a
    dated ``before-restore`` file; then the content is replaced. If that
    fails, the current database is left (or put back) as it was.
    """
    path = check_backup(path)
    with tempfile.TemporaryDirectory() as scratch:
        # Restore from a private copy of what was checked, not a file that may change.
        checked = Path(scratch) / path.name
        shutil.copyfile(path, checked)
        check_backup(checked)
        safety = backup_database(safety_dir, prefix="before-restore")
        if checked.suffix == ".sqlite3":
            _restore_sqlite(checked, safety)
        else:
            with transaction.atomic():
                call_command("flush", "--noinput", verbosity=0)
                call_command("loaddata", str(checked), verbosity=0)
    return safety


def _copy_sqlite_into_live(source_path: Path):
    connection.ensure_connection()
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    try:
        source.backup(connection.connection)
    finally:
        source.close()


def _restore_sqlite(checked: Path, safety: Path):
    try:
        _copy_sqlite_into_live(checked)
    except BaseException:
        _copy_sqlite_into_live(safety)
        raise
