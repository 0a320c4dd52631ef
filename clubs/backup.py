"""Backups of the whole site's database, and restoring them.

SQLite (the club laptop): SQLite's online backup API copies the live database
page by page into a dated file, safe while the site runs (WAL). PostgreSQL with
``pg_dump`` installed: ``pg_dump --format=custom`` into a dated ``.dump`` file,
which pg_dump reads in one repeatable-read transaction (one snapshot); 25–40×
smaller and faster than JSON (the README has the figures). Otherwise (or on
request): ``dumpdata`` into a dated JSON file, database-neutral, read inside one
repeatable-read, read-only transaction, so the file is one consistent snapshot
even while an evening is being played. The JSON file opens with a manifest: the
format's name, the migrations the site had applied, and the number of rows of
every model the backup covers.

Backups hold password hashes and session keys: files are written 0600 in a
0700 folder, complete or not at all (written under a temporary name, renamed
when done). The live SQLite database and the site's data folder are kept
private the same way (:func:`keep_database_private`).

Restoring replaces the database's content with the file's: the site should be
stopped. Only a whole-site backup made by ``backup`` for this version is
restored (:func:`check_backup`): a JSON file whose manifest matches its objects,
this version's migrations and every model of the site; a SQLite file whose
schema is exactly the one this version's migrations make (no trigger, view or
index of its own, none missing); a pg_dump file whose every statement is the
live database's own schema or a row of its tables (see :func:`_check_dump`).
The check also says how many rows of each kind the database will hold
afterwards. A safety copy of the current database is written first, and a
restore that fails leaves the current database as it was.
"""

import functools
import json
import logging
import os
import re
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
#: A PostgreSQL backup made by ``pg_dump --format=custom``, and how its file begins.
DUMP_SUFFIX = ".dump"
DUMP_MAGIC = b"PGDMP"
#: Bounds on a .dump before and while reading it: the file (a federation's is
#: 26 MB), the SQL its schema unpacks to, and all it unpacks to (rows included).
MAX_DUMP_BYTES = 2 * 2**30
MAX_DUMP_SCHEMA_BYTES = 16 * 2**20
MAX_DUMP_UNPACKED_BYTES = 64 * 2**30


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


def backup_database(directory=None, *, prefix="klaverjas", as_json=False) -> Path:
    """Write the whole database to a dated file in ``directory``; return its path.

    SQLite: a ``.sqlite3`` copy. PostgreSQL: a ``.dump`` of ``pg_dump`` when it is
    installed, else (or with ``as_json``) the ``.json`` dump, which any database
    writes with ``as_json``. The file is written under a temporary name and
    renamed when it is complete (and, for JSON, read back and checked against
    its manifest): a backup that fails half-way leaves no file behind.
    """
    directory = _private_dir(directory)
    if as_json:
        suffix = ".json"
    elif connection.vendor == "sqlite":
        suffix = ".sqlite3"
    elif connection.vendor == "postgresql" and shutil.which("pg_dump"):
        suffix = DUMP_SUFFIX
    else:
        suffix = ".json"
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
        elif suffix == DUMP_SUFFIX:
            _private_file(partial).close()
            _pg_dump(partial)
        else:
            with _private_file(partial, "w", encoding="utf-8") as out:
                _dump_snapshot(out)
            _read_json_backup(partial)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return target


#: What each kind of backup file is, in the words the commands print.
WRITTEN_AS = {
    ".sqlite3": "a copy of the SQLite database (SQLite's online backup)",
    DUMP_SUFFIX: "a pg_dump archive (custom format, one snapshot)",
    ".json": "a JSON dump (database-neutral, one snapshot)",
}


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


# --- PostgreSQL's own tools: pg_dump and pg_restore -------------------------------------------

#: libpq's environment variable for each connection option Django may pass in OPTIONS.
PG_OPTION_ENV = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "connect_timeout": "PGCONNECT_TIMEOUT",
    "options": "PGOPTIONS",
    "service": "PGSERVICE",
}
#: How a .dump is restored, and so how its statements are read before: every object of
#: the file replaced (dropped first if there), owned by the site's own database user.
OWNED_BY_THE_SITE = ("--no-owner", "--no-privileges")
RESTORE_OPTIONS = ("--clean", "--if-exists", *OWNED_BY_THE_SITE)


