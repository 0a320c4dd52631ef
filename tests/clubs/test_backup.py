"""The end-of-evening backup and its restore, on the real database."""

import io
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, connections

from clubs import backup as backup_module
from clubs.backup import backup_database, restore_database
from clubs.models import Club, Member
from tests import factories
from tests.migrating import laptop_migrate

ON_SQLITE = connection.vendor == "sqlite"
#: What ``backup`` writes on this database: on PostgreSQL pg_dump's archive where it is installed.
NATIVE_SUFFIX = ".sqlite3" if ON_SQLITE else ".dump" if shutil.which("pg_dump") else ".json"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path):
    """Safety copies and default backups go to a folder of the test's own."""
    settings.DATA_DIR = tmp_path / "data"
    return settings.DATA_DIR


def everything_stored():
    out = io.StringIO()
    # Content types and permissions are made by the site itself (not in a JSON backup).
    excluded = ["sessions", "axes", "contenttypes", "auth.permission"]
    call_command("dumpdata", *(f"--exclude={label}" for label in excluded), stdout=out)
    return sorted(json.dumps(item, sort_keys=True) for item in json.loads(out.getvalue()))


@pytest.mark.django_db(transaction=True)
def test_backup_then_restore_brings_back_exactly_what_was_stored(tmp_path):
    club = factories.club(name="Back-up Club")
    factories.member(club, "Anneke 't Hart")
    factories.member(club, "Bert <b>Jansen</b>")
    path = backup_database(tmp_path)
    assert path.exists() and path.parent == tmp_path
    assert path.suffix == NATIVE_SUFFIX

    Member.objects.filter(name__startswith="Bert").delete()
    factories.member(club, "Na de back-up")
    restore_database(path)

    assert sorted(Member.objects.values_list("name", flat=True)) == [
        "Anneke 't Hart",
        "Bert <b>Jansen</b>",
    ]


@pytest.mark.django_db(transaction=True)
def test_backup_command_writes_a_dated_file(tmp_path, capsys):
    call_command("backup", "-o", str(tmp_path))
    files = list(tmp_path.iterdir())
    assert len(files) == 1
    assert files[0].name.startswith("klaverjas-20")
    assert str(files[0]) in capsys.readouterr().out


@pytest.mark.django_db(transaction=True)
def test_backups_are_readable_by_their_owner_only_in_a_private_folder(data_dir):
    """They hold password hashes and live session keys."""
    path = backup_database()
    assert path.parent == data_dir / "backups"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    made_here = backup_database(data_dir / "elders" / "backups")
    assert stat.S_IMODE(made_here.stat().st_mode) == 0o600
    assert stat.S_IMODE(made_here.parent.stat().st_mode) == 0o700


@pytest.mark.django_db
def test_restore_refuses_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="No backup file"):
        call_command("restore", str(tmp_path / "x.sqlite3"))
    with pytest.raises(CommandError, match="No backup file"):
        call_command("restore", str(tmp_path / "x.sqlite3"), "--yes")


@pytest.mark.django_db(transaction=True)
def test_restore_says_what_the_database_will_hold_and_without_yes_changes_nothing(
    tmp_path, data_dir, capsys
):
    club = factories.club(name="Telclub")
    factories.member(club, "Eerste")
    factories.member(club, "Tweede")
    path = backup_database(tmp_path)
    factories.member(club, "Na de back-up")
    before = everything_stored()

    with pytest.raises(CommandError, match="--yes"):
        call_command("restore", str(path))
    out = capsys.readouterr().out
    assert "After the restore: 0 users, 1 club, 2 members" in out
    assert everything_stored() == before
    assert not (data_dir / "backups").exists()

    call_command("restore", str(path), "--yes")
    assert "After the restore: 0 users, 1 club, 2 members" in capsys.readouterr().out
    assert Member.objects.count() == 2


# --- Files that must be refused, before anything is touched --------------------------------


def _valid_backup(directory):
    club = Club.objects.first() or factories.club(name="Echte Club")
    factories.member(club, "Lid van de back-up")
    return backup_database(directory)


def _sqlite_file(directory, builder):
    path = directory / "kapot.sqlite3"
    builder(path)
    return path


