"""Backups of the whole site's database, and restoring them.

SQLite (the club laptop): SQLite's online backup API copies the live database
page by page into a dated file, safe while the site runs (WAL). Other
databases: ``dumpdata`` into a dated JSON file, database-neutral, read inside
one repeatable-read, read-only transaction, so the file is one consistent
snapshot even while an evening is being played. The JSON file opens with a
manifest: the format's name, the migrations the site had applied, and the
number of rows of every model the backup covers.

Backups hold password hashes and session keys: files are written 0600 in a
0700 folder, complete or not at all (written under a temporary name, renamed
when done). The live SQLite database and the site's data folder are kept
private the same way (:func:`keep_database_private`).

Restoring replaces the database's content with the file's: the site should be
stopped. Only a whole-site backup made by ``backup`` for this version is
restored (:func:`check_backup`): a JSON file whose manifest matches its objects,
this version's migrations and every model of the site; a SQLite file whose
schema is exactly the one this version's migrations make (no trigger, view or
index of its own, none missing). The check also says how many rows of each kind
the database will hold afterwards. A safety copy of the current database is
written first, and a restore that fails leaves the current database as it was.
"""

import functools
import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connection, router, transaction
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone, translation

logger = logging.getLogger(__name__)

BACKUP_DIR_NAME = "backups"
SQLITE_HEADER = b"SQLite format 3\x00"
#: The name in a JSON backup's manifest, and the version of its layout.
FORMAT = "klaverjas-backup"
FORMAT_VERSION = 1
#: What a backup leaves out: made again by the site itself (content types,
#: permissions) or not worth keeping (sessions).
EXCLUDED_APPS = ("contenttypes", "sessions")
EXCLUDED_MODELS = ("auth.permission",)
#: Always named in the summary of a backup, even when there are none.
SUMMARY_ALWAYS = ("auth.user", "clubs.club", "clubs.member")


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


def _chmod_if_needed(path: Path, mode: int):
    """Set ``path``'s mode; a file that is missing or not ours is left, with a warning."""
    try:
        if path.stat().st_mode & 0o777 != mode:
            path.chmod(mode)
    except FileNotFoundError:
        pass
    except OSError as exc:  # another user's file: the site still runs, and says so
        logger.warning("Could not make %s private (mode %o): %s", path, mode, exc)


def keep_database_private(sender=None, connection=None, **kwargs):
    """Keep the site's data folder 0700 and a live SQLite database 0600.

    Connected to ``connection_created``, so it runs whenever the site (or
    ``migrate``) opens the database. The data folder holds the backups and the
    secret key on any database. SQLite makes its -wal and -shm files with the
    database file's own permissions; those already there are set too.
    """
    _chmod_if_needed(Path(settings.DATA_DIR), 0o700)
    if connection is None or connection.vendor != "sqlite":
        return
    name = str(connection.settings_dict.get("NAME") or "")
    if not name or name == ":memory:" or name.startswith("file:"):
        return
    for path in (Path(name), Path(f"{name}-wal"), Path(f"{name}-shm")):
        _chmod_if_needed(path, 0o600)


def _dated_path(directory: Path, suffix: str, prefix="klaverjas") -> Path:
    stamp = timezone.localtime().strftime("%Y-%m-%d-%H%M%S")
    path = directory / f"{prefix}-{stamp}{suffix}"
    n = 1
    while path.exists():
        n += 1
        path = directory / f"{prefix}-{stamp}-{n}{suffix}"
    return path


def backup_database(directory=None, *, prefix="klaverjas") -> Path:
    """Write the whole database to a dated file in ``directory``; return its path.

    The file is written under a temporary name and renamed when it is complete
    (and, for JSON, read back and checked against its manifest): a backup that
    fails half-way leaves no file behind.
    """
    directory = _private_dir(directory)
    suffix = ".sqlite3" if connection.vendor == "sqlite" else ".json"
    target = _dated_path(directory, suffix, prefix)
    partial = target.with_name(f".{target.name}.partial")
    try:
        if suffix == ".sqlite3":
            _private_file(partial).close()
            connection.ensure_connection()
            copy = sqlite3.connect(partial)
            try:
                connection.connection.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                copy.close()
        else:
            with _private_file(partial, "w", encoding="utf-8") as out:
                _dump_snapshot(out)
            _read_json_backup(partial)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return target


