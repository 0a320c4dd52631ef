"""A season counted by periods (best N evenings a period, best M periods), the
average's basis, and the side rankings in the standings downloads: each a setting
on the competition page, played as a small season and checked against numbers
worked out by hand.

Six evenings, one table (A C against B D), one hand a game, one round an evening;
three periods of two evenings each. A's team scores (B's team the rest of 162):

    period     evening     A, C    B, D
    Autumn     6 Oct        160       2
    Autumn     13 Oct       155       7
    Winter     3 Nov         12     150
    Winter     10 Nov        12     150
    Spring     1 Dec         12     150
    Spring     8 Dec         12     150

Best 2 evenings of the whole season: A 160 + 155 = 315, B 150 + 150 = 300: A wins.
Best 1 evening a period, best 2 periods:
    A: Autumn 160, Winter 12, Spring 12 -> 160 + 12 = 172 (Winter: the earlier of two equal)
    B: Autumn 7, Winter 150, Spring 150 -> 150 + 150 = 300: B wins.
"""

import csv
import datetime
import html
import io

import openpyxl
import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.translation import gettext

from scoring import services as scoring_services
from scoring.models import Game
from scoring.results import standings
from tests import factories
from tests.scoring.exports.conftest import pdf_pages
from tests.scoring.results.test_club_rules import by_name, check_in, configure, seat
from tournaments import services
from tournaments.models import Competition
from tournaments.words import describe_periods

pytestmark = pytest.mark.django_db

SEASON = [
    ("Autumn", datetime.date(2026, 10, 6), 160),
    ("Autumn", datetime.date(2026, 10, 13), 155),
    ("Winter", datetime.date(2026, 11, 3), 12),
    ("Winter", datetime.date(2026, 11, 10), 12),
    ("Spring", datetime.date(2026, 12, 1), 12),
    ("Spring", datetime.date(2026, 12, 8), 12),
]
PERIODS = {
    "Autumn": (datetime.date(2026, 10, 1), datetime.date(2026, 10, 31)),
    "Winter": (datetime.date(2026, 11, 1), datetime.date(2026, 11, 30)),
    "Spring": (datetime.date(2026, 12, 1), datetime.date(2026, 12, 31)),
}


@pytest.fixture
def players(club):
    return factories.named_members(club, "ABCD")


def says_average(text, unit):
    """Whether ``text`` holds the average's title per ``unit`` (short or long)."""
    titles = {
        "game": (gettext("Avg. per game"), gettext("Average per game")),
        "evening": (gettext("Avg. per evening"), gettext("Average per evening")),
    }[unit]
    return any(title in text for title in titles)


def play_evening(monkeypatch, competition, players, director, date, points_a):
    """One round at one table; the team with more points plays (no nat)."""
    evening = services.evening_create(competition=competition, date=date, by=director)
    check_in(evening, players, "ABCD", director)
    seat(monkeypatch, players, [(["ABCD"], "")])
    round_ = services.round_draw(evening=evening, by=director)
    playing = "A" if points_a > 81 else "B"
    factories.round_played(round_, [factories.hand_input(playing, points_a)], by=director)
    return services.evening_set_status(evening=evening, status="finished", by=director)


def play_season(monkeypatch, director_client, club, players, director, **settings):
    competition = configure(director_client, club, rounds_per_evening=1, **settings)
    for name, (start, end) in PERIODS.items():
        services.period_add(
            competition=competition, name=name, start_date=start, end_date=end, by=director
        )
    for _period, date, points_a in SEASON:
        play_evening(monkeypatch, competition, players, director, date, points_a)
    return competition


def test_best_evenings_of_the_whole_season_rank_a_to_the_top(
    monkeypatch, director_client, club, players, director
):
    competition = play_season(monkeypatch, director_client, club, players, director, best_of=2)
    lines = by_name(standings.season_standings(competition=competition), players)
    assert (lines["A"].points, lines["A"].rank) == (315, 1)
    assert (lines["B"].points, lines["B"].rank) == (300, 3)  # A and C share 1st


