"""Issue 24: two archive imports with the same short name at the same moment.

The second sees no club of that name yet (the first has not committed), so only the
database's unique index stops it: on PostgreSQL its INSERT waits for the first
import's transaction and then fails. That is the form's "this short name is taken",
not an IntegrityError and a 500. On SQLite the second import's transaction waits for
the first (one writer at a time) and finds the name taken. Run on both databases.
"""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from clubs.models import Club, Member
from scoring.exports import archive
from tests import factories
from tests.locks import until_lock_waiters

pytestmark = pytest.mark.django_db(transaction=True)


def _wait_until_another_insert_waits():
    """On PostgreSQL: until another connection waits for a lock (the second import's
    INSERT of the same short name waits for this transaction). SQLite's second writer
    waits for the whole transaction; nothing to wait for here."""
    if connection.vendor == "postgresql":
        until_lock_waiters(1, what="the second import never waited for the first")


def test_two_imports_with_one_short_name_make_one_club_and_one_form_error(settings, monkeypatch):
    settings.CLUB_CREATION = "anyone"
    source = factories.club(name="Bron")
    for n in range(3):
        factories.member(source, f"Speler {n}")
    data = archive.club_archive_json(source)
    first_user, second_user = factories.user("eerste"), factories.user("tweede")

    club_saved = threading.Event()
    insert = archive._insert

    def held(label, read, club, new_pk):
        if threading.current_thread().name == "first" and label == "clubs.member":
            club_saved.set()  # the club row is written, not committed
            _wait_until_another_insert_waits()
        return insert(label, read, club, new_pk)

    monkeypatch.setattr(archive, "_insert", held)
    results = {}

    def run(user):
        try:
            results[threading.current_thread().name] = archive.club_archive_import(
                data=data, by=user, slug="zelfde"
            )
        except Exception as exc:  # noqa: BLE001 (the test looks at what it was)
            results[threading.current_thread().name] = exc
        finally:
            connection.close()

    first = threading.Thread(target=run, args=(first_user,), name="first")
    first.start()
    assert club_saved.wait(30)
    second = threading.Thread(target=run, args=(second_user,), name="second")
    second.start()
    first.join(60)
    second.join(60)

    assert isinstance(results["first"], Club), (results["first"], results.get("second"))
    refused = results["second"]
    assert isinstance(refused, ValidationError), repr(refused)
    assert list(refused.message_dict) == ["slug"]
    assert Club.objects.filter(slug="zelfde").count() == 1
    assert Member.objects.filter(club__slug="zelfde").count() == 3
    assert not Club.objects.filter(roles__user=second_user).exists()
