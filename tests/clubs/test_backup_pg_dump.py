"""PostgreSQL's backups with its own tools: ``pg_dump --format=custom`` and ``pg_restore``,
on the real database (the suite's PostgreSQL leg, ``DATABASE_URL``)."""

import io
import json
import shutil
import stat

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import CheckConstraint

from clubs import backup as backup_module
from clubs.backup import backup_database, check_backup, restore_database
from clubs.models import Club, Member
from tests import factories
from tests.clubs.test_backup import assert_refused_and_untouched, everything_stored

ON_POSTGRESQL = connection.vendor == "postgresql"
needs_pg_dump = [
    pytest.mark.skipif(
        not ON_POSTGRESQL,
        reason="pg_dump backs up PostgreSQL only: the PostgreSQL leg (DATABASE_URL) runs this",
    ),
    pytest.mark.skipif(
        not (shutil.which("pg_dump") and shutil.which("pg_restore")),
        reason="pg_dump and pg_restore are not installed (Debian's postgresql-client)",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path):
    """Safety copies and default backups go to a folder of the test's own."""
    settings.DATA_DIR = tmp_path / "data"
    return settings.DATA_DIR


def _safety_copies(data_dir):
    folder = data_dir / "backups"
    return sorted(folder.glob("before-restore-*")) if folder.exists() else []


def _execute(*statements):
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def _stored_club():
    club = factories.club(name="Klaverjasclub De Dump")
    for name in ("Anneke 't Hart", "Bert\tmet tab", "Cor\\Backslash", "Dirk Één"):
        factories.member(club, name)
    factories.user("beheerder")
    return club


def pg_dump_test(func):
    """A test of pg_dump and pg_restore on the suite's PostgreSQL database."""
    for mark in needs_pg_dump:
        func = mark(func)
    return func


@pg_dump_test
def test_backup_writes_a_private_pg_dump_archive_and_says_so(tmp_path, capsys):
    _stored_club()
    call_command("backup", "-o", str(tmp_path / "out"))
    out = capsys.readouterr().out
    (path,) = (tmp_path / "out").iterdir()
    assert path.name.startswith("klaverjas-20") and path.suffix == ".dump"
    assert path.read_bytes().startswith(b"PGDMP")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "pg_dump archive" in out and str(path) in out


@pg_dump_test
def test_backup_change_restore_gives_the_rows_back(tmp_path, data_dir, capsys):
    club = _stored_club()
    path = backup_database(tmp_path)
    before = everything_stored()
    members = dict(Member.objects.values_list("name", "id"))

    Member.objects.filter(name__startswith="Bert").delete()
    Member.objects.filter(name__startswith="Cor").update(name="Veranderd")
    factories.member(factories.club(name="Na de back-up"), "Nieuw lid")
    get_user_model().objects.all().delete()

    call_command("restore", str(path), "--yes")
    out = capsys.readouterr().out
    assert "After the restore: 1 user, 1 club, 4 members" in out
    assert everything_stored() == before
    assert Club.objects.get().name == club.name
    assert dict(Member.objects.values_list("name", "id")) == members
    assert get_user_model().objects.get().username == "beheerder"
    assert len(_safety_copies(data_dir)) == 1
    # The sequences came back too: a new row takes an id after the restored ones.
    assert factories.member(club, "Daarna").id > max(members.values())


#: One list check as PostgreSQL prints it after Django's migration made it, and after a
#: restore made it again from that text.
MIGRATED_CHECK = (
    b"    CONSTRAINT club_role_known CHECK (((role)::text = ANY ((ARRAY['member'::character "
    b"varying, 'admin'::character varying])::text[])))"
)
RESTORED_CHECK = (
    b"    CONSTRAINT club_role_known CHECK (((role)::text = ANY (ARRAY[('member'::character "
    b"varying)::text, ('admin'::character varying)::text])))"
)


def test_a_list_check_made_again_by_a_restore_is_the_same_schema():
    same = backup_module._same_schema_line
    assert same(RESTORED_CHECK, MIGRATED_CHECK) and same(MIGRATED_CHECK, RESTORED_CHECK)
    assert same(RESTORED_CHECK.replace(b"role)", b"rol)"), MIGRATED_CHECK) is False
    other_list = RESTORED_CHECK.replace(b"'admin'", b"'owner'")
    assert same(other_list, MIGRATED_CHECK) is False
    longer = RESTORED_CHECK.replace(b"])))", b", ('x'::character varying)::text])))")
    assert same(longer, MIGRATED_CHECK) is False
    assert same(RESTORED_CHECK + b"; DROP TABLE clubs_club", MIGRATED_CHECK) is False
    unseparated = RESTORED_CHECK.replace(b"::text, (", b"::text(")
    assert same(unseparated, MIGRATED_CHECK.replace(b", ", b"")) is False
    assert same(b"SELECT " + RESTORED_CHECK.strip(), b"SELECT " + MIGRATED_CHECK.strip()) is False


@pg_dump_test
def test_a_dump_taken_before_a_restore_restores_after_it(tmp_path, data_dir):
    """The safety copy of a database whose checks its migrations made: the restore makes
    them again from the dump's text, which PostgreSQL then prints otherwise."""
    for model in (Club, Member):
        for constraint in model._meta.constraints:
            if isinstance(constraint, CheckConstraint):  # as its migration made it
                with connection.schema_editor() as editor:
                    editor.remove_constraint(model, constraint)
                    editor.add_constraint(model, constraint)
    _stored_club()
    before = backup_database(tmp_path / "before")
    stored = everything_stored()
    restore_database(before)
    restore_database(before)  # the file of a schema as migrated, into one restored
    assert everything_stored() == stored


@pg_dump_test
def test_the_summary_is_read_from_the_dump_without_changing_anything(tmp_path, data_dir):
    _stored_club()
    path = backup_database(tmp_path)
    factories.member(Club.objects.get(), "Na de back-up")
    before = everything_stored()
    checked = check_backup(path)
    assert checked.counts["clubs.member"] == 4 and checked.counts["auth.user"] == 1
    assert checked.counts["clubs.club"] == 1
    assert everything_stored() == before
    assert not _safety_copies(data_dir)


def _a_dump(directory):
    _stored_club()
    return backup_database(directory)


def _changed_bytes(change):
    def build(directory):
        path = _a_dump(directory)
        path.write_bytes(change(path.read_bytes()))
        return path

    return build


def _cut_in_half(data):
    return data[: len(data) // 2]


def _rows_overwritten(data):
    """The last kilobytes (compressed rows) overwritten."""
    return data[:-4000] + bytes(range(256)) * 15 + data[-160:]


def _schema_changed(data):
    """A table's definition in the table of contents changed (same length)."""
    old = b"CREATE TABLE public.clubs_member ("
    assert old in data
    return data.replace(old, b"CREATE TABLE public.clubs_mEmber (")


def _with_live_change(setup, teardown):
    """A dump of the live database while ``setup`` holds (undone before the restore)."""

    def build(directory):
        _stored_club()
        _execute(*setup)
        try:
            return backup_database(directory)
        finally:
            _execute(*teardown)

    return build


def _newer_pg_dump(directory):
    path = _a_dump(directory)
    made_by = backup_module._read_dump_header(path)
    major = made_by.split(".")[0]
    data = bytearray(path.read_bytes())
    at = data.rfind(made_by.encode(), 0, 4096)
    data[at : at + len(major)] = b"9" * len(major)
    path.write_bytes(bytes(data))
    return path


def _plain_sql(directory):
    path = directory / "klaverjas.dump"
    path.write_text("DROP TABLE clubs_member;\n", encoding="utf-8")
    return path


PLANT_TRIGGER = (
    "CREATE FUNCTION every_signup_a_superuser() RETURNS trigger LANGUAGE plpgsql AS "
    "$$ BEGIN NEW.is_superuser := true; RETURN NEW; END $$",
    "CREATE TRIGGER every_signup_a_superuser BEFORE INSERT ON auth_user "
    "FOR EACH ROW EXECUTE FUNCTION every_signup_a_superuser()",
)
REMOVE_TRIGGER = (
    "DROP TRIGGER every_signup_a_superuser ON auth_user",
    "DROP FUNCTION every_signup_a_superuser()",
)

DUMP_CASES = {
    "plain SQL": (_plain_sql, "is not a pg_dump archive"),
    "a cut-short file": (_changed_bytes(_cut_in_half), "is damaged"),
    "overwritten rows": (_changed_bytes(_rows_overwritten), "is damaged"),
    "a changed table": (_changed_bytes(_schema_changed), "does not have this database's schema"),
    "a planted trigger": (
        _with_live_change(PLANT_TRIGGER, REMOVE_TRIGGER),
        "does not have this database's schema",
    ),
    "an unknown migration": (
        _with_live_change(
            [
                "INSERT INTO django_migrations (app, name, applied) "
                "VALUES ('clubs', '9999_x', now())"
            ],
            ["DELETE FROM django_migrations WHERE name = '9999_x'"],
        ),
        "made by another version of this site: 1 migrations differ (for example clubs.9999_x)",
    ),
    "a newer pg_dump": (_newer_pg_dump, "newer than the installed pg_restore"),
}


@pg_dump_test
@pytest.mark.parametrize("case", DUMP_CASES)
def test_restore_refuses_a_dump_that_is_no_good_backup(tmp_path, data_dir, case):
    build, match = DUMP_CASES[case]
    (tmp_path / "in").mkdir()
    path = build(tmp_path / "in")
    assert_refused_and_untouched(path, match, data_dir)


@pg_dump_test
def test_a_dump_restore_that_fails_half_way_leaves_the_database_as_it_was(
    tmp_path, data_dir, monkeypatch
):
    """A view made on a table after the check: dropping the table fails mid-restore."""
    path = _a_dump(tmp_path)
    factories.member(Club.objects.get(), "Na de back-up")
    before = everything_stored()
    real_backup = backup_module.backup_database

    def safety_copy_then_a_view(*args, **kwargs):
        safety = real_backup(*args, **kwargs)
        _execute("CREATE VIEW member_names AS SELECT name FROM clubs_member")
        return safety

    monkeypatch.setattr(backup_module, "backup_database", safety_copy_then_a_view)
    try:
        with pytest.raises(CommandError, match="failed, the database is as it was: .*depend"):
            call_command("restore", str(path), "--yes")
        assert everything_stored() == before
    finally:
        _execute("DROP VIEW IF EXISTS member_names")


@pg_dump_test
def test_a_pg_dump_that_fails_leaves_no_file(tmp_path, monkeypatch):
    monkeypatch.setitem(connection.settings_dict, "NAME", "no_such_database_for_pg_dump")
    with pytest.raises(RuntimeError, match="pg_dump failed: .*no_such_database_for_pg_dump"):
        backup_database(tmp_path)
    assert list(tmp_path.iterdir()) == []


@pg_dump_test
def test_format_json_writes_the_json_dump_that_restores(tmp_path, capsys):
    _stored_club()
    call_command("backup", "-o", str(tmp_path), "--format", "json")
    assert "JSON dump" in capsys.readouterr().out
    (path,) = tmp_path.iterdir()
    assert path.suffix == ".json"
    assert json.loads(path.read_text(encoding="utf-8"))["manifest"]["models"]["clubs.member"] == 4
    Member.objects.all().delete()
    restore_database(path)
    assert Member.objects.count() == 4


@pytest.mark.skipif(not ON_POSTGRESQL, reason="pg_dump backs up PostgreSQL only")
@pytest.mark.django_db(transaction=True)
def test_without_pg_dump_the_backup_is_json_and_says_so(tmp_path, monkeypatch):
    _stored_club()
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))
    out = io.StringIO()
    call_command("backup", "-o", str(tmp_path / "out"), stdout=out)
    (path,) = (tmp_path / "out").iterdir()
    assert path.suffix == ".json"
    assert "pg_dump is not installed" in out.getvalue() and "JSON dump" in out.getvalue()