def backed_up_models(using=DEFAULT_DB_ALIAS):
    """Every model a whole-site backup holds: what ``dumpdata`` writes, less the exclusions."""
    return [
        model
        for model in apps.get_models()
        if not model._meta.proxy
        and model._meta.app_label not in EXCLUDED_APPS
        and model._meta.label_lower not in EXCLUDED_MODELS
        and router.allow_migrate_model(using, model)
    ]


def _dump_snapshot(out):
    """The manifest, then ``dumpdata`` of everything, all read from one snapshot."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        models = backed_up_models(connection.alias)
        manifest = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "created": timezone.now().isoformat(),
            "migrations": sorted(
                [app, name] for app, name in MigrationRecorder(connection).applied_migrations()
            ),
            # The manager dumpdata reads, in the same snapshot: the counts are the file's.
            "models": {
                model._meta.label_lower: model._default_manager.using(connection.alias).count()
                for model in models
            },
        }
        out.write('{"manifest": ')
        json.dump(manifest, out)
        out.write(',\n"objects": ')
        call_command(
            "dumpdata",
            *(model._meta.label for model in models),
            "--natural-foreign",
            database=connection.alias,
            stdout=out,
        )
        out.write("}\n")


# --- Checking a file before restoring it -----------------------------------------------------


@dataclass(frozen=True)
class CheckedBackup:
    """A file that passed :func:`check_backup`, and the rows of each model it holds."""

    path: Path
    counts: dict

    def summary(self) -> str:
        """One line: how many rows of each kind the database holds after the restore."""
        by_label = {model._meta.label_lower: model for model in backed_up_models()}
        shown, empty = [], 0
        with translation.override("en"):
            for label, count in self.counts.items():
                if not count and label not in SUMMARY_ALWAYS:
                    empty += 1
                    continue
                meta = by_label[label]._meta
                name = meta.verbose_name if count == 1 else meta.verbose_name_plural
                shown.append(f"{count} {name}")
        rest = f"; no rows of the other {empty} kinds" if empty else ""
        return f"After the restore: {', '.join(shown)}{rest}."


def _migrations_of_this_version():
    """Every migration this version of the site has: a full backup has applied exactly these.

    Read from the code, not the live database, so a backup restores into a
    fresh install (``migrate`` not yet run) as well.
    """
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return set(loader.graph.nodes)


def _check_migrations(name, applied):
    here = _migrations_of_this_version()
    if applied != here:
        differ = sorted(applied ^ here)
        app, migration = differ[0]
        raise BackupRejected(
            f"{name} was made by another version of this site: {len(differ)} "
            f"migrations differ (for example {app}.{migration}). Restore it with the version "
            "that made it."
        )


#: SQLite's own bookkeeping tables, which ``sqlite_master`` lists beside the site's and
#: whose content SQLite keeps itself (AUTOINCREMENT counters, ANALYZE statistics).
SQLITE_OWN_TABLES = frozenset(
    {"sqlite_sequence", "sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4"}
)


def _read_schema(db) -> dict:
    """``sqlite_master`` of an open database: (type, name) -> (table, normalized SQL).

    Every row counts, whatever its name: only SQLite's own tables, by exact name,
    are left out. (A trigger written into ``sqlite_master`` by hand may be named
    ``sqlite_…`` too; leaving out names by their prefix would let it through.)
    """
    rows = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")
    return {
        (kind, name): (table, " ".join((sql or "").split()))
        for kind, name, table, sql in rows
        if not (kind == "table" and name in SQLITE_OWN_TABLES)
    }


@functools.cache
def _migrated_schema() -> dict:
    """The schema this version's migrations make: a real ``migrate`` into a scratch file.

    Run in a child process on a scratch data folder, so nothing a migration does
    can reach the live database; made once per process (it takes seconds).
    """
    with tempfile.TemporaryDirectory() as scratch:
        env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
        # (under override_settings, settings.SETTINGS_MODULE is None; the variable is not)
        module = os.environ.get("DJANGO_SETTINGS_MODULE") or settings.SETTINGS_MODULE
        env.update(DJANGO_SETTINGS_MODULE=module, KLAVERJAS_DATA_DIR=scratch)
        manage = Path(settings.BASE_DIR) / "manage.py"
        result = subprocess.run(
            [sys.executable, str(manage), "migrate", "--noinput", "--skip-checks", "-v", "0"],
            cwd=settings.BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        database = Path(scratch) / "db.sqlite3"
        if result.returncode != 0 or not database.is_file():
            lines = (result.stderr or result.stdout).strip().splitlines() or ["no output"]
            raise BackupRejected(f"Could not make this version's schema to compare: {lines[-1]}")
        db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            return _read_schema(db)
        finally:
            db.close()


def _schema_difference(found: dict, expected: dict) -> str | None:
    """The first way ``found`` differs from ``expected``, in words; None when equal."""

    def most_dangerous_first(key):
        kind, name = key
        return (kind not in ("trigger", "view"), kind, name)

    for key in sorted(found.keys() - expected.keys(), key=most_dangerous_first):
        kind, name = key
        article = "an" if kind.startswith("index") else "a"
        return f"it has {article} {kind} {name!r} of its own (on {found[key][0]})"
    for kind, name in sorted(expected.keys() - found.keys()):
        return f"it lacks the {kind} {name!r} (on {expected[kind, name][0]})"
    for key in sorted(found.keys(), key=most_dangerous_first):
        if found[key] != expected[key]:
            return f"its {key[0]} {key[1]!r} differs from this version's"
    return None


def _check_sqlite(path: Path) -> dict:
    with path.open("rb") as handle:
        if handle.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise BackupRejected(f"{path.name} is not a SQLite database.")
    models = backed_up_models()
    try:
        check = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            problems = [row[0] for row in check.execute("PRAGMA integrity_check")]
            schema = _read_schema(check)
            tables = {name for kind, name in schema if kind == "table"}
            applied = (
                {tuple(row) for row in check.execute("SELECT app, name FROM django_migrations")}
                if "django_migrations" in tables
                else set()
            )
            counts = {
                model._meta.label_lower: check.execute(
                    f'SELECT COUNT(*) FROM "{model._meta.db_table}"'
                ).fetchone()[0]
                for model in models
                if model._meta.db_table in tables
            }
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
    _check_migrations(path.name, applied)
    difference = _schema_difference(schema, _migrated_schema())
    if difference:
        raise BackupRejected(f"{path.name} does not have this version's schema: {difference}.")
    return counts


def _read_json_backup(path: Path):
    """The manifest and objects of a JSON backup, checked against each other."""
    try:
        with path.open(encoding="utf-8") as handle:
            data = json.load(handle)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise BackupRejected(
            f"{path.name} is not a JSON backup (or it is cut short): {exc}."
        ) from None
    manifest = data.get("manifest") if isinstance(data, dict) else None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupRejected(
            f"{path.name} is not a whole-site backup made by the backup command (it has no "
            "manifest)."
        )
    if manifest.get("format_version") != FORMAT_VERSION:
        raise BackupRejected(
            f"{path.name} is a backup of format version {manifest.get('format_version')!r}; "
            f"this version reads {FORMAT_VERSION}."
        )
    migrations, counts = manifest.get("migrations"), manifest.get("models")
    if not (
        isinstance(migrations, list)
        and all(
            isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) for s in item)
            for item in migrations
        )
        and isinstance(counts, dict)
        and all(type(count) is int and count >= 0 for count in counts.values())
    ):
        raise BackupRejected(f"{path.name} has a damaged manifest.")
    objects = data.get("objects")
    if not isinstance(objects, list) or not all(
        isinstance(item, dict)
        and isinstance(item.get("model"), str)
        and isinstance(item.get("fields"), dict)
        for item in objects
    ):
        raise BackupRejected(f"{path.name} is not a list of stored objects.")
    found = Counter(item["model"] for item in objects)
    for label in sorted(found.keys() | counts.keys()):
        if found[label] != counts.get(label, 0):
            raise BackupRejected(
                f"{path.name} does not match its manifest: it says {counts.get(label, 0)} "
                f"{label}, the file holds {found[label]}."
            )
    return manifest, objects


def _check_json(path: Path) -> dict:
    manifest, _objects = _read_json_backup(path)
    counts = manifest["models"]
    models = backed_up_models()
    labels = [model._meta.label_lower for model in models]
    unknown = sorted(counts.keys() - set(labels))
    if unknown:
        raise BackupRejected(
            f"{path.name} holds {unknown[0]!r}, which a backup of this site does not know."
        )
    _check_migrations(path.name, {tuple(item) for item in manifest["migrations"]})
    missing = [label for label in labels if label not in counts]
    if missing:
        raise BackupRejected(
            f"{path.name} is not a backup of the whole site: {len(missing)} kinds of rows are "
            f"missing (for example {missing[0]})."
        )
    return {label: counts[label] for label in labels}


def _check_live_database_takes_json():
    """loaddata needs this version's tables: the database must be migrated first."""
    try:
        applied = set(MigrationRecorder(connection).applied_migrations())
    except Exception:  # no database yet, or no migrations table
        applied = set()
    if applied != _migrations_of_this_version():
        raise BackupRejected(
            "The database does not have this version's tables yet: run "
            "`manage.py migrate` first, then restore."
        )


