"""The standings' columns say what they count, on the page and in the files, and count it.

"Roem" is the roem a player's team received: a nat team's roem goes where the rule
set sends it (rotterdam: to the other team). "Marsen" are the playing team's pits:
a tegenpit (the defenders took every trick) is not one. Each column's help is
written once, in its column spec (``scoring.results.tables``); the page shows it
as the header's ``title`` and in a list under the table, the .xlsx as a comment on
the header and in notes under the table, the PDF in notes under the table. The CSV
file stays one table for programs: no notes.
"""

import csv
import io
from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from scoring import services
from scoring.exports import csv as csv_export
from scoring.exports import pdf, reports, xlsx
from scoring.results import standings
from scoring.results.tables import average_column, roem_column, standings_columns
from tests import factories
from tests.htmltables import read_tables
from tests.scoring.exports.conftest import pdf_pages, read_xlsx
from tests.scoring.test_declared_roem import declared as hand
from tournaments import services as tournament_services
from tournaments.models import Seat

pytestmark = pytest.mark.django_db

ROEM_TO_THE_OTHER_TEAM = "When a team is nat: all roem goes to the other team."
TEGENPIT_LEFT_OUT = "A tegenpit (TP: every trick taken as defenders) is not counted."


@pytest.fixture(autouse=True)
def _site_language_after():
    """Requests in English leave English active in this thread; later tests expect
    the site's language."""
    from django.conf import settings

    yield
    translation.activate(settings.LANGUAGE_CODE)


def play(club, *, preset="rotterdam", overrides=None, hands=()):
    """One table of four, a boompje of 16 hands (``hands`` first, then plain hands
    wij makes 100-62 without roem), confirmed, the evening finished."""
    director = factories.role(club, "director")
    drawn = factories.drawn_round(
        club, director, players=4, ruleset_preset=preset, ruleset_overrides=overrides or {}
    )
    competition, evening, game = drawn.season, drawn.evening, drawn.game
    hands = list(hands)
    hands += [hand("A", 100)] * (16 - len(hands))
    for data in hands:
        services.hand_record(game=game, data=data)
    game.refresh_from_db()
    services.game_confirm(game=game, name="Tegenpartij")
    tournament_services.evening_set_status(evening=evening, status="finished", by=director)
    seats = Seat.objects.filter(round=drawn.round).select_related("member")
    team = {seat.member.name: "A" if seat.position in Seat.SEATS_OF["A"] else "B" for seat in seats}
    return SimpleNamespace(competition=competition, evening=evening, game=game, team=team)


def standings_page(client, competition, language):
    url = reverse("results:standings", kwargs={"club": competition.club.slug, "pk": competition.pk})
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def note(title, words):
    """A line of the list under a table, as the page writes it."""
    return f"<li><strong>{escape(title)}</strong>: {escape(words)}</li>"


def by_team(table, title, team):
    """{team: the values of the column ``title``} of a page's table read back."""
    index = [text for text, _title in table.headers].index(title)
    values = {"A": set(), "B": set()}
    for _classes, cells in table.rows:
        values[team[cells[1]]].add(int(cells[index]))
    return values


# --- What the columns count ---------------------------------------------------------------


def test_a_nat_teams_roem_counts_in_the_other_teams_roem_column_as_its_help_says(client, club):
    # wij plays with a 50 and goes nat (40 + 50 against 122): the 50 goes to zij.
    # Then zij plays and makes its hand with a 20 of its own.
    played = play(
        club,
        overrides={"roem_rule": "declared"},
        hands=[hand("A", 40, a="50"), hand("B", 40, b="20")],
    )
    game = played.game
    assert (game.roem_a, game.roem_b) == (0, 70)
    page = standings_page(client, played.competition, "en")
    table = read_tables(page, "standings")[0]
    assert by_team(table, "Roem", played.team) == {"A": {0}, "B": {70}}
    help_text = roem_column(played.competition.ruleset()).help
    assert ROEM_TO_THE_OTHER_TEAM in help_text
    assert ("Roem", help_text) in table.headers  # the header's title
    assert note("Roem", help_text) in page  # the line under the table


