"""The club's marks on its score sheets (``Club.sheet_marks``): the director's grid
reads and shows them, the phone's sheet and the printed and filled PDF sheets write
them, the settings page saves the choice.

Every test plays one rotterdam boompje at one table: hand 1 wij play and take every
trick (a mars of wij), hand 2 wij play and zij take every trick (a tegenpit of zij),
hands 3 to 16 made 100 - 62 without roem.
"""

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from clubs.models import Club
from scoring import services
from scoring.exports import pdf, reports
from scoring.messages import MARK_LEGENDS, mark_legend
from scoring.models import Game
from scoring.rules.sheet import MarkStyle
from scoring.services import HandInput
from tests import factories
from tests.scoring.test_director_pages import made, sheet_data, sheet_url

from .exports.conftest import pdf_pages

pytestmark = pytest.mark.django_db
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}

#: (wij's mark, zij's mark) of hand 1 (wij's mars) and hand 2 (zij's tegenpit, wij
#: played) as each style writes them.
WRITTEN = {
    MarkStyle.PIT_TEAM: (("M", ""), ("", "TP")),
    MarkStyle.MARSEN: (("I", ""), ("", "I")),
    MarkStyle.OTHER_P: (("", "P"), ("P", "")),
    MarkStyle.OTHER_M: (("", "M"), ("M", "")),
}


@pytest.fixture
def boompje(club, director):
    return factories.drawn_round(club, director, players=4, ruleset_preset="rotterdam")


def use_marks(club, style):
    Club.objects.filter(pk=club.pk).update(sheet_marks=style)


def mark_cells(html, number):
    def value(team):
        field = re.search(rf'<input[^>]*name="h{number}-mark_{team}"[^>]*>', html).group(0)
        found = re.search(r'value="([^"]*)"', field)
        return found.group(1) if found else ""

    return value("a"), value("b")


def rows_written(style):
    (mars_a, mars_b), (tegen_a, tegen_b) = WRITTEN[style]
    return [
        {"playing": "A", "points_a": "162", "roem_a": "100", "mark_a": mars_a, "mark_b": mars_b},
        {"playing": "A", "points_a": "0", "roem_b": "100", "mark_a": tegen_a, "mark_b": tegen_b},
    ] + [made(100)] * 14


def record_two_pits(game):
    """Hand 1: wij's mars; hand 2: zij's tegenpit; then 14 hands made 100 - 62."""
    services.hand_record(game=game, data=HandInput(playing="A", points_a=162, points_b=0, pit="A"))
    services.hand_record(game=game, data=HandInput(playing="A", points_a=0, points_b=162, pit="B"))
    for _ in range(14):
        services.hand_record(game=game, data=HandInput(playing="A", points_a=100, points_b=62))


@pytest.mark.parametrize("style", list(MarkStyle))
def test_the_grid_reads_the_clubs_marks_and_shows_them_again(director_client, club, boompje, style):
    use_marks(club, style)
    response = director_client.post(sheet_url(boompje.table), sheet_data(rows_written(style)))
    assert response.status_code == 302
    game = Game.objects.get(pk=boompje.game.pk)
    hands = list(game.hands.order_by("number"))
    assert [(h.pit, h.score_a, h.score_b) for h in hands[:2]] == [
        ("A", 262, 0),  # 162 + the pit's 100
        ("B", 0, 262),  # the defenders' pit: 162 + 100
    ]
    # wij: 262 + 0 + 14 * 100 = 1662; zij: 0 + 262 + 14 * 62 = 1130
    assert (game.total_a, game.total_b) == (1662, 1130)
    assert (game.marsen_a, game.tegenpit_b) == (1, 1)
    page = director_client.get(sheet_url(boompje.table), **ENGLISH).text
    assert (mark_cells(page, 1), mark_cells(page, 2)) == WRITTEN[style]
    assert escape(str(MARK_LEGENDS[style])) in page


@pytest.mark.parametrize("style", [MarkStyle.MARSEN, MarkStyle.OTHER_P, MarkStyle.OTHER_M])
def test_the_grid_still_takes_todays_tegenpit(director_client, club, boompje, style):
    """TP in the defenders' column means one thing in every style."""
    use_marks(club, style)
    rows = [{"playing": "A", "points_a": "0", "mark_b": "TP"}] + [made(100)] * 15
    assert director_client.post(sheet_url(boompje.table), sheet_data(rows)).status_code == 302
    assert boompje.game.hands.get(number=1).pit == "B"


def test_an_m_in_the_defenders_column_is_refused_on_a_p_sheet_and_nothing_is_saved(
    director_client, club, boompje
):
    """On a P sheet an M in zij's column (wij played) could be today's M in the wrong
    column or a mars of wij written the other-column way: the grid asks."""
    use_marks(club, MarkStyle.OTHER_P)
    rows = [{"playing": "A", "points_a": "162", "mark_b": "M"}] + [made(100)] * 15
    response = director_client.post(sheet_url(boompje.table), sheet_data(rows), **ENGLISH)
    assert response.status_code == 422
    with translation.override("en"):
        assert escape(mark_legend(MarkStyle.OTHER_P)) in response.text
    assert not boompje.game.hands.exists()


