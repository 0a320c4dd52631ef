"""Issue 20: the whole club in one zip, and its club.json read back into a new club
with the same standings, line by line."""

import csv
import datetime
import io
import json
import random
import zipfile

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from clubs import services as club_services
from clubs.models import Club, ClubRole, Member
from scoring.demo import play_evening
from scoring.exports import archive
from scoring.models import Adjustment, EveningTotals, Game, Hand
from scoring.results import standings
from tests import factories
from tournaments.models import Competition, Evening

from .conftest import rolled_back

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="class")
def played(module_db):
    """A club of two played evenings and a forgotten member, built once for the class
    of tests that read it (``conftest.rolled_back``: gone at the class's end, so
    ``test_a_file_that_is_no_archive_changes_nothing`` finds no club at all). Their
    writes go with their own savepoints; the objects handed out are shared."""
    with rolled_back():
        club = factories.club(name="De Klaverboer", town="Delft", results_public=False)
        admin = factories.role(club, "admin")
        players = [
            factories.member(club, f"Speler {n}", email=f"s{n}@example.org") for n in range(9)
        ]
        season = factories.competition(club, name="Winter")
        play_evening(season, datetime.date(2026, 9, 8), players, admin, random.Random(5))
        play_evening(season, datetime.date(2026, 9, 15), players[:8], admin, random.Random(6))
        club_services.member_forget(
            member=players[8], by=admin, confirm_name=players[8].name, name="oud-lid 17"
        )
        yield club, admin, players, season


def _lines(season):
    result = standings.season_standings(competition=season)
    return [
        (
            line.rank,
            result.names[line.key],
            line.points,
            line.games,
            line.evenings,
            line.average,
            line.marsen,
            line.nat,
            line.roem,
        )
        for line in result.lines
    ]


def _evening_lines(evening):
    result = standings.evening_result(evening=evening)
    return [(line.rank, line.points, line.games) for line in result.lines]


