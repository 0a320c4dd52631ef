"""Backups of the whole site's database, and restoring them.

SQLite (the club laptop): SQLite's online backup API copies the live database
page by page into a dated file, safe while the site runs (WAL). Other
databases: ``dumpdata`` into a dated JSON file, database-neutral. Restoring
replaces the database's content with the file's: the site should be stopped.
"""

import sqlite3
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

BACKUP_DIR_NAME = "backups"


def backup_database(directory=None) -> Path:
    """Write the whole database to a dated file in ``directory``; return its path."""
    directory = Path(directory or Path(settings.DATA_DIR) / BACKUP_DIR_NAME)
    directory.mkdir(parents=True, exist_ok=True)
    stamp = timezone.localtime().strftime("%Y-%m-%d-%H%M%S")
    if connection.vendor == "sqlite":
        target = directory / f"klaverjas-{stamp}.sqlite3"
        connection.ensure_connection()
        with sqlite3.connect(target) as copy:
            connection.connection.backup(copy)
        copy.close()
        return target
    target = directory / f"klaverjas-{stamp}.json"
    with target.open("w", encoding="utf-8") as handle:
        call_command(
            "dumpdata",
            "--natural-foreign",
            "--exclude=contenttypes",
            "--exclude=auth.permission",
            "--exclude=sessions",
            stdout=handle,
        )
    return target


def restore_database(path) -> None:
    """Replace the database's content with a backup made by :func:`backup_database`."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"No backup file at {path}")
    if path.suffix == ".sqlite3":
        if connection.vendor != "sqlite":
            raise ValueError("A .sqlite3 backup restores into a SQLite site only.")
        connection.ensure_connection()
        with sqlite3.connect(path) as source:
            source.backup(connection.connection)
        source.close()
        return
    if path.suffix != ".json":
        raise ValueError("A backup is a .sqlite3 or a .json file.")
    with transaction.atomic():
        call_command("flush", "--noinput", verbosity=0)
        call_command("loaddata", str(path), verbosity=0)