def test_best_evenings_a_period_and_best_periods_rank_b_to_the_top(
    monkeypatch, director_client, club, players, director
):
    competition = play_season(
        monkeypatch, director_client, club, players, director, best_of=1, best_periods=2
    )
    table = standings.season_standings(competition=competition)
    lines = by_name(table, players)
    assert (lines["B"].points, lines["B"].rank) == (300, 1)
    assert (lines["A"].points, lines["A"].rank) == (172, 3)
    names = {p.pk: p.name for p in table.periods}
    assert [(names[r.period], r.points, r.counted) for r in lines["A"].periods] == [
        ("Autumn", 160, True),
        ("Winter", 12, True),
        ("Spring", 12, False),
    ]
    assert [(names[r.period], r.points, r.counted) for r in lines["B"].periods] == [
        ("Autumn", 7, False),
        ("Winter", 150, True),
        ("Spring", 150, True),
    ]
    # Counted evenings: A's 6 Oct (160) and one of Winter's 12s; B's best in two periods.
    assert len(lines["A"].counted) == 2 and len(lines["B"].counted) == 2

    page = director_client.get(
        reverse("results:standings", kwargs={"club": club.slug, "pk": competition.pk})
    ).content.decode()
    sentences = describe_periods(competition)
    assert len(sentences) == 3
    for sentence in sentences:
        assert sentence in html.unescape(page)

    sheet = openpyxl.load_workbook(
        io.BytesIO(
            director_client.get(
                reverse("exports:standings-xlsx", kwargs={"club": club.slug, "pk": competition.pk})
            ).getvalue()
        )
    ).active
    values = [list(row) for row in sheet.iter_rows(values_only=True)]
    header = next(row for row in values if row and "Autumn" in row)
    b_row = next(row for row in values if row and "Speler B" in row)
    assert b_row[header.index("Autumn")] == 7
    assert b_row[header.index("Winter")] == 150
    assert b_row[header.index(gettext("Periods counted"))] == "Winter, Spring"
    for sentence in sentences:
        assert [sentence] in [[c for c in row if c] for row in values]

    rows = list(
        csv.reader(
            io.StringIO(
                director_client.get(
                    reverse(
                        "exports:standings-csv", kwargs={"club": club.slug, "pk": competition.pk}
                    )
                )
                .getvalue()
                .decode("utf-8-sig")
            ),
            delimiter=";",
        )
    )
    header = rows[0]
    b_row = next(row for row in rows if "Speler B" in row)
    assert b_row[header.index("Spring")] == "150"
    assert b_row[header.index(gettext("Points"))] == "300"

    text = "\n".join(
        pdf_pages(
            director_client.get(
                reverse("exports:standings-pdf", kwargs={"club": club.slug, "pk": competition.pk})
            ).getvalue()
        )
    )
    assert "Autumn" in text and "Speler B" in text and "300" in text

    player = director_client.get(
        reverse("results:player", kwargs={"club": club.slug, "pk": players["A"].pk}),
        {"competition": competition.pk},
    ).content.decode()
    assert gettext("Periods") in player and "Spring" in player


def test_best_periods_is_validated_by_the_model_the_database_and_the_settings_page(
    director_client, club
):
    competition = Competition(
        club=club,
        name="Toernooi",
        format="tournament",
        start_date=datetime.date(2026, 9, 1),
        end_date=datetime.date(2026, 9, 1),
        best_periods=2,
    )
    with pytest.raises(ValidationError) as caught:
        competition.full_clean()
    assert "best_periods" in caught.value.error_dict
    competition.format, competition.best_periods = "season", 0
    with pytest.raises(ValidationError) as caught:
        competition.full_clean()
    assert "best_periods" in caught.value.error_dict
    with pytest.raises(IntegrityError), transaction.atomic():
        competition.save()  # the check constraint holds without clean()
    with pytest.raises(AssertionError):  # the settings page refuses it, saves nothing
        configure(director_client, club, best_periods=0)
    assert not Competition.objects.filter(club=club).exists()


