"""The league's tables on the page and in the files: one column spec each (issue 16)."""

import io
from fractions import Fraction

import openpyxl
import pytest
from django.urls import reverse

from common.columns import NUMBER, Column
from leagues import exports as league_exports
from leagues import selectors as league_selectors
from leagues.models import League, LeagueMatch
from leagues.tables import (
    club_history_columns,
    club_ranking_columns,
    league_table_columns,
    schedule_columns,
)
from tests.htmltables import read_tables

from .conftest import build_league, generate, play_match
from .test_exports import pdf_text, words

pytestmark = pytest.mark.django_db


def titles(columns):
    return [column.title for column in columns]


@pytest.fixture
def season(db, rng):
    """Two divisions; the second promotes its first team. Three matches confirmed,
    one played and waiting for the captains."""
    world = build_league(divisions=(3, 3), points_rule="proportional", points_shared=7)
    world.league.divisions.filter(level=2).update(promote=1)
    generate(world)
    matches = list(LeagueMatch.objects.filter(league=world.league).order_by("date", "pk"))
    for match in matches[:3]:
        play_match(world, match, rng)
    play_match(world, matches[3], rng, confirm=False)
    return world


def page(client, name, **kwargs):
    response = client.get(reverse(f"leagues:{name}", kwargs=kwargs))
    assert response.status_code == 200
    return response.content.decode()


def test_league_table_page_headers_are_the_specs_titles_abbreviated_with_a_title(client, season):
    league = season.league
    html = page(client, "tables", pk=league.pk)
    tables = read_tables(html, "league-table")
    assert len(tables) == 2
    for table in tables:
        assert table.titles == titles(league_table_columns())
        # The tallies are abbreviated on the page, the full word is the header's title.
        assert table.headers[:7] == [
            ("#", "Place"),
            ("Team", None),
            ("Club", None),
            ("P", "Played"),
            ("W", "Won"),
            ("D", "Drawn"),
            ("L", "Lost"),
        ]


def test_league_table_page_rows_show_the_tables_lines(client, season):
    league = season.league
    html = page(client, "tables", pk=league.pk)
    division_tables = league_selectors.division_tables(league=league)
    page_tables = read_tables(html, "league-table")
    for division_table, table in zip(division_tables, page_tables, strict=True):
        assert len(table.rows) == 3
        for index, (line, (classes, cells)) in enumerate(
            zip(division_table.lines, table.rows, strict=True)
        ):
            place = f"{line.place}{'=' if line.shared else ''}"
            assert cells[:3] == [place, line.team.name, line.team.club.name]
            assert cells[3:7] == [str(line.played), str(line.won), str(line.drawn), str(line.lost)]
            assert cells[7] == league_selectors.format_points(line.row.match_points)
            # Only the second division promotes, its first team only.
            assert ("promote" in classes) == (division_table.division.level == 2 and index == 0)
    # Each team links to its page; the footnote under each table stays.
    for team in season.all_teams:
        assert f'href="{team.get_absolute_url()}"' in html
    assert html.count("confirmed match") == 2  # "... confirmed match(es) counted", twice
    assert "1 up, 0 down at the season" in html


def test_league_table_xlsx_and_pdf_have_the_pages_headers(client, season):
    league = season.league
    tables = league_selectors.division_tables(league=league)
    page_titles = read_tables(page(client, "tables", pk=league.pk), "league-table")[0].titles
    book = openpyxl.load_workbook(
        io.BytesIO(league_exports.league_table_xlsx(league=league, tables=tables))
    )
    for sheet in book.worksheets:
        assert list(next(sheet.iter_rows(max_row=1, values_only=True))) == page_titles
    text = words(pdf_text(league_exports.league_table_pdf(league=league, tables=tables)))
    assert text.count(" ".join(page_titles)) == 2  # the header row of each division


def test_division_page_has_the_table_and_the_schedule_without_the_division_column(client, season):
    team = season.teams[1][0]
    html = page(client, "division-table", pk=season.league.pk, division=team.division_id)
    (table,) = read_tables(html, "league-table")
    assert table.titles == titles(league_table_columns())
    (schedule,) = read_tables(html, "league-schedule")
    assert schedule.titles == titles(schedule_columns(division=False))
    assert "Division" not in schedule.titles
    matches = LeagueMatch.objects.filter(league=season.league, division=team.division_id)
    assert len(schedule.rows) == matches.count() > 0


