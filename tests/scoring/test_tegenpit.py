"""Tegenpit: the defenders' pit is marked TP on the score sheets and counted apart
from the playing team's marsen."""

import pytest
from django.urls import reverse

from scoring import services
from scoring.exports import pdf, reports
from scoring.models import Game, sheet_mark
from scoring.results import standings
from tests import factories
from tests.scoring.exports.conftest import pdf_pages
from tests.scoring.test_table_entry import entry_url
from tests.scoring.test_verzaken_roefel import english  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_(club):
    return factories.drawn_round(club, players=4).round


def test_the_defenders_pit_counts_as_tegenpit_not_as_their_mars(round_):
    game = round_.tables.get().game
    factories.hand(game, "A", 0, pit="B")  # zij defended and took every trick: tegenpit
    factories.hand(game, "B", 0, pit="B")  # zij played and took every trick: a mars
    factories.hand(game, "A", 162, pit="A")  # wij played: a mars
    game = Game.objects.get(pk=game.pk)
    assert (game.marsen_a, game.marsen_b) == (1, 1)
    assert (game.tegenpit_a, game.tegenpit_b) == (0, 1)


def test_undoing_the_tegenpit_hand_takes_its_count_away(round_):
    game = round_.tables.get().game
    factories.hand(game, "A", 0, pit="B")
    services.hand_undo(game=Game.objects.get(pk=game.pk))
    assert Game.objects.get(pk=game.pk).tegenpit_b == 0


def test_the_html_sheet_writes_tp_for_the_tegenpit_and_m_for_the_mars_as_the_pdf(client, round_):
    table = round_.tables.get()
    factories.hand(table.game, "A", 0, pit="B")
    factories.hand(table.game, "A", 162, pit="A")
    page = client.get(entry_url(table)).content.decode()
    tegenpit = page.split('<tr id="hand-1">')[1].split("</tr>")[0]
    mars = page.split('<tr id="hand-2">')[1].split("</tr>")[0]
    assert '<span aria-hidden="true">TP</span>' in tegenpit
    assert '<span aria-hidden="true">M</span>' not in tegenpit
    assert '<span aria-hidden="true">M</span>' in mars
    assert "TP" not in mars
    # One formatter: the marks are the ones the printed sheets and the grid write.
    hands = table.game.hands.order_by("number")
    assert [sheet_mark(hand, hand.pit) for hand in hands] == ["TP", "M"]


def test_the_pdf_sheet_writes_tp_in_the_defenders_mark_column(round_):
    game = round_.tables.get().game
    factories.hand(game, "A", 0, pit="B")
    factories.hand(game, "A", 162, pit="A")
    sheets = reports.round_sheets(round_=round_, entry_url=lambda t: f"/t/{t}/", filled=True)
    cells = pdf_pages(pdf.scoresheets_pdf(sheets))[0].splitlines()  # one cell a line
    first = cells.index("1")
    # wij nat: 0; zij 162 and the pit's 100 as roem, TP in their mark column.
    assert cells[first + 2 : first + 6] == ["nat", "162", "100", "TP"]
    second = cells.index("2", first)
    assert cells[second + 2 : second + 5] == ["162", "100", "M"]


def test_player_statistics_show_tegenpit_apart_from_marsen(client, round_):
    table = round_.tables.get()
    factories.hand(table.game, "A", 0, pit="B")
    for _ in range(15):
        factories.hand(table.game, "A", 100)
    services.game_confirm(game=Game.objects.get(pk=table.game.pk), name="Cor")
    east = table.seats.get(position="E").member
    stats = standings.player_stats(member=east, competition=round_.evening.competition)
    assert (stats.marsen, stats.tegenpit) == (0, 1)
    club = round_.evening.competition.club
    client.force_login(factories.role(club, "director"))
    page = client.get(
        reverse(
            "results:player",
            kwargs={"club": club.slug, "pk": east.pk},
        )
    )
    assert "Tegenpit (took every trick as defenders)</dt><dd>1</dd>" in page.text