def _pg_command(tool: str, *args) -> tuple[list, dict]:
    """``tool`` on the site's database: its arguments and the child's environment.

    The connection is Django's (host, port, user, database name); the password
    goes in the child's ``PGPASSWORD`` only, never on its command line. What
    Django's settings leave out, libpq takes from the environment, for the site's
    own connection and for the tool alike.
    """
    config = connection.settings_dict
    env = dict(os.environ)
    for option, variable in PG_OPTION_ENV.items():
        if config.get("OPTIONS", {}).get(option) not in (None, ""):
            env[variable] = str(config["OPTIONS"][option])
    if config.get("PASSWORD"):
        env["PGPASSWORD"] = str(config["PASSWORD"])
    command = [shutil.which(tool) or tool]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if config.get(key):
            command.append(f"{flag}={config[key]}")
    name = str(config["NAME"]).replace("\\", "\\\\").replace("'", "\\'")
    command.append(f"--dbname=dbname='{name}'")  # a conninfo: a name with "=" stays a name
    return [*command, *args], env


def _last_line(text: str) -> str:
    """A PostgreSQL tool's last line of output, without its name and ``error:``."""
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    if not lines:
        return "no output"
    return re.sub(r"^(?:pg_\w+: )?(?:error: )?", "", lines[-1].strip())


def _pg_dump(target: Path):
    """``pg_dump --format=custom`` of the site into ``target``: one repeatable-read
    transaction, so one snapshot. Sessions are left out, as the JSON dump does."""
    from django.contrib.sessions.models import Session

    command, env = _pg_command(
        "pg_dump",
        "--format=custom",
        f"--file={target}",
        f"--exclude-table-data={Session._meta.db_table}",
    )
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"pg_dump failed: {_last_line(result.stderr)}")


def _pg_lines(command, env, *, limit, name, what):
    """The lines ``command`` writes (bytes, without their newline), at most ``limit`` bytes.

    A tool that fails, or writes more, is a file that cannot be restored.
    """
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=errors, bufsize=2**20
        )
        size = 0
        try:
            for line in process.stdout:
                size += len(line)
                if size > limit:
                    raise BackupRejected(f"{name} is too large when unpacked ({what}).")
                yield line[:-1] if line.endswith(b"\n") else line
        finally:
            process.stdout.close()
            if process.poll() is None:
                process.kill()
            process.wait()
        if process.returncode != 0:
            errors.seek(0)
            message = _last_line(errors.read().decode("utf-8", "replace"))
            raise BackupRejected(f"{name} is damaged ({what}): {message}.")


def _tool_major(tool: str) -> int:
    """The major version of an installed PostgreSQL tool (``pg_restore --version``)."""
    out = subprocess.run(
        [shutil.which(tool) or tool, "--version"], capture_output=True, text=True, check=True
    ).stdout
    return int(re.search(r"\) (\d+)", out).group(1))


def _read_dump_header(path: Path) -> str:
    """The version of the pg_dump that wrote ``path``, read from its header.

    The custom format's header: ``PGDMP``, the archive's version (3 bytes), the
    sizes of its integers and offsets, its format (1: custom), its compression,
    the time it was made, then three strings: the database's name, the server's
    version and pg_dump's.
    """
    name = path.name
    with path.open("rb") as handle:
        head = handle.read(4096)
    if not head.startswith(DUMP_MAGIC):
        raise BackupRejected(f"{name} is not a pg_dump archive.")
    if len(head) < 11 or head[10] != 1:
        raise BackupRejected(f"{name} is not in pg_dump's custom format (made with -Fc).")
    version, int_size = tuple(head[5:8]), head[8]
    at = 11

    def read_int():
        nonlocal at
        if not 1 <= int_size <= 8 or at + 1 + int_size > len(head):
            raise BackupRejected(f"{name} has a damaged header.")
        sign, value = head[at], int.from_bytes(head[at + 1 : at + 1 + int_size], "little")
        at += 1 + int_size
        return -value if sign else value

    def read_str():
        nonlocal at
        length = read_int()
        if length < 0:
            return ""
        if at + length > len(head):
            raise BackupRejected(f"{name} has a damaged header.")
        at += length
        return head[at - length : at].decode("utf-8", "replace")

    if version < (1, 10, 0):
        raise BackupRejected(f"{name} was made by a pg_dump too old to restore here.")
    if version >= (1, 15, 0):
        at += 1  # the compression algorithm, a byte
    else:
        read_int()  # the compression level
    for _field in range(7):  # the time the archive was made
        read_int()
    read_str()  # the database's name
    read_str()  # the server's version
    return read_str()