def test_schedule_page_headers_equal_the_xlsx_and_pdf_headers(client, season):
    league = season.league
    html = page(client, "schedule", pk=league.pk)
    (table,) = read_tables(html, "league-schedule")
    assert (
        table.titles
        == titles(schedule_columns())
        == [
            "Matchday",
            "Date",
            "Division",
            "Home",
            "Away",
            "Points home",
            "Points away",
            "Match points home",
            "Match points away",
            "Status",
        ]
    )
    lines = league_selectors.league_schedule(league=league)
    sheet = openpyxl.load_workbook(
        io.BytesIO(league_exports.schedule_xlsx(league=league, lines=lines))
    ).active
    assert list(next(sheet.iter_rows(max_row=1, values_only=True))) == table.titles
    text = words(pdf_text(league_exports.schedule_pdf(league=league, lines=lines)))
    assert " ".join(table.titles) in text


def test_schedule_page_rows_show_points_match_points_and_status(client, season):
    league = season.league
    html = page(client, "schedule", pk=league.pk)
    (table,) = read_tables(html, "league-schedule")
    lines = league_selectors.league_schedule(league=league)
    assert len(table.rows) == len(lines)
    statuses = []
    for line, (_classes, cells) in zip(lines, table.rows, strict=True):
        match = line.match
        assert cells[0] == str(match.matchday)
        assert cells[2:5] == [match.division.name, match.home.name, match.away.name]
        if line.outcome:
            outcome = line.outcome
            assert cells[5:7] == [str(outcome.home_points), str(outcome.away_points)]
            assert cells[7:9] == [
                league_selectors.format_points(outcome.home_match_points),
                league_selectors.format_points(outcome.away_match_points),
            ]
            # Proportional points: the two sides share the 7 points.
            assert outcome.home_match_points + outcome.away_match_points == 7
        else:
            assert cells[5:9] == ["", "", "", ""]
        statuses.append(cells[9])
        assert f'href="{match.get_absolute_url()}"' in html
    assert statuses.count("confirmed by both captains") == 3
    assert statuses.count("played, to be confirmed") == 1


def test_team_page_schedule_lists_the_teams_matches(client, season):
    team = season.teams[0][0]
    html = page(client, "team-detail", pk=season.league.pk, team=team.pk)
    (table,) = read_tables(html, "league-schedule")
    assert table.titles == titles(schedule_columns())
    assert all(team.name in cells[3:5] for _classes, cells in table.rows)
    assert len(table.rows) == 4  # a double round robin of 3 teams: 2 matches against each other


def test_club_ranking_page_headers_are_the_specs_and_teams_link(client, season):
    league = season.league
    html = page(client, "club-ranking", pk=league.pk)
    (table,) = read_tables(html, "club-ranking")
    assert table.titles == titles(club_ranking_columns())
    assert table.headers[0] == ("#", "Place")
    lines = league_selectors.club_ranking(league=league)
    assert len(table.rows) == len(lines) == 3
    for line, (_classes, cells) in zip(lines, table.rows, strict=True):
        assert cells[1] == line.club.name
        assert cells[2] == ", ".join(f"{team.name} ({position})" for position, team in line.teams)
        for _position, team in line.teams:
            assert f'href="{team.get_absolute_url()}"' in html
    # Every team of division 1 ranks above every team of division 2: 6 positions in all.
    positions = sorted(p for line in lines for p, _team in line.teams)
    assert positions == [1, 2, 3, 4, 5, 6]


def test_empty_league_pages_say_so(client, db):
    world = build_league(divisions=(2,))
    html = page(client, "schedule", pk=world.league.pk)
    assert "No matches yet." in html
    (table,) = read_tables(html, "league-schedule")
    assert table.titles == titles(schedule_columns())


def test_number_column_shows_whole_points_whole_and_others_with_two_decimals():
    column = Column("p", "Points", NUMBER, decimals=2)
    assert column.text({"p": Fraction(2)}) == "2"
    assert column.cell({"p": Fraction(2)}) == 2
    assert column.text({"p": Fraction(7, 3)}) == "2.33"
    assert column.cell({"p": Fraction(7, 3)}) == 2.33
    assert column.text({"p": Fraction(35, 8)}) == "4.38"  # 4.375 rounded half up
    assert column.text({"p": None}) == "" and column.cell({"p": None}) is None


def test_club_history_headers_are_the_specs_and_each_team_has_its_place(client, season):
    club = season.clubs[0]
    html = page(client, "club-history", club=club.slug)
    (table,) = read_tables(html, "club-history")
    assert table.titles == titles(club_history_columns())
    history = league_selectors.club_history(club=club, leagues=League.objects.all())
    assert len(table.rows) == len(history) == 2  # the club's team in each division
    for line, (_classes, cells) in zip(history, table.rows, strict=True):
        assert cells[:4] == [
            line.league.season,
            line.league.name,
            line.team.name,
            line.division.name,
        ]
        place = f"{line.line.place}{'=' if line.line.shared else ''}"
        # 3 teams per division; the season is still being played.
        assert cells[4] == f"{place} / 3 in play"
        assert cells[5:] == [
            str(line.line.played),
            league_selectors.format_points(line.line.row.match_points),
        ]
        assert f'href="{line.division.get_absolute_url()}"' in html
