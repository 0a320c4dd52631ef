"""The end-of-evening backup and its restore, on the real database."""

import pytest
from django.core.management import CommandError, call_command

from clubs.backup import backup_database, restore_database
from clubs.models import Member
from tests import factories


@pytest.mark.django_db(transaction=True)
def test_backup_then_restore_brings_back_exactly_what_was_stored(tmp_path):
    club = factories.club(name="Back-up Club")
    factories.member(club, "Anneke 't Hart")
    factories.member(club, "Bert <b>Jansen</b>")
    path = backup_database(tmp_path)
    assert path.exists() and path.parent == tmp_path
    assert path.suffix in (".sqlite3", ".json")

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


@pytest.mark.django_db
def test_restore_refuses_without_yes_and_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="--yes"):
        call_command("restore", str(tmp_path / "x.sqlite3"))
    with pytest.raises(CommandError, match="No backup file"):
        call_command("restore", str(tmp_path / "x.sqlite3"), "--yes")
