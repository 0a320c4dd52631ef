"""Issue 20 in the browser, the way out: a club's administrator downloads everything,
ends the club after typing its name, a site operator imports the archive on a "fresh
install" (the original is gone) and finds the same standings, line by line; then a member
is forgotten and only that player's name changes. Every page runs under the strict CSP
with no console error."""

import datetime
import io
import json
import random
import zipfile

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from clubs.models import Club, Member
from scoring.demo import play_evening
from tests import factories
from tests.browser.conftest import login
from tournaments.models import Competition, Evening

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Anneke de Vries",
    "Henk Bakker",
    "Gerrit Jansen",
    "Truus Visser",
    "Kees Smit",
    "Riet Mulder",
    "Jan de Boer",
    "Willemijn Dekker",
    "Piet Bos",
]


class Watched:
    """A page whose console errors, page errors and CSP violations are collected."""

    def __init__(self, page, live_server):
        self.page = page
        self.url = live_server.url
        self.errors = []
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"{page.url}: {message.text}")
                if message.type == "error"
                else None
            ),
        )
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => "
            "console.error('Content Security Policy: ' + e.violatedDirective + ' '"
            " + e.blockedURI));"
        )

    def settle(self):
        """Wait for the page to finish, then say it logged no error."""
        self.page.wait_for_load_state("networkidle")
        errors, self.errors[:] = list(self.errors), []
        assert errors == [], errors

    def visit(self, path, status=200):
        response = self.page.goto(f"{self.url}{path}")
        assert response.status == status, path
        if status == 200:
            self.settle()
        else:
            self.page.wait_for_load_state("networkidle")
            # The browser logs the failed load itself; nothing else may show.
            other = [e for e in self.errors if f"status of {status}" not in e]
            self.errors[:] = []
            assert other == [], other
        return response

    def click(self, selector):
        with self.page.expect_navigation():
            self.page.click(selector)
        self.settle()


def _table(page, selector="table.standings"):
    """The first such table on the page: its headers and each row's cell texts."""
    return page.locator(selector).first.evaluate(
        """table => ({
            headers: [...table.tHead.rows[0].cells].map(c => c.innerText.trim()),
            rows: [...table.tBodies[0].rows].map(r => [...r.cells].map(c => c.innerText.trim())),
        })"""
    )


def _lines(table):
    """Per player: name, points and rank, read by the Dutch column headers."""
    headers = table["headers"]
    name, points, rank = (headers.index(h) for h in ("Speler", "Punten", "#"))
    return [(row[name], row[points], row[rank]) for row in table["rows"]]


@pytest.fixture
def season(db):
    """De Klaverboer with a played season: two evenings, nine and eight players."""
    club = factories.club(name="De Klaverboer", slug="klaverboer", results_public=False)
    admin = factories.role(club, "admin", factories.user("voorzitter"))
    players = [
        factories.member(club, name, email=f"speler{n}@example.org", phone=f"06-1234567{n}")
        for n, name in enumerate(NAMES)
    ]
    competition = factories.competition(club, name="Wintercompetitie")
    play_evening(competition, datetime.date(2026, 9, 8), players, admin, random.Random(5))
    play_evening(competition, datetime.date(2026, 9, 15), players[:8], admin, random.Random(6))
    return club, competition


