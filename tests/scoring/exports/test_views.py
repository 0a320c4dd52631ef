"""Downloads and the import page: who may have which file, and the upload round."""

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation

from clubs.models import Club, PendingUpload
from clubs.services import pending_upload_take
from scoring.exports import csv as csv_export
from scoring.exports import handlog, reports
from scoring.models import Hand
from tests import factories
from tournaments.models import Round

from .conftest import pdf_pages, read_xlsx
from .test_import import csv_bytes, game_rows

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_browser(client):
    """Pages in English: the language comes from the request, not the test's override."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


def url(name, club, pk, **query):
    path = reverse(f"exports:{name}", kwargs={"club": club.slug, "pk": pk})
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def body(response):
    return b"".join(response.streaming_content)


class TestThePlayedSeasonsFiles:
    """The downloads of one played season (``class_season``), built once for them all."""

    @pytest.fixture
    def round_(self, class_season):
        competition, members, evenings, director = class_season
        return Round.objects.get(evening=evenings[0], number=1)

    @pytest.mark.parametrize(
        ("name", "content_type", "disposition"),
        [
            ("standings-xlsx", "application/vnd.openxmlformats", "attachment"),
            ("standings-csv", "text/csv", "attachment"),
            ("standings-pdf", "application/pdf", "inline"),
        ],
    )
    def test_public_standings_download_for_anyone(
        self, client, class_season, name, content_type, disposition
    ):
        competition, *_ = class_season
        response = client.get(url(name, competition.club, competition.pk))
        assert response.status_code == 200
        assert response["Content-Type"].startswith(content_type)
        assert response["Content-Disposition"].startswith(disposition)
        assert competition.club.slug in response["Content-Disposition"]
        assert "private" in response["Cache-Control"]
        assert body(response)

    def test_standings_of_a_period(self, client, class_season):
        competition, members, evenings, director = class_season
        period = competition.periods.create(
            name="Najaar", start_date=evenings[0].date, end_date=evenings[0].date
        )
        response = client.get(
            url("standings-xlsx", competition.club, competition.pk, period=period.pk)
        )
        values = [
            c for row in read_xlsx(body(response)).active.iter_rows(values_only=True) for c in row
        ]
        assert any("after 1 evening" in str(v) for v in values)
        missing = client.get(url("standings-xlsx", competition.club, competition.pk, period=999999))
        assert missing.status_code == 404

    def test_downloads_follow_the_visitors_language(self, client, class_season):
        competition, *_ = class_season
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
        response = client.get(url("standings-csv", competition.club, competition.pk))
        dutch = body(response).decode("utf-8-sig").splitlines()[0]
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
        response = client.get(url("standings-csv", competition.club, competition.pk))
        english = body(response).decode("utf-8-sig").splitlines()[0]
        assert english == "#,Player,Points,Avg. per game,Evenings,Games,Marsen,Nat,Roem"
        with translation.override("nl"):
            titles = [
                column.title for column in reports.standings_report(competition=competition).columns
            ]
        assert dutch == ";".join(titles) and "Speler" in dutch

    def test_evening_result_downloads(self, client, class_season):
        competition, members, evenings, director = class_season
        response = client.get(url("evening-pdf", competition.club, evenings[0].pk))
        assert "Result" in pdf_pages(body(response))[0]
        response = client.get(url("evening-xlsx", competition.club, evenings[0].pk))
        assert read_xlsx(body(response)).sheetnames == ["Result"]

    def test_private_club_results_are_404_for_strangers_and_open_to_members(
        self, client, class_season
    ):
        competition, members, evenings, director = class_season
        club = Club.objects.get(pk=competition.club_id)  # its own: the class shares the season's
        club.results_public = False
        club.save()
        assert client.get(url("standings-pdf", club, competition.pk)).status_code == 404
        assert client.get(url("evening-xlsx", club, evenings[0].pk)).status_code == 404
        client.force_login(factories.role(club, "member"))
        assert client.get(url("standings-pdf", club, competition.pk)).status_code == 200

    def test_another_clubs_objects_answer_404(self, client, class_season, other_club):
        competition, members, evenings, director = class_season
        client.force_login(factories.role(other_club, "admin"))
        for name, pk in [
            ("standings-xlsx", competition.pk),
            ("evening-pdf", evenings[0].pk),
            ("hands-csv", competition.pk),
            ("round-scoresheets", Round.objects.filter(evening=evenings[0]).first().pk),
            ("round-table-plan", Round.objects.filter(evening=evenings[0]).first().pk),
            ("results-import", competition.pk),
        ]:
            assert client.get(url(name, other_club, pk)).status_code == 404, name

    def test_hand_log_is_for_members(self, client, class_season):
        competition, *_ = class_season
        club = competition.club
        response = client.get(url("hands-csv", club, competition.pk))
        assert response.status_code == 302 and "/login/" in response["Location"]
        client.force_login(factories.role(club, "member"))
        response = client.get(url("hands-csv", club, competition.pk))
        assert response.status_code == 200
        data = body(response)
        assert data == csv_export.hand_log_csv(handlog.hand_log_rows(competition))
        response = client.get(url("hands-xlsx", club, competition.pk))
        sheet = read_xlsx(body(response)).active
        assert sheet.max_row == 1 + Hand.objects.count() + 2

    def test_score_sheets_are_for_scorers(self, client, round_):
        club = round_.evening.competition.club
        sheets = url("round-scoresheets", club, round_.pk)
        assert client.get(sheets).status_code == 302
        client.force_login(factories.role(club, "member"))
        assert client.get(sheets).status_code == 403
        client.force_login(factories.role(club, "scorer"))
        response = client.get(sheets)
        assert response.status_code == 200 and "no-store" in response["Cache-Control"]
        pages = pdf_pages(body(response))
        assert len(pages) == round_.tables.count()
        table = round_.tables.order_by("number").first()
        assert f"http://testserver/t/{table.token}/" in pages[0]
        filled = client.get(url("round-scoresheets-filled", club, round_.pk))
        assert "Score sheet (record)" in pdf_pages(body(filled))[0]

    def test_table_plan_is_public_and_has_no_links(self, client, round_):
        club = round_.evening.competition.club
        response = client.get(url("round-table-plan", club, round_.pk))
        assert response.status_code == 200
        text = "\n".join(pdf_pages(body(response)))
        assert "Table plan" in text and "/t/" not in text

    def test_the_pages_show_the_links(self, client, class_season, round_):
        competition, members, evenings, director = class_season
        club = competition.club
        page = client.get(
            reverse("results:standings", kwargs={"club": club.slug, "pk": competition.pk})
        )
        assert url("standings-xlsx", club, competition.pk).encode() in page.content
        page = client.get(
            reverse("results:evening", kwargs={"club": club.slug, "pk": evenings[0].pk})
        )
        assert url("evening-pdf", club, evenings[0].pk).encode() in page.content
        client.force_login(director)
        page = client.get(round_.get_absolute_url())
        assert url("round-scoresheets", club, round_.pk).encode() in page.content
        assert url("round-table-plan", club, round_.pk).encode() in page.content
        page = client.get(competition.get_absolute_url())
        assert url("hands-csv", club, competition.pk).encode() in page.content
        assert url("results-import", club, competition.pk).encode() in page.content

    def test_a_period_that_is_no_number_is_404(self, client, class_season):
        competition, *_ = class_season
        for fmt in ("xlsx", "csv", "pdf"):
            response = client.get(
                url(f"standings-{fmt}", competition.club, competition.pk, period="x")
            )
            assert response.status_code == 404

    def test_file_names_speak_the_visitors_language(self, client, class_season):
        competition, members, evenings, director = class_season
        club = competition.club
        client.force_login(factories.role(club, "member"))
        names = {}
        for language in ("nl", "en"):
            client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
            names[language] = [
                client.get(url(name, club, pk))["Content-Disposition"]
                for name, pk in (
                    ("standings-csv", competition.pk),
                    ("evening-csv", evenings[0].pk),
                    ("hands-csv", competition.pk),
                )
            ]
        assert [("stand" in n, "uitslag" in n, "spellen" in n) for n in names["nl"]] == [
            (True, False, False),
            (False, True, False),
            (False, False, True),
        ]
        assert "standings" not in names["nl"][0] and "result" not in names["nl"][1]
        assert "standings" in names["en"][0] and "result" in names["en"][1]
        assert "hands" in names["en"][2]


def test_hand_log_download_takes_the_same_queries_whatever_the_season(
    client, club, django_assert_num_queries, play_season
):

    client.force_login(factories.role(club, "member"))
    competition, *_ = play_season(club, evenings=1, players=8, rounds=1)
    # Session, user, club, roles, competition, seats, hands, sit-outs.
    with django_assert_num_queries(8) as small:
        body(client.get(url("hands-xlsx", club, competition.pk)))
    competition, *_ = play_season(club, evenings=3, players=9, rounds=2, seed=3)
    Hand.objects.exclude(game__table__round__evening__competition=competition).delete()
    with django_assert_num_queries(len(small.captured_queries)):
        body(client.get(url("hands-xlsx", club, competition.pk)))


# ---------------------------------------------------------------- the import page


@pytest.fixture
def competition(club):
    for name in ["Anna", "Bert", "Cor", "Dirk"]:
        factories.member(club, name)
    return factories.competition(club)


@pytest.fixture
def uploads(settings, tmp_path):
    """The files kept for a confirmation: in the database, never in the data folder."""
    settings.DATA_DIR = tmp_path
    yield lambda: list(PendingUpload.objects.filter(kind="results"))
    assert not (tmp_path / "imports").exists()


def upload(client, competition, data, name="oud.csv", **extra):
    file = io.BytesIO(data)
    file.name = name
    return client.post(
        url("results-import", competition.club, competition.pk), {"file": file, **extra}
    )


def test_import_page_needs_a_director(client, competition):
    page = url("results-import", competition.club, competition.pk)
    assert client.get(page).status_code == 302
    client.force_login(factories.role(competition.club, "scorer"))
    assert client.get(page).status_code == 403


def test_upload_preview_then_import(director_client, competition, uploads):
    page = director_client.get(url("results-import", competition.club, competition.pk))
    assert b"points_a" in page.content and b"The columns of the file" in page.content
    response = upload(director_client, competition, csv_bytes(game_rows()))
    assert response.status_code == 200
    preview = response.context["preview"]
    assert preview.ok and preview.hands == 16
    token = response.context["token"]
    assert token and len(uploads()) == 1
    assert Hand.objects.count() == 0  # nothing until confirmed
    response = director_client.post(
        url("results-import", competition.club, competition.pk), {"token": token}
    )
    assert response.status_code == 302 and response["Location"] == competition.get_absolute_url()
    assert Hand.objects.count() == 16
    assert uploads() == []  # the kept file is gone
    again = director_client.post(
        url("results-import", competition.club, competition.pk), {"token": token}
    )
    assert b"no longer there" in again.content and Hand.objects.count() == 16


def test_upload_with_new_players_asks_for_the_box(director_client, competition, uploads):
    rows = game_rows(names=["Anna", "Bert", "Cor", "Nieuw"])
    response = upload(director_client, competition, csv_bytes(rows))
    assert not response.context["token"]
    assert b"Nieuw is not a member of the club" in response.content
    response = upload(director_client, competition, csv_bytes(rows), create_members="on")
    assert response.context["preview"].new_members == ["Nieuw"]
    director_client.post(
        url("results-import", competition.club, competition.pk),
        {"token": response.context["token"]},
    )
    assert competition.club.members.filter(name="Nieuw").exists()


def test_a_broken_upload_shows_the_report_and_changes_nothing(
    director_client, competition, uploads
):
    response = upload(
        director_client, competition, csv_bytes(game_rows(changes={3: {"roem_a": 30}}))
    )
    assert response.status_code == 200
    assert b"This file cannot be imported" in response.content
    assert b"roem is made of 20, 50, 100 and 200" in response.content
    assert not response.context["token"] and uploads() == []
    assert Hand.objects.count() == 0


def test_a_tampered_or_foreign_token_imports_nothing(director_client, competition, club, uploads):
    response = upload(director_client, competition, csv_bytes(game_rows()))
    token = response.context["token"]
    page = url("results-import", competition.club, competition.pk)
    response = director_client.post(page, {"token": token[:-2] + "xx"})
    assert b"could not be read" in response.content
    other = factories.competition(club, name="Andere")
    response = director_client.post(url("results-import", club, other.pk), {"token": token})
    assert b"could not be read" in response.content
    assert Hand.objects.count() == 0


def test_a_file_changed_on_the_server_is_refused(director_client, competition, uploads):
    response = upload(director_client, competition, csv_bytes(game_rows()))
    (stored,) = uploads()
    PendingUpload.objects.filter(pk=stored.pk).update(data=csv_bytes(game_rows(hands=12)))
    response = director_client.post(
        url("results-import", competition.club, competition.pk),
        {"token": response.context["token"]},
    )
    assert b"has changed" in response.content and Hand.objects.count() == 0


def test_the_page_imports_up_to_its_own_row_limit_and_says_so(
    director_client, competition, uploads, monkeypatch
):
    """A request must answer in time: the page reads fewer rows than the command may."""
    import dataclasses

    from scoring.exports import importers

    page = director_client.get(url("results-import", competition.club, competition.pk))
    assert b"This page imports up to 20,000 hands per file" in page.content
    assert b"manage.py import_results" in page.content
    monkeypatch.setattr(
        importers, "PAGE_LIMITS", dataclasses.replace(importers.PAGE_LIMITS, max_rows=10)
    )
    response = upload(director_client, competition, csv_bytes(game_rows()))
    assert not response.context["token"]
    assert b"more than 10 rows below the column titles" in response.content
    assert importers.results_import_preview(  # the command's limits take the same file
        club=competition.club, competition=competition, data=csv_bytes(game_rows())
    ).ok


def test_an_ods_hand_log_is_accepted_by_the_page(director_client, competition, uploads):
    from tests.common.spreadsheets import ods_bytes

    rows = [list(handlog.COLUMNS)]
    rows += [[row.get(key, "") for key in handlog.COLUMNS] for row in game_rows()]
    page = director_client.get(url("results-import", competition.club, competition.pk))
    assert b".ods" in page.content
    response = upload(director_client, competition, ods_bytes(rows), "oud.ods")
    assert response.context["preview"].ok and response.context["token"]


def test_the_preview_on_one_box_is_confirmed_on_another(
    director_client, competition, uploads, settings, tmp_path
):
    """Each box has its own data folder; the kept file is in the shared database."""
    settings.DATA_DIR = tmp_path / "box-1"
    token = upload(director_client, competition, csv_bytes(game_rows())).context["token"]
    settings.DATA_DIR = tmp_path / "box-2"
    response = director_client.post(
        url("results-import", competition.club, competition.pk), {"token": token}
    )
    assert response.status_code == 302 and Hand.objects.count() == 16
    assert uploads() == []


def test_only_the_uploader_can_use_the_kept_file(director_client, competition, uploads):
    token = upload(director_client, competition, csv_bytes(game_rows())).context["token"]
    (kept,) = uploads()
    other = factories.role(competition.club, "director")
    assert pending_upload_take(pk=kept.pk, club=competition.club, by=other, kind="results") is None
    elsewhere = factories.club("Elders")
    assert pending_upload_take(pk=kept.pk, club=elsewhere, by=kept.user, kind="results") is None
    director_client.force_login(other)
    response = director_client.post(
        url("results-import", competition.club, competition.pk), {"token": token}
    )
    assert b"could not be read" in response.content and Hand.objects.count() == 0
    assert len(uploads()) == 1


def test_a_new_upload_replaces_the_kept_one_and_an_hour_old_one_is_gone(
    director_client, competition, uploads
):
    first = upload(director_client, competition, csv_bytes(game_rows())).context["token"]
    second = upload(director_client, competition, csv_bytes(game_rows())).context["token"]
    assert len(uploads()) == 1
    page = url("results-import", competition.club, competition.pk)
    assert b"no longer there" in director_client.post(page, {"token": first}).content
    PendingUpload.objects.update(created_at=timezone.now() - timedelta(minutes=61))
    out = io.StringIO()
    call_command("cleanup", stdout=out)
    assert "1 unconfirmed uploads older than an hour dropped." in out.getvalue()
    assert uploads() == []
    assert b"no longer there" in director_client.post(page, {"token": second}).content
    assert Hand.objects.count() == 0