def _check_dump_version(path: Path, made_by: str):
    """A dump made by a newer pg_dump than the installed pg_restore is refused."""
    found = re.match(r"\d+", made_by)
    here = _tool_major("pg_restore")
    if found is None or int(found.group()) > here:
        raise BackupRejected(
            f"{path.name} was made by pg_dump {made_by or '(unknown)'}, newer than the "
            f"installed pg_restore {here}: restore it where pg_restore "
            f"{found.group() if found else ''} or newer is installed (Debian's "
            "postgresql-client)."
        )


#: Lines of pg_restore's SQL whose text differs from one dump to the next, though the
#: schema is the same: a key psql's script mode uses, and the versions that made it.
VARYING_LINE = re.compile(
    r"(\\(?:un)?restrict )[A-Za-z0-9]+|(-- Dumped (?:from database|by pg_dump) version )[ -~]*"
)
#: PostgreSQL prints a list check on a text column (``x IN ('a', 'b')`` of Django's
#: migrations) as ``= ANY ((ARRAY['a'::character varying, ...])::text[])``, and once a
#: restore has made it again from that text, as ``= ANY (ARRAY[('a'::character
#: varying)::text, ...])``: the same condition, so a dump taken before a restore (its
#: safety copy) has another text than the database after it. Both are compared in the
#: first form (:func:`_same_schema_line`).
_VARCHAR_LITERAL = rb"'(?:[^']|'')*'::character varying"
#: A list check's values in the form a restore leaves them: each value cast, ", " between.
RESTORED_LIST = re.compile(
    rb"= ANY \(ARRAY\[(\(%s\)::text(?:, \(%s\)::text)*)\]\)" % ((_VARCHAR_LITERAL,) * 2)
)
CAST_VALUE = re.compile(rb"\((%s)\)::text" % _VARCHAR_LITERAL)
#: A comment, in pg_restore's SQL of the data: printable text up to the end of its line.
COMMENT_LINE = re.compile(r"--(?: [ -~]*)?")
SETVAL_LINE = re.compile(
    r"SELECT pg_catalog\.setval\('([A-Za-z0-9_.\"]+)', -?\d+, (?:true|false)\);"
)


def _live_layout():
    """What the live database's data may hold, as pg_restore writes it: each table's
    ``COPY`` line (table -> its name), and the names of its sequences."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT c.relkind, c.relname,
                   quote_ident(n.nspname) || '.' || quote_ident(c.relname),
                   (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum)
                      FROM pg_attribute a
                     WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                       AND a.attgenerated = '')
              FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE c.relkind IN ('r', 'p', 'S')
               AND n.nspname NOT IN ('pg_catalog', 'information_schema')
               AND n.nspname NOT LIKE 'pg\\_%'
            """
        )
        rows = cursor.fetchall()
    tables = {
        f"COPY {qualified} ({columns or ''}) FROM stdin;": name
        for kind, name, qualified, columns in rows
        if kind != "S"
    }
    sequences = {qualified for kind, _name, qualified, _columns in rows if kind == "S"}
    return tables, sequences


def _copy_text_field(value: bytes) -> str:
    """One field of COPY's text format, its backslash escapes undone."""
    escapes = {ord("t"): b"\t", ord("n"): b"\n", ord("r"): b"\r", ord("b"): b"\b"}
    out, i = bytearray(), 0
    while i < len(value):
        if value[i] == ord("\\") and i + 1 < len(value):
            out += escapes.get(value[i + 1], value[i + 1 : i + 2])
            i += 2
        else:
            out.append(value[i])
            i += 1
    return out.decode("utf-8", "replace")


