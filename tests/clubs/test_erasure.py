"""Issue 24: forgetting a member forgets them, in every table, the archive and the exports.

The person has everything the site can hold of a player: a name, a membership
number, an e-mail address, a phone number imported twice (so the import log
holds the old and the new one), a second record merged into theirs, a PIN, a
linked account that logged in, log lines and a confirmation naming them. After
"forget", every text column of every table (auth and axes included), every file
of the club archive (the XML inside each .xlsx too) and the member and results
downloads are searched for each value: none is found.
"""

import datetime
import io
import random
import zipfile

import pytest
from django.apps import apps
from django.db import connection, models
from django.test import Client
from django.urls import reverse

from clubs import imports, services
from clubs.models import Club, ClubLog, ClubRole, Member
from scoring.demo import play_game
from scoring.exports.archive import club_archive_zip
from scoring.models import Game
from tests import factories
from tests.common.spreadsheets import csv_bytes
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

NAME = "Wilhelmina Zevenbergen"
OTHER_NAME = "W. Zevenbergen-Dubbel"
NUMBER = "LID-88231"
OTHER_NUMBER = "LID-00777"
EMAIL = "wilhelmina.zevenbergen@example.org"
PHONE_OLD = "0612340001"
PHONE_NEW = "0698760002"
PASSWORD = "Klaver-Boer-Negen-9"
HEADER = ["Naam", "Lidnummer", "E-mail", "Telefoon"]


def _import(club, admin, phone):
    data = csv_bytes([HEADER, [NAME, NUMBER, EMAIL, phone]])
    preview = imports.member_import_preview(club=club, data=data, filename="leden.csv")
    assert preview.ok, preview.problems
    imports.member_import_apply(
        club=club,
        rows=preview.rows,
        by=admin,
        filename=preview.filename,
        columns=preview.columns,
        planned=preview.planned_changes,
    )