def test_where_each_team_keeps_its_roem_on_nat_the_column_and_its_help_say_so(client, club):
    played = play(
        club,
        overrides={"roem_rule": "declared", "nat_roem": "kept_by_each"},
        hands=[hand("A", 40, a="50")],
    )
    page = standings_page(client, played.competition, "en")
    table = read_tables(page, "standings")[0]
    assert by_team(table, "Roem", played.team) == {"A": {50}, "B": {0}}
    assert "When a team is nat: each team keeps its own roem." in page
    assert ROEM_TO_THE_OTHER_TEAM not in page


def test_marsen_leave_out_a_tegenpit_as_their_help_says(client, club):
    played = play(
        club,
        hands=[
            hand("A", 0, pit="B"),  # zij defended and took every trick: a tegenpit
            hand("A", 162, pit="A"),  # wij played and took every trick: a mars
            hand("A", 162, pit="A"),
        ],
    )
    game = played.game
    assert (game.marsen_a, game.marsen_b, game.tegenpit_b) == (2, 0, 1)
    page = standings_page(client, played.competition, "en")
    table = read_tables(page, "standings")[0]
    assert by_team(table, "Marsen", played.team) == {"A": {2}, "B": {0}}
    marsen = next(title for text, title in table.headers if text == "Marsen")
    assert TEGENPIT_LEFT_OUT in marsen
    assert note("Marsen", marsen) in page


# --- The page, in both languages ------------------------------------------------------


@pytest.fixture
def season(club):
    return play(club, hands=[hand("A", 40)])


def test_the_standings_page_says_what_each_column_counts_in_english(client, season):
    page = standings_page(client, season.competition, "en")
    table = read_tables(page, "standings")[0]
    headers = dict(table.headers)
    assert headers["Avg. per game"] == (
        "Points per game: the points divided by the games. A game is a boompje of 16 hands."
    )
    assert "not among the best" in headers["Evenings"]
    assert ROEM_TO_THE_OTHER_TEAM in headers["Roem"]
    assert TEGENPIT_LEFT_OUT in headers["Marsen"]
    assert headers["Player"] is None  # no help where the title says it all
    notes = page.split('<ul class="ranking-rules column-notes"')[1].split("</ul>")[0]
    for text, title in table.headers:
        if title:
            assert note(text, title) in notes


def test_the_standings_page_says_what_each_column_counts_in_dutch(client, season):
    page = standings_page(client, season.competition, "nl")
    table = read_tables(page, "standings")[0]
    headers = dict(table.headers)
    with translation.override("nl"):
        average = str(average_column().title)  # "Gem. per boompje"
    assert {average, "Partijen", "Marsen", "Roem"} <= headers.keys()
    # Words the Dutch catalogue already holds, inside the new sentences.
    assert "Een partij is een boompje van 16 spellen." in headers[average]
    assert "alle roem gaat naar het andere team" in headers["Roem"]
    with translation.override("nl"):
        columns = standings_columns(competition=season.competition)
    for column in columns:
        if column.help:
            assert headers[column.title] == column.help
            assert note(column.title, column.help) in page