def _canonical_schema_line(line: bytes) -> bytes:
    """``line`` with each list check in the form Django's migrations give it (see
    ``RESTORED_LIST``): only in a constraint's or an index's line, only inside the list."""
    if b"ARRAY[(" not in line or not line.lstrip().startswith(
        (b"CONSTRAINT ", b"CREATE INDEX ", b"CREATE UNIQUE INDEX ")
    ):
        return line
    return RESTORED_LIST.sub(
        lambda found: b"= ANY ((ARRAY[" + CAST_VALUE.sub(rb"\1", found.group(1)) + b"])::text[])",
        line,
    )


def _same_schema_line(line: bytes, wanted: bytes) -> bool:
    """Whether two lines of schema say the same: equal, equal but for what differs from
    one dump to the next (``VARYING_LINE``), or for the form of a list check."""
    if line == wanted:
        return True
    varying = VARYING_LINE.fullmatch(line.decode("utf-8", "replace"))
    expected = VARYING_LINE.fullmatch(wanted.decode("utf-8", "replace"))
    if varying and expected:
        return varying.groups() == expected.groups()
    return _canonical_schema_line(line) == _canonical_schema_line(wanted)


def _check_dump_schema(path: Path) -> list:
    """The dump's schema, as pg_restore would run it, must be the live database's.

    Both are written by PostgreSQL's tools with the restore's own options and
    compared line by line: what pg_restore would run is what the site's
    migrations made, so no function, trigger, view or statement of the file's
    own is ever run. Returns the reference's ``SET`` lines (the only settings the
    data part may make).
    """
    name = path.name
    found = list(
        _pg_lines(
            [shutil.which("pg_restore"), "--schema-only", *RESTORE_OPTIONS, "--file=-", str(path)],
            dict(os.environ),
            limit=MAX_DUMP_SCHEMA_BYTES,
            name=name,
            what="its schema",
        )
    )
    command, env = _pg_command("pg_dump", "--schema-only", *RESTORE_OPTIONS)
    result = subprocess.run(command, env=env, capture_output=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"pg_dump failed: {_last_line(result.stderr.decode())}")
    expected = result.stdout.split(b"\n")
    if expected and expected[-1] == b"":
        expected.pop()
    for number, (line, wanted) in enumerate(zip(found, expected, strict=False), start=1):
        if _same_schema_line(line, wanted):
            continue
        text = line.decode("utf-8", "replace")
        raise BackupRejected(
            f"{name} does not have this database's schema: line {number} is {text[:80]!r}, "
            f"not {wanted.decode('utf-8', 'replace')[:80]!r}. A dump of another version of "
            "the site, or of another PostgreSQL, restores with the version that made it."
        )
    if len(found) != len(expected):
        raise BackupRejected(
            f"{name} does not have this database's schema: it has {len(found)} lines of "
            f"schema, this database {len(expected)}."
        )
    return [line for line in expected if line.startswith((b"SET ", b"SELECT pg_catalog.set_"))]


def _check_dump_data(path: Path, settings_lines) -> tuple[dict, set]:
    """Read every row of the dump, as pg_restore would load it: rows per table, and
    the migrations (``django_migrations``) it holds.

    Outside the rows, each line must be one pg_restore writes for data: a
    comment, a ``SET`` of the schema's own, a ``COPY`` into a table of the live
    database with its columns (once per table), or a sequence's ``setval``.
    """
    name = path.name
    tables, sequences = _live_layout()
    allowed = set(settings_lines)
    rows, migrations = {}, set()
    copying = columns = None
    for line in _pg_lines(
        [shutil.which("pg_restore"), "--data-only", *OWNED_BY_THE_SITE, "--file=-", str(path)],
        dict(os.environ),
        limit=MAX_DUMP_UNPACKED_BYTES,
        name=name,
        what="its rows",
    ):
        if copying is not None:
            if line == b"\\.":
                copying = None
            else:
                rows[copying] += 1
                if columns:
                    fields = line.split(b"\t")
                    if len(fields) > max(columns):
                        migrations.add(tuple(_copy_text_field(fields[i]) for i in columns))
            continue
        text = line.decode("ascii", "replace")
        if line in allowed or not line or COMMENT_LINE.fullmatch(text):
            continue
        if VARYING_LINE.fullmatch(text) and text.startswith("\\"):
            continue
        setval = SETVAL_LINE.fullmatch(text)
        if setval and setval.group(1) in sequences:
            continue
        if text in tables and tables[text] not in rows:
            copying = tables[text]
            rows[copying] = 0
            columns = None
            if copying == MigrationRecorder.Migration._meta.db_table:
                listed = text[text.index("(") + 1 : text.index(")")].split(", ")
                columns = (listed.index("app"), listed.index("name"))
            continue
        raise BackupRejected(
            f"{name} holds a statement a backup of this site does not: {text[:80]!r}."
        )
    if copying is not None:
        raise BackupRejected(f"{name} is cut short: the rows of {copying} do not end.")
    return rows, migrations