def _damaged_pages(directory):
    good = _valid_backup(directory / "good")
    data = bytearray(good.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    assert len(data) >= 6 * page_size
    for page in (2, 3, 4):  # b-tree pages of the tables, past the header page
        start = page * page_size
        data[start : start + page_size] = bytes([0x0D, 0xFF, 0xFF, 0x7F]) * (page_size // 4)
    path = directory / "beschadigd.sqlite3"
    path.write_bytes(bytes(data))
    return path


def _truncated_sqlite(directory):
    good = _valid_backup(directory / "good")
    data = good.read_bytes()
    path = directory / "afgebroken.sqlite3"
    path.write_bytes(data[: len(data) // 2])
    return path


def _other_schema(directory):
    def build(path):
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE boodschappen (id INTEGER PRIMARY KEY, wat TEXT)")
        db.execute("INSERT INTO boodschappen (wat) VALUES ('melk')")
        db.commit()
        db.close()

    return _sqlite_file(directory, build)


def _other_version(directory):
    good = _valid_backup(directory / "good")
    db = sqlite3.connect(good)
    db.execute("INSERT INTO django_migrations (app, name, applied) VALUES ('clubs', '9999_x', 0)")
    db.commit()
    db.close()
    return good


def _random_bytes(directory, suffix):
    path = directory / f"willekeurig{suffix}"
    path.write_bytes(os.urandom(50_000))
    return path


def _json(directory, text):
    path = directory / "backup.json"
    path.write_text(text, encoding="utf-8")
    return path


def _truncated_json(directory):
    good = backup_json(directory / "good")
    data = good.read_text(encoding="utf-8")
    return _json(directory, data[: len(data) // 2])


def backup_json(directory):
    """A JSON backup on any database (the format PostgreSQL sites write)."""
    _valid_backup(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "klaverjas.json"
    with path.open("w", encoding="utf-8") as out:
        backup_module._dump_snapshot(out)
    return path


def _one_club_dump(directory):
    """What ``dumpdata clubs.club clubs.member`` writes: a list, no manifest."""
    _valid_backup(directory)
    out = io.StringIO()
    call_command("dumpdata", "clubs.club", "clubs.member", stdout=out)
    return _json(directory, out.getvalue())


def _whole_dump_without_manifest(directory):
    data = json.loads(backup_json(directory / "good").read_text(encoding="utf-8"))
    return _json(directory, json.dumps(data["objects"]))


def _changed_backup(change):
    """A JSON backup whose manifest or objects ``change(data)`` altered."""

    def build(directory):
        data = json.loads(backup_json(directory / "good").read_text(encoding="utf-8"))
        change(data)
        return _json(directory, json.dumps(data))

    return build


def _drop_members(data):
    data["objects"] = [o for o in data["objects"] if o["model"] != "clubs.member"]


def _only_one_club(data):
    """Keep one club's rows, and forge the counts to match."""
    keep = {"clubs.club", "clubs.member"}
    data["objects"] = [o for o in data["objects"] if o["model"] in keep]
    data["manifest"]["models"] = {
        label: count for label, count in data["manifest"]["models"].items() if label in keep
    }


def _unknown_model(data):
    data["objects"].append({"model": "shop.order", "pk": 1, "fields": {}})
    data["manifest"]["models"]["shop.order"] = 1


def _sessions_too(data):
    data["objects"].append({"model": "sessions.session", "pk": "k", "fields": {}})
    data["manifest"]["models"]["sessions.session"] = 1


def _other_migrations(data):
    data["manifest"]["migrations"].append(["clubs", "9999_x"])


def _other_format(data):
    data["manifest"]["format_version"] = 2


JSON_CASES = {
    "an empty list": (lambda d: _json(d, "[]"), "no manifest"),
    "no backup": (lambda d: _json(d, '{"model": "clubs.club"}'), "no manifest"),
    "random bytes": (lambda d: _random_bytes(d, ".json"), "not a JSON backup"),
    "a cut-short file": (_truncated_json, "cut short"),
    "one club's objects": (_one_club_dump, "no manifest"),
    "a whole dump without manifest": (_whole_dump_without_manifest, "no manifest"),
    "fewer objects than the manifest says": (
        _changed_backup(_drop_members),
        "does not match its manifest: it says 1 clubs.member, the file holds 0",
    ),
    "one club's objects with a manifest of them": (
        _changed_backup(_only_one_club),
        "not a backup of the whole site",
    ),
    "an unknown model": (_changed_backup(_unknown_model), "'shop.order', which a backup"),
    "sessions": (_changed_backup(_sessions_too), "'sessions.session', which a backup"),
    "another version": (_changed_backup(_other_migrations), "another version"),
    "another format": (_changed_backup(_other_format), "format version 2"),
    "a damaged manifest": (
        _changed_backup(lambda data: data["manifest"].update(models=[])),
        "damaged manifest",
    ),
    "deeply nested": (lambda d: _json(d, "[" * 100_000 + "]" * 100_000), "not a JSON backup"),
}


def _changed_sqlite(*statements):
    """A SQLite backup of this site with ``statements`` run on it."""

    def build(directory):
        good = _valid_backup(directory / "good")
        db = sqlite3.connect(good)
        for statement in statements:
            db.execute(statement)
        db.commit()
        db.close()
        return good

    return build


def _a_unique_index():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type='index' AND tbl_name='clubs_member' "
            "AND sql LIKE 'CREATE UNIQUE INDEX%' ORDER BY name"
        )
        return cursor.fetchone()[0]


PLANTED_TRIGGER = (
    "CREATE TRIGGER every_signup_a_superuser AFTER INSERT ON auth_user "
    "BEGIN UPDATE auth_user SET is_superuser=1, is_staff=1 WHERE id=NEW.id; END"
)


def _written_into_sqlite_master(kind, name, table, sql):
    """A schema row written straight into ``sqlite_master`` (as ``PRAGMA writable_schema``
    allows), under a name SQLite keeps for itself: ``integrity_check`` still says ok."""

    def build(directory):
        good = _valid_backup(directory / "good")
        db = sqlite3.connect(good)
        db.execute("PRAGMA writable_schema=ON")
        db.execute(
            "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql)"
            " VALUES (?, ?, ?, 0, ?)",
            (kind, name, table, sql),
        )
        db.commit()
        db.close()
        return good

    return build


SQLITE_CASES = {
    "a planted trigger named like SQLite's own": (
        _written_into_sqlite_master(
            "trigger",
            "sqlite_evil",
            "auth_user",
            PLANTED_TRIGGER.replace("every_signup_a_superuser", "sqlite_evil"),
        ),
        "it has a trigger 'sqlite_evil' of its own (on auth_user)",
    ),
    "random bytes": (lambda d: _random_bytes(d, ".sqlite3"), "not a SQLite database"),
    "damaged pages": (_damaged_pages, "damaged"),
    "a cut-short file": (_truncated_sqlite, "damaged"),
    "another schema": (_other_schema, "not a backup of this site"),
    "another version": (_other_version, "another version"),
    "a planted trigger": (
        _changed_sqlite(PLANTED_TRIGGER),
        "it has a trigger 'every_signup_a_superuser' of its own (on auth_user)",
    ),
    "a view": (
        _changed_sqlite("CREATE VIEW names AS SELECT name FROM clubs_member"),
        "it has a view 'names' of its own",
    ),
    "an index of its own": (
        _changed_sqlite("CREATE INDEX extra ON clubs_member (name)"),
        "it has an index 'extra' of its own",
    ),
    "a dropped unique index and a planted trigger": (
        lambda d: _changed_sqlite(f'DROP INDEX "{_a_unique_index()}"', PLANTED_TRIGGER)(d),
        "every_signup_a_superuser",
    ),
    "a dropped unique index": (
        lambda d: _changed_sqlite(f'DROP INDEX "{_a_unique_index()}"')(d),
        "it lacks the index",
    ),
    "a changed table": (
        _changed_sqlite("ALTER TABLE clubs_member ADD COLUMN secret TEXT"),
        "its table 'clubs_member' differs from this version's",
    ),
}


def assert_refused_and_untouched(path, match, data_dir):
    factories.member(factories.club(name="Huidige Club"), "Blijft staan")
    before = everything_stored()
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), "--yes")
    message = str(refused.value)
    assert message.startswith("Not restored, nothing changed:")
    assert match in message and "\n" not in message
    assert everything_stored() == before
    safety = data_dir / "backups"
    assert not safety.exists() or not list(safety.glob("before-restore-*"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("case", JSON_CASES)
def test_restore_refuses_a_json_file_that_is_no_backup(tmp_path, data_dir, case):
    build, match = JSON_CASES[case]
    (tmp_path / "in").mkdir()
    path = build(tmp_path / "in")
    assert_refused_and_untouched(path, match, data_dir)


@pytest.mark.skipif(not ON_SQLITE, reason="a .sqlite3 backup restores into a SQLite site")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("case", SQLITE_CASES)
def test_restore_refuses_a_sqlite_file_that_is_no_good_backup(tmp_path, data_dir, case):
    build, match = SQLITE_CASES[case]
    (tmp_path / "in").mkdir()
    path = build(tmp_path / "in")
    assert_refused_and_untouched(path, match, data_dir)


@pytest.mark.django_db(transaction=True)
def test_restore_writes_a_safety_copy_first_and_says_where(tmp_path, data_dir, capsys):
    club = factories.club(name="Back-up Club")
    factories.member(club, "In de back-up")
    path = backup_database(tmp_path)
    factories.member(club, "Na de back-up")
    before = everything_stored()

    call_command("restore", str(path), "--yes")

    out = capsys.readouterr().out
    safety = next((data_dir / "backups").glob("before-restore-*"))
    assert str(safety) in out
    assert stat.S_IMODE(safety.stat().st_mode) == 0o600
    assert "Na de back-up" not in Member.objects.values_list("name", flat=True)
    call_command("restore", str(safety), "--yes")
    assert everything_stored() == before


@pytest.mark.django_db(transaction=True)
def test_a_restore_that_fails_half_way_leaves_the_database_as_it_was(tmp_path, monkeypatch, capsys):
    club = factories.club(name="Back-up Club")
    factories.member(club, "In de back-up")
    path = backup_database(tmp_path) if ON_SQLITE else backup_json(tmp_path)
    factories.member(club, "Na de back-up")
    before = everything_stored()

    if ON_SQLITE:
        real_copy = backup_module._copy_sqlite_into_live
        calls = []

        def copy_then_fail(source):
            calls.append(source)
            real_copy(source)
            if len(calls) == 1:
                raise OSError("disk full")

        monkeypatch.setattr(backup_module, "_copy_sqlite_into_live", copy_then_fail)
    else:
        real_call_command = backup_module.call_command

        def load_then_fail(name, *args, **kwargs):
            real_call_command(name, *args, **kwargs)
            if name == "loaddata":
                raise OSError("disk full")

        monkeypatch.setattr(backup_module, "call_command", load_then_fail)

    with pytest.raises(CommandError, match="failed, the database is as it was: disk full"):
        call_command("restore", str(path), "--yes")
    assert everything_stored() == before


@pytest.mark.django_db(transaction=True)
def test_restore_from_the_command_line_refuses_in_one_line_without_a_traceback(tmp_path):
    path = _random_bytes(tmp_path, ".sqlite3")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "KLAVERJAS_DATA_DIR": str(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "restore", str(path), "--yes"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Not restored" in lines[0]


@pytest.mark.skipif(ON_SQLITE, reason="SQLite's backup API copies one consistent state")
@pytest.mark.django_db(transaction=True)
def test_a_backup_taken_while_another_connection_writes_is_one_snapshot(tmp_path, monkeypatch):
    """Clubs are dumped before members: a club and its member written by another
    connection half-way through the dump must be in the file both or neither."""
    factories.member(factories.club(name="Oude Club"), "Oud lid")
    from django.core.serializers import json as json_serializer

    real_end_object = json_serializer.Serializer.end_object
    written = threading.Event()

    def write_elsewhere():
        try:
            factories.member(factories.club(name="Nieuwe Club"), "Nieuw lid")
        finally:
            connections.close_all()

    def end_object(self, obj):
        real_end_object(self, obj)
        if isinstance(obj, Club) and not written.is_set():
            writer = threading.Thread(target=write_elsewhere)
            writer.start()
            writer.join()
            written.set()

    monkeypatch.setattr(json_serializer.Serializer, "end_object", end_object)
    path = backup_database(tmp_path, as_json=True)
    assert written.is_set()
    monkeypatch.undo()

    dumped = json.loads(path.read_text(encoding="utf-8"))["objects"]
    clubs = {item["fields"]["name"] for item in dumped if item["model"] == "clubs.club"}
    members = {item["fields"]["name"] for item in dumped if item["model"] == "clubs.member"}
    assert clubs == {"Oude Club"} and members == {"Oud lid"}
    restore_database(path)
    assert set(Member.objects.values_list("name", flat=True)) == {"Oud lid"}


@pytest.mark.skipif(not ON_SQLITE, reason="a .sqlite3 backup restores into a SQLite site")
@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_onto_a_fresh_laptop_before_migrate(tmp_path):
    factories.member(factories.club(name="Verhuisde Club"), "Meeverhuisd")
    path = backup_database(tmp_path / "usb")
    laptop = tmp_path / "laptop"
    env = {
        **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        "DJANGO_SETTINGS_MODULE": "config.settings.development",
        "KLAVERJAS_DATA_DIR": str(laptop),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "restore", str(path), "--yes"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "before-restore-" in result.stdout
    restored = sqlite3.connect(laptop / "db.sqlite3")
    try:
        names = [row[0] for row in restored.execute("SELECT name FROM clubs_member")]
    finally:
        restored.close()
    assert names == ["Meeverhuisd"]


# --- Safety copies are whole, and the live database is private -------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_backup_that_fails_half_way_leaves_no_file(tmp_path, monkeypatch):
    """A dump that breaks off (on PostgreSQL: a table missing) left a 1-byte "[" file."""
    factories.member(factories.club(name="Halve Club"), "Half")
    if ON_SQLITE:

        def fail(*args, **kwargs):
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(backup_module.sqlite3, "connect", fail)
    else:
        real_call_command = backup_module.call_command

        def dump_then_fail(name, *args, stdout=None, **kwargs):
            stdout.write("[")
            raise RuntimeError('relation "auth_group" does not exist')

        monkeypatch.setattr(backup_module, "call_command", dump_then_fail)
        assert real_call_command
    with pytest.raises(Exception, match="disk I/O error|does not exist"):
        backup_database(tmp_path, as_json=not ON_SQLITE)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "as_json",
    [
        True,
        pytest.param(
            False,
            marks=pytest.mark.skipif(
                NATIVE_SUFFIX != ".dump",
                reason="a .sqlite3 backup restores onto a fresh laptop before migrate; "
                "the .dump of pg_dump on PostgreSQL is checked against the live schema",
            ),
        ),
    ],
    ids=["json", "dump"],
)
def test_a_restore_into_a_database_not_yet_migrated_is_refused_before_the_safety_copy(
    tmp_path, data_dir, as_json
):
    path = backup_json(tmp_path) if as_json else _valid_backup(tmp_path)
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, app, name, applied FROM django_migrations ORDER BY id DESC")
        last = cursor.fetchone()
        cursor.execute("DELETE FROM django_migrations WHERE id = %s", [last[0]])
    try:
        with pytest.raises(CommandError, match="run `manage.py migrate` first"):
            call_command("restore", str(path), "--yes")
    finally:
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO django_migrations (id, app, name, applied) VALUES (%s, %s, %s, %s)",
                list(last),
            )
    assert not (data_dir / "backups").exists()


@pytest.mark.django_db(transaction=True)
def test_the_safety_copy_is_a_whole_backup_that_restores(tmp_path, data_dir, capsys):
    club = factories.club(name="Veilige Club")
    factories.member(club, "Voor de restore")
    factories.user("beheerder")
    path = backup_json(tmp_path) if not ON_SQLITE else backup_database(tmp_path)
    factories.member(club, "Na de back-up")
    before, members = everything_stored(), Member.objects.count()

    safety = restore_database(path)
    assert "Na de back-up" not in Member.objects.values_list("name", flat=True)
    checked = backup_module.check_backup(safety)  # a backup the restore accepts
    assert checked.counts["clubs.member"] == members and checked.counts["auth.user"] == 1
    restore_database(safety)
    assert everything_stored() == before


def _mode(path):
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="the club laptop's SQLite file")
def test_the_live_database_is_private_once_the_site_opens_it(tmp_path, laptop_database):
    """An existing laptop's database was 0644 in a 0755 folder; migrate makes it 0600/0700."""
    data = tmp_path / "var"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    laptop_database(data / "db.sqlite3").chmod(0o644)  # migrated already: migrate only opens it
    result = laptop_migrate(data)
    assert result.returncode == 0, result.stderr
    assert _mode(data) == 0o700
    assert _mode(data / "db.sqlite3") == 0o600
    db = sqlite3.connect(data / "db.sqlite3")
    try:
        assert db.execute("SELECT COUNT(*) FROM django_migrations").fetchone()[0] > 0
    finally:
        db.close()


@pytest.mark.skipif(not ON_SQLITE, reason="the club laptop's SQLite file")
@pytest.mark.django_db
def test_a_new_connection_makes_the_database_and_its_wal_files_private(tmp_path, settings):
    """The same hook, in this process: a fresh connection on a real SQLite file in WAL mode."""
    settings.DATA_DIR = tmp_path
    tmp_path.chmod(0o755)
    name = tmp_path / "site.sqlite3"
    wrapper_class = connections["default"].__class__
    live = wrapper_class({**connection.settings_dict, "NAME": str(name)}, "private-check")
    live.connect()  # as the site does; connection_created fires
    try:
        live.connection.execute("CREATE TABLE t (x)")
        for path in (name, Path(f"{name}-wal"), Path(f"{name}-shm")):
            assert _mode(path) == 0o600, path
        assert _mode(tmp_path) == 0o700
    finally:
        live.close()