def test_a_v_in_the_marks_is_verzaakt_and_must_agree_with_the_verzaakt_column(
    director_client, club, boompje
):
    use_marks(club, MarkStyle.MARSEN)
    # zij reneged (V in zij's marks): wij bank 162 + the penalty's 100 = 262.
    rows = [{"playing": "A", "mark_b": "V", "roem_a": "100"}] + [made(100)] * 15
    first = director_client.post(sheet_url(boompje.table), sheet_data(rows), **ENGLISH)
    assert first.status_code == 302
    hand = boompje.game.hands.get(number=1)
    assert (hand.verzaakt, hand.score_a, hand.score_b) == ("B", 262, 0)
    rows[0] = {**rows[0], "verzaakt": "A"}
    response = director_client.post(
        sheet_url(boompje.table),
        sheet_data(rows, reason="typo", version=Game.objects.get(pk=boompje.game.pk).version),
        **ENGLISH,
    )
    assert response.status_code == 422
    assert "The marks and the verzaakt column say different things." in response.text
    assert boompje.game.hands.get(number=1).verzaakt == "B"


@pytest.mark.parametrize("style", list(MarkStyle))
def test_the_filled_pdf_sheet_writes_the_clubs_marks(club, boompje, style):
    use_marks(club, style)
    record_two_pits(boompje.game)
    round_ = boompje.table.round
    with translation.override("en"):
        sheets = reports.round_sheets(round_=round_, entry_url=lambda t: "", filled=True)
        (text,) = pdf_pages(pdf.scoresheets_pdf(sheets))
        legend = str(MARK_LEGENDS[style])
    cells = [line.strip() for line in text.splitlines() if line.strip()]  # one a line

    def written(number, *row):
        """Hand ``number``'s cells after its dealer, blank cells left out."""
        start = cells.index(str(number), cells.index("#"))
        row = [cell for cell in row if cell]
        return cells[start + 2 : start + 2 + len(row)] == row

    (mars_a, mars_b), (tegen_a, tegen_b) = WRITTEN[style]
    # Hand 1: wij 162 | 100 (the pit's bonus, no roem) | mark, zij 0 | | mark.
    assert written(1, "162", "100", mars_a, "0", mars_b)
    # Hand 2: wij played and are nat, zij 162 | 100 (the tegenpit's bonus).
    assert written(2, "nat", tegen_a, "162", "100", tegen_b)
    assert legend in " ".join(text.split())
    if style is MarkStyle.MARSEN:
        # The marsen column's title, and its count in the subtotal: one I each.
        assert cells.count("marsen") == 2
        # card points wij 162 + 0 + 14 * 100 = 1562, roem 100; zij 0 + 162 + 14 * 62 = 1030
        start = cells.index("Subtotal")
        assert cells[start : start + 7] == ["Subtotal", "1562", "100", "1", "1030", "100", "1"]
    else:
        assert "marsen" not in cells


@pytest.mark.parametrize("style", list(MarkStyle))
def test_the_phone_sheet_writes_the_clubs_marks(director_client, club, boompje, style):
    use_marks(club, style)
    record_two_pits(boompje.game)
    page = director_client.get(f"/t/{boompje.table.token}/", **ENGLISH).text

    def marks_of(number):
        row = re.search(rf'<tr id="hand-{number}">(.*?)</tr>', page, re.S).group(1)
        cells = re.findall(r'<td class="num (?:wij|zij)[^"]*">(.*?)</td>', row, re.S)
        return tuple(
            "".join(re.findall(r'<span class="pit[^"]*"[^>]*><span aria-hidden="true">(.*?)<', c))
            for c in cells
        )

    assert (marks_of(1), marks_of(2)) == WRITTEN[style]
    assert escape(str(MARK_LEGENDS[style])) in page


def test_the_settings_page_saves_the_clubs_marks(client, club):
    client.force_login(factories.role(club, "admin"))
    url = reverse("clubs:club-edit", kwargs={"club": club.slug})
    page = client.get(url, **ENGLISH).text
    assert 'name="sheet_marks"' in page and "I (a tally mark)" in page
    from tests.clubs.test_club_ruleset import settings_post

    response = client.post(url, settings_post(club, sheet_marks="marsen"))
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.sheet_marks == "marsen" and club.mark_style() is MarkStyle.MARSEN
    refused = client.post(url, settings_post(club, sheet_marks="X"), **ENGLISH)
    assert refused.status_code == 200 and "sheet_marks" in refused.context["form"].errors
    club.refresh_from_db()
    assert club.sheet_marks == "marsen"