class TestAPlayedClub:
    """The archive of one played club (``played``), built once for them all."""

    def test_the_zip_holds_every_file_and_each_reads_back(self, played):
        club, _admin, players, season = played
        data = archive.club_archive_zip(club)
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
        zipped = zipfile.ZipFile(io.BytesIO(data))
        assert "club.json" in names
        members = [n for n in names if n.endswith(".xlsx") and "/" not in n]
        assert len(members) == 3  # members, adjustments, log
        sheets = {n: load_workbook(io.BytesIO(zipped.read(n))).active for n in members}
        member_sheet = next(s for n, s in sheets.items() if "2" not in n and s.max_row == 10)
        assert sorted(r[0] for r in member_sheet.iter_rows(min_row=2, values_only=True)) == sorted(
            m.name for m in Member.objects.filter(club=club)
        )
        folder = f"winter-{season.pk}/"
        inside = [n for n in names if n.startswith(folder)]
        assert sum(n.endswith(".pdf") for n in inside) == 1
        pdf = next(n for n in inside if n.endswith(".pdf"))
        text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(zipped.read(pdf))).pages)
        winner = standings.season_standings(competition=season).lines[0]
        assert standings.season_standings(competition=season).names[winner.key] in text
        hands_csv = next(
            n for n in inside if n.endswith(".csv") and "/2026" not in n and "hand" in n
        )
        rows = list(
            csv.reader(io.StringIO(zipped.read(hands_csv).decode("utf-8-sig")), delimiter=";")
        )
        hands = Hand.objects.filter(game__table__round__evening__competition=season).count()
        assert len([r for r in rows[1:] if r and r[0]]) >= hands
        assert sum(n.endswith(".xlsx") and "/2026-09" in n for n in inside) == 2  # each evening

    def test_club_json_has_a_version_and_no_account_or_erased_data(self, played):
        club, admin, players, _season = played
        data = json.loads(archive.club_archive_json(club))
        assert data["format"] == "klaverjas-club-archive" and data["version"] == 2
        text = json.dumps(data)
        assert "s8@example.org" not in text and "Speler 8" not in text
        assert "password" not in text and "pbkdf2" not in text
        models = {label for label, rows in data["rows"].items() if rows}
        assert {
            "clubs.member",
            "tournaments.competition",
            "scoring.hand",
            "clubs.clublog",
        } <= models
        assert "clubs.clubrole" not in models and "clubs.invitation" not in models

    def test_an_archive_imports_into_a_new_club_with_identical_standings(self, played):
        club, _admin, _players, season = played
        data = archive.club_archive_zip(club)
        before = _lines(season)
        evenings_before = [_evening_lines(e) for e in season.evenings.order_by("date")]
        counts = {
            model: model.objects.filter(**{path: club}).count()
            for model, path in [
                (Member, "club"),
                (Evening, "competition__club"),
                (Game, "table__round__evening__competition__club"),
                (Hand, "game__table__round__evening__competition__club"),
                (Adjustment, "evening__competition__club"),
            ]
        }
        operator = factories.user("beheer", is_staff=True)
        # Elsewhere: the original club is gone, as on another installation.
        club_services.club_delete(club=club, by=_admin, confirm_name=club.name)
        new = archive.club_archive_import(data=data, by=operator, slug="klaverboer-nieuw")
        assert new.name == "De Klaverboer" and new.town == "Delft" and not new.results_public
        assert ClubRole.objects.get(club=new).user == operator
        copy = Competition.objects.get(club=new)
        assert _lines(copy) == before
        assert [_evening_lines(e) for e in copy.evenings.order_by("date")] == evenings_before
        assert {
            Member: Member.objects.filter(club=new).count(),
            Evening: Evening.objects.filter(competition__club=new).count(),
            Game: Game.objects.filter(table__round__evening__competition__club=new).count(),
            Hand: Hand.objects.filter(game__table__round__evening__competition__club=new).count(),
            Adjustment: Adjustment.objects.filter(evening__competition__club=new).count(),
        } == counts
        assert Member.objects.filter(club=new, user__isnull=False).count() == 0
        # The restore stored the finished evenings' totals (its raw rows send no signal):
        # the standings read them, and they are what summing the evenings gives.
        finished = list(copy.evenings.filter(status="finished").values_list("pk", flat=True))
        assert finished
        assert set(EveningTotals.objects.values_list("evening_id", flat=True)) >= set(finished)
        assert standings.stored_evening_rows(finished).keys() == set(finished)
        from_store = standings.evening_tallies(finished, confirmed_only=True, finished=finished)
        summed = standings.evening_tallies(finished, confirmed_only=True)
        assert {e: {m: t.row() for m, t in from_store[e].items()} for e in finished} == {
            e: {m: t.row() for m, t in summed[e].items()} for e in finished
        }

    def test_importing_next_to_the_original_gives_fresh_table_links(self, played):
        club, _admin, _players, season = played
        data = archive.club_archive_json(club)
        new = archive.club_archive_import(
            data=data, by=factories.user(is_superuser=True), slug="kopie", name="Kopie"
        )
        assert new.name == "Kopie"
        copy = Competition.objects.get(club=new)
        assert _lines(copy) == _lines(season)
        assert Club.objects.filter(pk=club.pk).exists()

    def test_an_archive_made_before_the_newer_settings_imports_with_their_defaults(self, played):
        """An archive written before the fields of :data:`archive.ADDED` existed (same
        version) still imports: those fields take the model's default, and the
        standings are the same. Any other missing field is still refused."""
        club, _admin, _players, season = played
        data = json.loads(archive.club_archive_json(club))
        removed = set()
        for label, names in archive.ADDED.items():
            for row in data["rows"].get(label, []):
                removed |= {(label, name) for name in names if name in row}
                for name in names:
                    row.pop(name, None)
        assert ("tournaments.competition", "leaving_policy") in removed
        new = archive.club_archive_import(
            data=json.dumps(data).encode(), by=factories.user(is_superuser=True), slug="oud"
        )
        copy = Competition.objects.get(club=new)
        assert _lines(copy) == _lines(season)
        assert (copy.leaving_policy, copy.average_unit, copy.best_periods) == ("keep", "game", None)
        assert copy.finished_may_substitute is False

        data["rows"]["tournaments.competition"][0].pop("best_of")
        with pytest.raises(ValidationError, match="the field is missing"):
            archive.club_archive_import(
                data=json.dumps(data).encode(), by=factories.user(is_superuser=True), slug="oud2"
            )

    def test_the_commands_export_and_import_a_club(self, played, tmp_path):
        club, _admin, _players, season = played
        path = tmp_path / "club.zip"
        call_command("export_club", "--club", club.slug, "-o", str(path))
        factories.user("beheer", is_staff=True)
        call_command("import_club", str(path), "--slug", "terug", "--user", "beheer")
        assert _lines(Competition.objects.get(club__slug="terug")) == _lines(season)

    def test_the_pages_download_and_import_an_archive(self, client, played):
        club, admin, _players, season = played
        client.force_login(admin)
        response = client.get(reverse("exports:club-archive", kwargs={"club": club.slug}))
        assert response.status_code == 200 and response["Content-Type"] == "application/zip"
        data = b"".join(response.streaming_content)
        assert "club.json" in zipfile.ZipFile(io.BytesIO(data)).namelist()
        assert client.get(reverse("exports:club-archive-import")).status_code == 403  # not operator
        client.force_login(factories.user(is_superuser=True))
        upload = io.BytesIO(data)
        upload.name = "archief.zip"
        response = client.post(
            reverse("exports:club-archive-import"), {"name": "", "slug": "archief", "file": upload}
        )
        assert response.status_code == 302
        assert _lines(Competition.objects.get(club__slug="archief")) == _lines(season)

    def test_only_the_clubs_admin_downloads_the_archive(self, client, played):
        club, _admin, _players, _season = played
        url = reverse("exports:club-archive", kwargs={"club": club.slug})
        other_admin = factories.role(factories.club(), "admin")
        director = factories.role(club, "director")
        client.force_login(other_admin)
        assert client.get(url).status_code == 404
        client.force_login(director)
        assert client.get(url).status_code == 403


@pytest.mark.parametrize(
    "data",
    [
        b"not json",
        b'{"format": "something else"}',
        b'{"format": "klaverjas-club-archive", "version": 99, "club": {}, "objects": []}',
        b'{"format": "klaverjas-club-archive", "version": 2, "club": {"name": "X"},'
        b' "rows": {"auth.user": [{"id": 1, "username": "x"}]}}',
        b'{"format": "klaverjas-club-archive", "version": 2, "club": {"name": "X"},'
        b' "rows": {"clubs.member": [{"id": 1, "club": 5, "name": ""}]}}',
        b'{"format": "klaverjas-club-archive", "version": 2, "club": {"name": "X"},'
        b' "rows": {"tournaments.evening": [{"id": 1, "competition": 9}]}}',
        b"PK\x03\x04 broken zip",
    ],
)
def test_a_file_that_is_no_archive_changes_nothing(data):
    operator = factories.user(is_superuser=True)
    with pytest.raises(ValidationError):
        archive.club_archive_import(data=data, by=operator, slug="nieuw")
    assert not Club.objects.exists() and not Member.objects.exists()