def test_the_evening_result_and_the_player_page_share_the_standings_words(client, season):
    competition = season.competition
    with translation.override("en"):
        help_of = {c.key: c.help for c in standings_columns(competition=competition)}
    url = reverse(
        "results:evening", kwargs={"club": competition.club.slug, "pk": season.evening.pk}
    )
    with translation.override("en"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        board = client.get(url + "?board=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    headers = dict(read_tables(page, "standings")[0].headers)
    for key, title in (("roem", "Roem"), ("marsen", "Marsen"), ("average", "Avg. per game")):
        assert headers[title] == help_of[key]
        assert note(title, help_of[key]) in page
    assert "column-notes" not in board  # the TV board shows the table only
    member = next(iter(Seat.objects.filter(round__evening=season.evening).select_related("member")))
    url = reverse("results:player", kwargs={"club": competition.club.slug, "pk": member.member.pk})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert note("Roem", help_of["roem"]) in page
    assert note("Marsen", help_of["marsen"]) in page
    assert note("Average per game", help_of["average"]) in page


# --- The files --------------------------------------------------------------------------


def help_lines(report):
    return [(column.title, column.help) for column in report.columns if column.help]


def test_the_xlsx_has_the_help_as_header_comments_and_notes_under_the_table(season):
    with translation.override("en"):
        report = reports.standings_report(competition=season.competition)
        sheet = read_xlsx(xlsx.report_xlsx(report)).active
    rows = list(sheet.iter_rows())
    header = next(row for row in rows if row[0].value == "#")
    comments = {cell.value: cell.comment.text if cell.comment else None for cell in header}
    assert ROEM_TO_THE_OTHER_TEAM in comments["Roem"]
    assert TEGENPIT_LEFT_OUT in comments["Marsen"]
    assert comments["Player"] is None
    below = [row[0].value for row in rows[header[0].row :]]
    players = below.index(None)  # the empty row that ends the table
    assert players == len(report.rows) == 4
    notes = below[players + 1 : players + 1 + len(help_lines(report))]
    assert notes == [f"{title}: {words}" for title, words in help_lines(report)]
    assert "Roem: The roem their team received" in " ".join(notes)


def test_the_pdf_has_the_help_under_the_table(season):
    with translation.override("en"):
        report = reports.standings_report(competition=season.competition)
        text = " ".join(" ".join(pdf_pages(pdf.report_pdf(report))).split())
    for title, words in help_lines(report):
        assert f"{title}: {words}" in text
    assert text.index("Roem: The roem") > text.index(report.rows[-1]["name"])
    assert ROEM_TO_THE_OTHER_TEAM in text and TEGENPIT_LEFT_OUT in text


def test_the_evening_result_files_carry_the_same_help(season):
    with translation.override("en"):
        report = reports.evening_report(evening=season.evening)
        sheet = read_xlsx(xlsx.report_xlsx(report)).active
        text = " ".join(" ".join(pdf_pages(pdf.report_pdf(report))).split())
    cells = [row[0] for row in sheet.iter_rows(values_only=True)]
    for title, words in help_lines(report):
        assert f"{title}: {words}" in cells
        assert f"{title}: {words}" in text


def test_the_csv_stays_one_table_without_the_help(season):
    """The CSV is for programs (a spreadsheet import, pandas): a line of words under
    the table would read as a player; the help is in the .xlsx, the PDF and the page."""
    with translation.override("en"):
        report = reports.standings_report(competition=season.competition)
        data = csv_export.report_csv(report).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(data)))
    assert rows[0] == [column.title for column in report.columns]
    assert len(rows) == 1 + len(standings.season_standings(competition=season.competition).lines)
    assert all(len(row) == len(rows[0]) for row in rows)
    for _title, words in help_lines(report):
        assert words not in data


def test_without_a_rule_set_the_help_speaks_in_general_words(club):
    competition = factories.competition(club, ruleset_overrides={"hands_per_game": 0})
    with translation.override("en"):
        help_of = {c.key: c.help for c in standings_columns(competition=competition)}
        assert help_of == {c.key: c.help for c in standings_columns()}
    assert "When a team is nat, the rule set says who gets the roem." in help_of["roem"]
    assert help_of["average"] == "Points per game: the points divided by the games."


def test_a_match_states_what_a_game_is_and_a_sit_out_mars_is_named(club):
    competition = factories.competition(club, ruleset_preset="match-500", sitout_mars=True)
    with translation.override("en"):
        help_of = {c.key: c.help for c in standings_columns(competition=competition)}
    assert help_of["average"].endswith("A game is a match to 500 points.")
    assert help_of["marsen"].endswith("A round sat out counts as a mars.")
    assert ROEM_TO_THE_OTHER_TEAM in help_of["roem"]