def check_backup(path) -> CheckedBackup:
    """Raise :class:`BackupRejected` with one clear line unless ``path`` can be restored."""
    path = Path(path)
    if not path.is_file():
        raise BackupRejected(f"No backup file at {path}")
    if path.suffix == ".sqlite3":
        if connection.vendor != "sqlite":
            raise BackupRejected("A .sqlite3 backup restores into a SQLite site only.")
        counts = _check_sqlite(path)
    elif path.suffix == ".json":
        counts = _check_json(path)
        _check_live_database_takes_json()
    else:
        raise BackupRejected("A backup is a .sqlite3 or a .json file.")
    return CheckedBackup(path=path, counts=counts)


# --- Restoring ---------------------------------------------------------------------------------


def restore_database(path, *, safety_dir=None, expect: CheckedBackup | None = None) -> Path:
    """Replace the database's content with a backup; return the safety copy's path.

    The file is copied and the copy checked (and, with ``expect``, must hold
    what an earlier check reported); then the current database is copied to a
    dated ``before-restore`` file; then the content is replaced. If that
    fails, the current database is left (or put back) as it was.
    """
    path = Path(path)
    if not path.is_file():
        raise BackupRejected(f"No backup file at {path}")
    with tempfile.TemporaryDirectory() as scratch:
        # Restore from a private copy of what was checked, not a file that may change.
        checked = Path(scratch) / path.name
        shutil.copyfile(path, checked)
        found = check_backup(checked)
        if expect is not None and found.counts != expect.counts:
            raise BackupRejected(f"{path.name} changed since it was checked.")
        safety = backup_database(safety_dir, prefix="before-restore")
        if checked.suffix == ".sqlite3":
            _restore_sqlite(checked, safety)
        else:
            _restore_json(checked, Path(scratch) / "objects.json")
    return safety


def _restore_json(checked: Path, objects_path: Path):
    """flush, then ``loaddata`` of the checked file's objects, in one transaction."""
    _manifest, objects = _read_json_backup(checked)
    with objects_path.open("w", encoding="utf-8") as out:
        json.dump(objects, out)
    del objects
    with transaction.atomic():
        call_command("flush", "--noinput", verbosity=0)
        call_command("loaddata", str(objects_path), verbosity=0)


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