def _check_dump(path: Path) -> dict:
    """A pg_dump archive of this site, made for this database: the rows of each model.

    Checked with the installed pg_restore, without restoring anything: the
    header (a custom-format archive of a pg_dump no newer than pg_restore), its
    table of contents (``pg_restore --list``), its schema (exactly the live
    database's, see :func:`_check_dump_schema`), then every row
    (:func:`_check_dump_data`), which also reads its migrations.
    """
    name = path.name
    size = path.stat().st_size
    if size > MAX_DUMP_BYTES:
        raise BackupRejected(
            f"{name} is too large ({size} bytes); a backup of up to {MAX_DUMP_BYTES} bytes "
            "is restored."
        )
    if not shutil.which("pg_restore"):
        raise BackupRejected(
            "A .dump backup is restored with pg_restore, which is not installed "
            "(Debian's postgresql-client)."
        )
    _check_dump_version(path, _read_dump_header(path))
    listed = subprocess.run(
        [shutil.which("pg_restore"), "--list", str(path)], capture_output=True, check=False
    )
    if listed.returncode != 0:
        message = _last_line(listed.stderr.decode("utf-8", "replace"))
        raise BackupRejected(f"{name} is damaged: {message}.")
    _check_live_database_migrated()
    settings_lines = _check_dump_schema(path)
    rows, migrations = _check_dump_data(path, settings_lines)
    _check_migrations(name, migrations)
    labels = {model._meta.db_table: model._meta.label_lower for model in backed_up_models()}
    missing = sorted(table for table in labels if table not in rows)
    if missing:
        raise BackupRejected(
            f"{name} is not a backup of the whole site: the rows of {len(missing)} tables are "
            f"missing (for example {missing[0]})."
        )
    return {label: rows[table] for table, label in labels.items()}


def _restore_dump(checked: Path):
    """``pg_restore`` of the checked file into the live database, in one transaction.

    In place: every object of the file is dropped and made again, its rows
    loaded, all in one transaction, so a failure anywhere leaves the database as
    it was. (A new database swapped in would need the right to create databases,
    no other connection to the live one, and its settings and grants copied.)
    """
    if connection.in_atomic_block:
        raise RuntimeError("A .dump is restored outside any transaction of the site's own.")
    connection.close()  # nothing of this process's holds a lock the restore waits for
    command, env = _pg_command(
        "pg_restore", *RESTORE_OPTIONS, "--single-transaction", "--exit-on-error", str(checked)
    )
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    from django.contrib.contenttypes.models import ContentType

    ContentType.objects.clear_cache()
    if result.returncode != 0:
        errors = [line for line in result.stderr.splitlines() if "error:" in line]
        raise RuntimeError(f"pg_restore failed: {_last_line(errors[0] if errors else '')}")


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


def _check_live_database_migrated():
    """loaddata needs this version's tables, and a .dump is checked against them: the
    database must be migrated first."""
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
        _check_live_database_migrated()
    elif path.suffix == DUMP_SUFFIX:
        if connection.vendor != "postgresql":
            raise BackupRejected("A .dump backup restores into a PostgreSQL site only.")
        counts = _check_dump(path)
    else:
        raise BackupRejected("A backup is a .sqlite3, a .dump or a .json file.")
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
        elif checked.suffix == DUMP_SUFFIX:
            _restore_dump(checked)
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