def test_a_club_leaves_with_its_data_and_comes_back_with_the_same_standings(
    browser, page, live_server, shot, tmp_path, season
):
    club, competition = season
    slug = club.slug
    standings_path = reverse("results:standings", kwargs={"club": slug, "pk": competition.pk})
    first_evening = competition.evenings.order_by("date").first()
    evening_path = reverse("results:evening", kwargs={"club": slug, "pk": first_evening.pk})
    club_pages = [
        reverse("clubs:club-detail", kwargs={"club": slug}),
        reverse("clubs:member-list", kwargs={"club": slug}),
        standings_path,
        evening_path,
        reverse("exports:club-archive", kwargs={"club": slug}),
    ]

    # The administrator downloads everything from the club's page.
    admin = Watched(page, live_server)
    login(page, live_server, "voorzitter")
    admin.visit(f"/clubs/{slug}/")
    with page.expect_download() as download_info:
        page.click(f"a[href='/clubs/{slug}/archive.zip']")
    download = download_info.value
    assert download.suggested_filename.endswith(".zip")
    archive_path = tmp_path / download.suggested_filename
    download.save_as(archive_path)
    zipped = zipfile.ZipFile(archive_path)
    names = zipped.namelist()
    assert "club.json" in names
    assert sum(n.endswith(".xlsx") and "/" not in n for n in names) == 3  # members, adj., log
    folder = f"wintercompetitie-{competition.pk}/"
    inside = [n for n in names if n.startswith(folder)]
    assert sum(n.endswith(".pdf") for n in inside) == 1  # the standings
    assert sum(n.endswith(".xlsx") and "/2026-09" in n for n in inside) == 2  # each evening
    assert any(n.endswith(".csv") for n in inside)
    data = json.loads(zipped.read("club.json"))
    assert data["format"] == "klaverjas-club-archive" and data["club"]["name"] == "De Klaverboer"
    archived = {row["name"] for row in data["rows"]["clubs.member"]}
    assert archived == set(NAMES)
    member_sheets = [
        load_workbook(io.BytesIO(zipped.read(n))).active
        for n in names
        if n.endswith(".xlsx") and "/" not in n
    ]
    assert any(
        sorted(row[0] for row in sheet.iter_rows(min_row=2, values_only=True)) == sorted(NAMES)
        for sheet in member_sheets
    )
    admin.errors[:] = []  # a download leaves the page where it was
    shot(page, "club-page")

    # The standings and the first evening's result, as the pages show them.
    admin.visit(standings_path)
    before = _table(page)
    noted = _lines(before)
    assert len(noted) == 9 and {name for name, _p, _r in noted} == set(NAMES)
    admin.visit(evening_path)
    evening_before = _table(page)
    shot(page, "standings-noted")

    # End the club: a wrong name changes nothing, the exact name deletes it.
    admin.visit(f"/clubs/{slug}/")
    admin.click(f"a[href='/clubs/{slug}/delete/']")
    page.fill("#id_confirm_name", "de klaverboer")
    admin.click("form.stacked button[type=submit]")
    assert page.locator(".errorlist").count() >= 1
    assert Club.objects.filter(slug=slug).exists()
    page.fill("#id_confirm_name", "De Klaverboer")
    shot(page, "delete-club")
    admin.click("form.stacked button[type=submit]")
    assert page.url.rstrip("/") == live_server.url
    assert "De Klaverboer" in page.inner_text(".messages")  # "... and all its data are deleted."
    assert not Club.objects.filter(slug=slug).exists()
    assert not Member.objects.filter(name__in=NAMES).exists()
    for path in club_pages:
        admin.visit(path, status=404)

    # A site operator imports the archive: the original is gone, as on a fresh install.
    factories.user("beheer", is_superuser=True)
    context = browser.new_context(locale="nl-NL", viewport={"width": 1000, "height": 900})
    operator_page = context.new_page()
    operator_page.set_default_timeout(15_000)
    operator = Watched(operator_page, live_server)
    login(operator_page, live_server, "beheer")
    operator.visit("/")
    operator.click("a[href='/import-club/']")
    operator_page.fill("#id_slug", slug)
    operator_page.set_input_files("#id_file", str(archive_path))
    shot(operator_page, "import")
    operator.click("form.stacked button[type=submit]")
    new = Club.objects.get(slug=slug)
    assert new.pk != club.pk and new.name == "De Klaverboer"
    assert operator_page.url == f"{live_server.url}/clubs/{slug}/"
    copy = Competition.objects.get(club=new)
    operator.visit(reverse("results:standings", kwargs={"club": slug, "pk": copy.pk}))
    after = _table(operator_page)
    assert after["headers"] == before["headers"]
    assert _lines(after) == noted
    assert after["rows"] == before["rows"]
    copy_evening = Evening.objects.get(competition=copy, date=first_evening.date)
    new_evening_path = reverse("results:evening", kwargs={"club": slug, "pk": copy_evening.pk})
    operator.visit(new_evening_path)
    assert _table(operator_page) == evening_before
    shot(operator_page, "imported-standings")

    # Forget a member through the pages, accepting "oud-lid N".
    gone = NAMES[2]
    person = Member.objects.get(club=new, name=gone)
    operator.visit(f"/clubs/{slug}/members/")
    operator.click(f"a[href='/clubs/{slug}/members/{person.pk}/']")
    operator.click(f"a[href='/clubs/{slug}/members/{person.pk}/forget/']")
    shot(operator_page, "forget")
    operator_page.fill("#id_confirm_name", gone)  # erasing asks for the name (issue 25)
    operator.click("form.stacked button[type=submit]")
    replacement = f"oud-lid {person.pk}"
    assert operator_page.inner_text("h1") == replacement
    operator.visit(reverse("results:standings", kwargs={"club": slug, "pk": copy.pk}))
    forgotten = _table(operator_page)
    name_column = forgotten["headers"].index("Speler")
    expected = [
        [replacement if i == name_column and cell == gone else cell for i, cell in enumerate(row)]
        for row in before["rows"]
    ]
    assert forgotten["rows"] == expected
    assert [line for line in _lines(forgotten) if line[0] == replacement] == [
        (replacement, points, rank) for name, points, rank in noted if name == gone
    ]
    shot(operator_page, "forgotten-standings")

    # The erased name, e-mail and phone appear on none of the club's pages.
    pages = [
        f"/clubs/{slug}/",
        f"/clubs/{slug}/members/",
        f"/clubs/{slug}/members/{person.pk}/",
        reverse("results:player", kwargs={"club": slug, "pk": person.pk}),
        reverse("results:standings", kwargs={"club": slug, "pk": copy.pk}),
        copy.get_absolute_url(),
    ]
    for evening in Evening.objects.filter(competition=copy):
        pages += [
            reverse("results:evening", kwargs={"club": slug, "pk": evening.pk}),
            reverse("tournaments:evening-detail", kwargs={"club": slug, "pk": evening.pk}),
        ]
    for path in pages:
        operator.visit(path)
        text = operator_page.content()
        for erased in (gone, "speler2@example.org", "06-12345672"):
            assert erased not in text, (path, erased)
        if "/result/" in path or "/standings/" in path:
            assert replacement in text, path  # she played both evenings
    context.close()