def _login(username, password=PASSWORD):
    client = Client(HTTP_USER_AGENT="Zevenbergen-Browser/1.0", HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(reverse("login"), {"username": username, "password": password})
    assert response.status_code == 302, response.content[:500]
    return client


def _play(club, admin, players, person):
    """An evening where every game at the person's table is confirmed by them."""
    rng = random.Random(3)
    season = factories.competition(club)
    evening = factories.evening(season, datetime.date(2026, 10, 6), present=players)
    round_ = tournament_services.round_draw(evening=evening, by=admin, seed=4)
    ruleset = season.ruleset()
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        names = [s.player_name for s in game.table.seats.select_related("member")]
        name = NAME if NAME in names else names[0]
        factories.game_played(game, play_game(ruleset, rng), by=admin, confirmed_by=name)
    return season


@pytest.fixture
def person_world(db):
    """(club, admin, the person's record, their account, the season, the other club)."""
    club = factories.club(name="De Zeven Bergen", slug="zeven-bergen", results_public=False)
    admin = factories.role(club, "admin", factories.user("zb-admin"))
    other = factories.club(name="Elders", slug="elders")
    other_admin = factories.role(other, "admin", factories.user("elders-admin"))
    _import(club, admin, PHONE_OLD)
    _import(club, admin, PHONE_NEW)
    person = Member.objects.get(club=club, membership_number=NUMBER)
    assert person.phone == PHONE_NEW
    double = factories.member(club, OTHER_NAME, membership_number=OTHER_NUMBER)
    services.member_merge(keep=person, remove=double, by=admin)
    services.member_pin_set(member=person, pin="4321", by=admin)
    players = [person, *(factories.member(club, f"Bergspeler {n}") for n in range(7))]
    season = _play(club, admin, players, person)
    assert Game.objects.filter(confirmed_by=NAME).exists()
    return club, admin, Member.objects.get(pk=person.pk), season, other, other_admin


def _link_account(club, admin, person, account):
    invitation = services.invitation_create(
        club=club, role="member", member=person, email=EMAIL, by=admin
    )
    services.invitation_accept(token=invitation.token, user=account)


def _text_hits(value):
    """(table, column) of every text column of every table that holds ``value``."""
    hits = []
    text_fields = (models.CharField, models.TextField, models.JSONField)
    with connection.cursor() as cursor:
        for model in apps.get_models(include_auto_created=True):
            table = connection.ops.quote_name(model._meta.db_table)
            for field in model._meta.concrete_fields:
                if not isinstance(field, text_fields):
                    continue
                column = connection.ops.quote_name(field.column)
                cursor.execute(
                    f"SELECT COUNT(*) FROM {table} "  # noqa: S608 (names from the models)
                    f"WHERE LOWER(CAST({column} AS TEXT)) LIKE %s",
                    [f"%{value.lower()}%"],
                )
                if cursor.fetchone()[0]:
                    hits.append((model._meta.db_table, field.column))
    return hits


def _file_texts(name, data):
    """The texts of a downloaded file: a zip's members (an .xlsx's XML) unpacked."""
    if data[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for member in archive.namelist():
                yield from _file_texts(f"{name}/{member}", archive.read(member))
    else:
        yield name, data.decode("utf-8", errors="replace")


def _downloads(club, admin, season):
    client = Client()
    client.force_login(admin)
    urls = [
        reverse("clubs:member-export-xlsx", kwargs={"club": club.slug}),
        reverse("clubs:member-export-csv", kwargs={"club": club.slug}),
        reverse("exports:club-archive", kwargs={"club": club.slug}),
        *(
            reverse(f"exports:{kind}-{fmt}", kwargs={"club": club.slug, "pk": season.pk})
            for kind in ("standings", "hands")
            for fmt in ("xlsx", "csv")
        ),
    ]
    files = {"club_archive_zip": club_archive_zip(club)}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        files[url] = body
    return [text for name, data in files.items() for text in _file_texts(name, data)]


def _everywhere(values, club, admin, season):
    texts = _downloads(club, admin, season)
    found = {}
    for value in values:
        where = _text_hits(value)
        where += [name for name, text in texts if value.lower() in text.lower()]
        if where:
            found[value] = where
    return found


def _forgotten_values(person):
    return [NAME, OTHER_NAME, NUMBER, OTHER_NUMBER, EMAIL, PHONE_OLD, PHONE_NEW, person.pin]


def test_forgetting_a_member_leaves_none_of_their_values_anywhere(person_world):
    club, admin, person, season, _other, _other_admin = person_world
    account = factories.user("wz-speler", password=PASSWORD, email=EMAIL, last_name="Zevenbergen")
    _link_account(club, admin, person, account)
    _login("wz-speler")
    Club.objects.filter(pk=club.pk).update(contact_name=NAME, contact_email=EMAIL)
    by_mail = services.invitation_create(club=club, role="scorer", email=EMAIL, by=admin)
    values = _forgotten_values(person)
    before = _everywhere(values, club, admin, season)
    assert set(before) == set(values)  # the search finds each of them while they are there
    assert ("clubs_clublog", "detail") in before[PHONE_OLD]

    services.member_forget(member=person, by=admin, confirm_name=person.name)

    assert _everywhere(values, club, admin, season) == {}
    by_mail.refresh_from_db()
    assert by_mail.email == ""  # not a name where an address was
    person.refresh_from_db()
    assert (person.pin, person.user_id, person.is_active) == ("", None, False)
    account.refresh_from_db()
    assert not account.is_active and not account.has_usable_password()
    assert account.email == "" and account.last_name == ""
    assert not ClubRole.objects.filter(user=account).exists()
    from axes.models import AccessLog

    assert not AccessLog.objects.filter(username__iexact="wz-speler").exists()
    refused = Client().post(reverse("login"), {"username": "wz-speler", "password": PASSWORD})
    assert refused.status_code == 200  # the form again: no login


def test_forgetting_ends_the_closed_accounts_session(person_world):
    club, admin, person, _season, _other, _other_admin = person_world
    account = factories.user("wz-speler", password=PASSWORD)
    _link_account(club, admin, person, account)
    client = _login("wz-speler")
    assert client.get(reverse("account")).status_code == 200
    services.member_forget(member=person, by=admin, confirm_name=person.name)
    assert client.get(reverse("account")).status_code == 302  # to the login page


def test_an_account_also_of_another_club_is_only_unlinked(person_world):
    club, admin, person, season, other, other_admin = person_world
    # Another club's administrator who also plays here: this club must not lock them out.
    _link_account(club, admin, person, other_admin)
    services.role_grant(club=club, user=other_admin, role="scorer", by=admin)
    client = _login("elders-admin", "pw")
    values = _forgotten_values(person)

    services.member_forget(member=person, by=admin, confirm_name=person.name)

    assert _everywhere(values, club, admin, season) == {}
    other_admin.refresh_from_db()
    assert other_admin.is_active and other_admin.has_usable_password()
    assert not Member.objects.filter(user=other_admin).exists()
    # The plain membership would go; a higher role here stays until revoked.
    assert ClubRole.objects.get(club=club, user=other_admin).role == "scorer"
    assert ClubRole.objects.get(club=other, user=other_admin).role == "admin"
    assert client.get(reverse("account")).status_code == 200  # still logged in


def test_a_plain_member_of_two_clubs_loses_only_this_clubs_membership(person_world):
    club, admin, person, _season, other, other_admin = person_world
    account = factories.user("wz-speler", password=PASSWORD)
    _link_account(club, admin, person, account)
    factories.member(other, "Wil Z.", user=account)
    services.member_forget(member=person, by=admin, confirm_name=person.name)
    account.refresh_from_db()
    assert account.is_active and account.has_usable_password()
    assert not ClubRole.objects.filter(club=club, user=account).exists()


def test_the_forget_page_says_what_happens_to_the_account(person_world):
    club, admin, person, _season, other, _other_admin = person_world
    account = factories.user("wz-speler", password=PASSWORD)
    _link_account(club, admin, person, account)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(admin)
    url = reverse("clubs:member-forget", kwargs={"club": club.slug, "pk": person.pk})
    page = client.get(url).text
    assert "wz-speler is this club's alone, so it is closed" in page
    assert "backups of the site" in page.lower()
    factories.role(other, "member", account)
    page = client.get(url).text
    assert "wz-speler is also used in another club, so it stays open" in page


def test_a_club_cannot_close_its_last_administrators_account_by_forgetting(person_world):
    club, admin, person, _season, _other, _other_admin = person_world
    # The only administrator's own account is linked to the record being forgotten.
    _link_account(club, admin, person, admin)
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.member_forget(member=person, by=admin, confirm_name=person.name)
    person.refresh_from_db()
    assert person.name == NAME
    admin.refresh_from_db()
    assert admin.is_active


def test_a_log_detail_of_an_unexpected_shape_does_not_stop_the_erasure(person_world):
    club, admin, person, _season, _other, _other_admin = person_world
    ClubLog.objects.create(
        club=club,
        action="member_import",
        summary="odd",
        detail={"added": "x", "changed": [1, {"pk": person.pk, "changes": "y"}], "kept": []},
    )
    ClubLog.objects.create(club=club, action="member_merge", summary="odd", detail=[NAME])
    services.member_forget(member=person, by=admin, confirm_name=person.name)
    assert not ClubLog.objects.filter(detail__icontains=NAME).exists()
    assert _text_hits(PHONE_OLD) == []