def test_the_average_per_evening_divides_by_evenings_and_says_so(
    monkeypatch, director_client, club, players, director
):
    # Two evenings of two rounds would differ; with one round an evening the two bases
    # agree in value, so play a second round on the first evening by hand: the
    # average per game of A = (160 + 155 + 4 * 12) / 6 games = 363 / 6 = 60.5; per
    # evening with one game each it is the same: check the titles instead, and the
    # value with a competition of two games an evening below.
    competition = play_season(
        monkeypatch, director_client, club, players, director, average_unit="evening"
    )
    lines = by_name(standings.season_standings(competition=competition), players)
    # Six evenings, six games: A 363 / 6.
    assert float(lines["A"].average) == pytest.approx(60.5)
    page = director_client.get(
        reverse("results:standings", kwargs={"club": club.slug, "pk": competition.pk})
    ).content.decode()
    assert says_average(page, "evening") and not says_average(page, "game")


def test_the_average_per_game_and_per_evening_differ_with_two_games_an_evening(
    monkeypatch, director_client, club, players, director
):
    """Two rounds an evening, two evenings: A's team plays 100 and 120, then 90 and 150.
    A: 460 points, 4 games, 2 evenings: 115 per game, 230 per evening."""
    competition = configure(director_client, club, rounds_per_evening=2, average_unit="game")
    for date, hands in (
        (datetime.date(2026, 10, 6), (100, 120)),
        (datetime.date(2026, 10, 13), (90, 150)),
    ):
        evening = services.evening_create(competition=competition, date=date, by=director)
        check_in(evening, players, "ABCD", director)
        seat(monkeypatch, players, [(["ABCD"], ""), (["ABCD"], "")])
        for points_a in hands:
            round_ = services.round_draw(evening=evening, by=director)
            game = Game.objects.get(table__round=round_)
            row = scoring_services.HandInput(
                playing="A", points_a=points_a, points_b=162 - points_a
            )
            scoring_services.game_enter_sheet(game=game, rows=[row], by=director)
            scoring_services.game_confirm(game=game, name="Tegenpartij")
        services.evening_set_status(evening=evening, status="finished", by=director)
    kwargs = {"club": club.slug, "pk": competition.pk}
    results = {}
    for unit in ("game", "evening"):
        competition.average_unit = unit
        competition.full_clean()
        competition.save()
        lines = by_name(standings.season_standings(competition=competition), players)
        results[unit] = float(lines["A"].average)
        sheet = openpyxl.load_workbook(
            io.BytesIO(
                director_client.get(reverse("exports:standings-xlsx", kwargs=kwargs)).getvalue()
            )
        ).active
        header = next(row for row in sheet.iter_rows(values_only=True) if "#" in row)
        assert says_average(" ".join(str(c) for c in header if c), unit), header
        page = director_client.get(reverse("results:standings", kwargs=kwargs)).content.decode()
        assert says_average(page, unit)
    assert results == {"game": pytest.approx(115), "evening": pytest.approx(230)}


def test_the_puntenkampioen_is_in_every_download(
    monkeypatch, director_client, club, players, director
):
    """Best 1 evening: A 160 (6 Oct). The puntenkampioen counts every evening:
    A 160 + 155 + 4 * 12 = 363, B 2 + 7 + 4 * 150 = 609: B leads it."""
    competition = play_season(
        monkeypatch, director_client, club, players, director, best_of=1, side_rankings=["points"]
    )
    sides = dict(standings.side_standings(competition=competition))
    points = by_name(sides["points"], players)
    assert (points["B"].points, points["B"].rank) == (609, 1)
    kwargs = {"club": club.slug, "pk": competition.pk}

    rows = list(
        csv.reader(
            io.StringIO(
                director_client.get(reverse("exports:standings-csv", kwargs=kwargs))
                .getvalue()
                .decode("utf-8-sig")
            ),
            delimiter=";",
        )
    )
    header = rows[0]
    side_rows = [row for row in rows[1:] if row[0] != rows[1][0]]
    b_side = next(row for row in side_rows if "Speler B" in row)
    assert b_side[header.index(gettext("Points"))] == "609"

    book = openpyxl.load_workbook(
        io.BytesIO(director_client.get(reverse("exports:standings-xlsx", kwargs=kwargs)).getvalue())
    )
    cells = [c for ws in book.worksheets for row in ws.iter_rows(values_only=True) for c in row]
    assert 609 in cells and 363 in cells

    text = "\n".join(
        pdf_pages(director_client.get(reverse("exports:standings-pdf", kwargs=kwargs)).getvalue())
    )
    assert "609" in text and "363" in text