@pytest.mark.skipif(ON_POSTGRESQL, reason="a .dump is refused on a SQLite site")
@pytest.mark.django_db
def test_a_dump_is_refused_on_sqlite(tmp_path):
    path = tmp_path / "klaverjas.dump"
    path.write_bytes(b"PGDMP\x01\x0e\x00\x04\x08\x01")
    with pytest.raises(CommandError, match="restores into a PostgreSQL site only"):
        call_command("restore", str(path), "--yes")


def test_the_password_goes_to_the_tools_by_their_environment_only(monkeypatch):
    for key, value in {
        "NAME": "klaverjas",
        "USER": "site",
        "PASSWORD": "geheim-wachtwoord",
        "HOST": "127.0.0.1",
        "PORT": "5432",
    }.items():
        monkeypatch.setitem(connection.settings_dict, key, value)
    command, env = backup_module._pg_command("pg_dump", "--format=custom")
    assert not any("geheim" in part for part in command)
    assert env["PGPASSWORD"] == "geheim-wachtwoord"
    assert "--host=127.0.0.1" in command and "--username=site" in command
    assert "--dbname=dbname='klaverjas'" in command


def test_a_too_large_dump_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(backup_module, "MAX_DUMP_BYTES", 10)
    path = tmp_path / "groot.dump"
    path.write_bytes(b"PGDMP" + bytes(100))
    with pytest.raises(backup_module.BackupRejected, match="too large"):
        backup_module._check_dump(path)


def _rows_part_with(extra_line):
    """pg_restore's SQL of the rows as it reads them, with ``extra_line`` after the first
    table's rows (as a crafted archive could make it write)."""
    real = backup_module._pg_lines

    def lines(command, env, *, what, **kwargs):
        added = False
        for line in real(command, env, what=what, **kwargs):
            yield line
            if what == "its rows" and line == b"\\." and not added:
                added = True
                yield extra_line

    return lines


@pg_dump_test
@pytest.mark.parametrize(
    "extra_line",
    [
        b"COPY (SELECT 1) TO PROGRAM 'touch /tmp/klaverjas-pwned';",
        b"COPY public.auth_user (id, is_superuser) FROM stdin;",
        b"SELECT pg_catalog.setval('public.no_such_seq', 1, true);",
        b"SET search_path = evil;",
        b"-- a comment\rDROP TABLE clubs_member;",
    ],
)
def test_a_statement_among_the_rows_that_no_backup_holds_is_refused(
    tmp_path, monkeypatch, extra_line
):
    path = _a_dump(tmp_path)
    monkeypatch.setattr(backup_module, "_pg_lines", _rows_part_with(extra_line))
    with pytest.raises(backup_module.BackupRejected, match="holds a statement a backup"):
        check_backup(path)
