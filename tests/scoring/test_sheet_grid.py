"""The director's grid reads a row as the score sheet writes it (scoring.rules.sheet):
a pit's roem column holds the pit bonus plus the roem, and a declared-roem grid
takes declarations only."""

import re

import pytest

from scoring import services
from scoring.models import Game, Hand
from scoring.services import HandInput
from tests import factories
from tests.scoring.test_director_pages import sheet_data, sheet_url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _site_language_after():
    """Requests made in English leave English active in this thread."""
    from django.conf import settings
    from django.utils import translation

    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def boompje(club, director):
    return factories.drawn_round(club, director, players=4, ruleset_preset="rotterdam")


@pytest.fixture
def match(club, director):
    return factories.drawn_round(club, director, players=4, ruleset_preset="match-1500")


def stored(game):
    return [
        (h.score_a, h.score_b, h.roem_a, h.roem_b, h.pit) for h in game.hands.order_by("number")
    ]


def roem_input(page, name):
    field = re.search(rf'<input[^>]*name="{name}"[^>]*>', page).group(0)
    value = re.search(r'value="([^"]*)"', field)
    return value.group(1) if value else ""


def test_a_pit_typed_as_the_sheet_writes_it_is_262_not_362(director_client, boompje):
    rows = [{"playing": "A", "points_a": "162", "points_b": "0", "roem_a": "100", "pit": "A"}]
    response = director_client.post(sheet_url(boompje.table), sheet_data(rows))
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get(pk=boompje.game.pk)
    assert stored(game) == [(262, 0, 0, 0, "A")]
    assert (game.total_a, game.marsen_a) == (262, 1)
    # Shown again as the sheet writes it, and saved again unchanged it is no correction.
    page = director_client.get(sheet_url(boompje.table)).text
    assert roem_input(page, "h1-roem_a") == "100"
    again = director_client.post(sheet_url(boompje.table), sheet_data(rows, version=game.version))
    assert again.status_code == 302, again.content.decode()[:3000]
    assert stored(Game.objects.get(pk=game.pk)) == [(262, 0, 0, 0, "A")]


def test_roem_beside_a_pit_is_written_above_the_bonus(director_client, boompje):
    rows = [
        {"playing": "A", "points_a": "162", "roem_a": "120", "pit": "A"},
        {"playing": "A", "points_a": "0", "roem_b": "150", "pit": "B"},  # a tegenpit, 50 roem
        {"playing": "B", "points_b": "162", "pit": "B"},  # blank: the bonus alone
    ]
    response = director_client.post(sheet_url(boompje.table), sheet_data(rows))
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get(pk=boompje.game.pk)
    assert stored(game) == [(282, 0, 20, 0, "A"), (0, 312, 0, 50, "B"), (0, 262, 0, 0, "B")]
    page = director_client.get(sheet_url(boompje.table)).text
    assert [roem_input(page, f"h{n}-roem_{t}") for n, t in ((1, "a"), (2, "b"), (3, "b"))] == [
        "120",
        "150",
        "100",
    ]


PIT_BONUS_EN = (
    "The roem of a pit is written as on the score sheet: the pit&#x27;s 100 plus the roem. "
    "Write 100 (or leave it empty) for a pit without roem, 120 for a pit with 20 roem."
)


def in_language(language, message, **params):
    """``message`` as the page in ``language`` renders it (the Dutch of
    /work/notes/nl-grid.po once merged into the catalogue), HTML-escaped."""
    from django.utils import translation
    from django.utils.html import escape

    with translation.override(language):
        return escape(str(message) % params if params else str(message))


@pytest.mark.parametrize("language", ["nl", "en"])
def test_a_pit_with_roem_below_the_bonus_is_refused_saying_how_to_write_it(
    director_client, boompje, language
):
    from scoring.messages import SHEET_BONUS_MESSAGES

    director_client.cookies["django_language"] = language
    rows = [{"playing": "A", "points_a": "162", "roem_a": "20", "pit": "A"}]
    response = director_client.post(sheet_url(boompje.table), sheet_data(rows))
    assert response.status_code == 422
    assert response.context["sheet"].forms[0].errors["roem_a"]
    expected = in_language(language, SHEET_BONUS_MESSAGES["pit"], bonus=100, example=120)
    assert expected in response.text
    if language == "en":
        assert PIT_BONUS_EN in response.text
    assert f'<html lang="{language}"' in response.text
    assert not Hand.objects.exists()


def test_a_verzaken_row_as_the_sheet_writes_it_counts_the_penalty_once(director_client, boompje):
    rows = [{"playing": "B", "verzaakt": "A", "roem_b": "170"}]
    data = sheet_data(rows)
    data["h1-verzaakt"] = "A"
    response = director_client.post(sheet_url(boompje.table), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    hand = Hand.objects.get()
    assert (hand.score_a, hand.score_b, hand.roem_b) == (0, 162 + 70 + 100, 70)


def test_a_nat_team_may_be_written_nat_as_the_sheet_writes_it(director_client, boompje):
    rows = [{"playing": "A", "points_a": "nat", "roem_b": "40"}]
    response = director_client.post(sheet_url(boompje.table), sheet_data(rows))
    assert response.status_code == 302, response.content.decode()[:3000]
    hand = Hand.objects.get()
    assert (hand.nat, hand.points_a, hand.points_b, hand.score_a, hand.score_b) == (
        True,
        0,
        162,
        0,
        202,
    )


def test_only_the_team_that_played_can_be_written_nat(director_client, boompje):
    director_client.cookies["django_language"] = "en"
    rows = [{"playing": "A", "points_b": "nat"}]  # zij did not play
    response = director_client.post(sheet_url(boompje.table), sheet_data(rows))
    assert response.status_code == 422
    assert "Only the team that played can be nat." in response.text


# --- Match to 1500: declarations only ------------------------------------------------


def declared_data(rows, **kwargs):
    data = sheet_data([], total_rows=len(rows) + 1, **kwargs)
    for number, row in enumerate(rows, start=1):
        for name, value in row.items():
            data[f"h{number}-{name}"] = str(value)
    return data


def test_a_declared_roem_grid_has_no_roem_total_columns(director_client, match):
    page = director_client.get(sheet_url(match.table)).text
    assert 'name="h1-declared_a"' in page
    assert 'name="h1-roem_a"' not in page and "roem wij (total)" not in page


DECLARED_NOT_TOTALS_EN = (
    "This competition declares roem: write what each team declared, e.g. 50+20+stuk, "
    "not a roem total (a total cannot tell a run of 20 from a stuk)."
)


@pytest.mark.parametrize("language", ["nl", "en"])
def test_a_posted_roem_total_is_refused_under_declared_roem(director_client, match, language):
    """roem_a=20, roem_b=50 with 100/62, A played: a total would store 120/112 and skip
    the highest-run rule; the grid refuses it and stores nothing."""
    director_client.cookies["django_language"] = language
    rows = [{"playing": "A", "points_a": "100", "points_b": "62", "roem_a": "20", "roem_b": "50"}]
    response = director_client.post(sheet_url(match.table), declared_data(rows))
    assert response.status_code == 422
    assert response.context["sheet"].forms[0].non_field_errors()
    from scoring.messages import MESSAGES

    assert in_language(language, MESSAGES["declared_not_totals"]) in response.text
    if language == "en":
        assert DECLARED_NOT_TOTALS_EN in response.text
    assert f'<html lang="{language}"' in response.text
    assert not Hand.objects.exists()


def test_the_same_hand_as_declarations_keeps_only_the_highest_run(director_client, match):
    rows = [{"playing": "A", "points_a": "100", "declared_a": "20", "declared_b": "50"}]
    response = director_client.post(sheet_url(match.table), declared_data(rows))
    assert response.status_code == 302, response.content.decode()[:3000]
    hand = Hand.objects.get()
    assert (hand.score_a, hand.score_b) == (100, 112)


def test_a_hand_stored_with_a_total_keeps_it_in_a_declared_grid(director_client, match):
    """A hand stored before declarations (a total, as old imports have it) is shown
    with its total and saved again unchanged; declarations typed replace it."""
    services.hand_record(
        game=match.game,
        data=HandInput(playing="A", points_a=100, points_b=62, roem_a=0, roem_b=50),
    )
    game = Game.objects.get(pk=match.game.pk)
    director_client.cookies["django_language"] = "en"
    page = director_client.get(sheet_url(match.table)).text
    assert "roem 50, entered as a total" in page and "roem 0, entered" not in page
    rows = [{"playing": "A", "points_a": "100", "points_b": "62"}]
    response = director_client.post(
        sheet_url(match.table), declared_data(rows, version=game.version)
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    hand = Hand.objects.get()
    assert (hand.roem_b, hand.score_a, hand.score_b) == (50, 100, 112)


# --- The grid's own round trip: a stored hand shown, read back, is the same entry ---------

STORED = {
    "pit": {"playing": "A", "points_a": 162, "points_b": 0, "pit": "A"},
    "pit with roem": {"playing": "B", "points_a": 0, "points_b": 162, "roem_b": 70, "pit": "B"},
    "tegenpit with roem": {
        "playing": "A",
        "points_a": 0,
        "points_b": 162,
        "roem_b": 20,
        "pit": "B",
    },
    "nat": {"playing": "A", "points_a": 70, "points_b": 92, "roem_a": 20, "roem_b": 20},
    "made": {"playing": "B", "points_a": 60, "points_b": 102, "roem_b": 50},
    "verzaakt, roem in both columns": {
        "playing": "B",
        "points_a": 0,
        "points_b": 162,
        "roem_a": 20,
        "roem_b": 50,
        "verzaakt": "A",
    },
}


@pytest.mark.parametrize("name", STORED)
def test_a_stored_hand_shown_in_the_grid_reads_back_as_the_same_entry(name):
    from scoring.forms import SheetRowForm
    from scoring.rules import get_ruleset

    ruleset = get_ruleset("rotterdam")
    entry = HandInput(**STORED[name])
    hand = Hand(**{field: getattr(entry, field) for field in STORED[name]})
    shown = SheetRowForm.initial_from(hand, ruleset)
    data = {f"h1-{key}": "" if value is None else str(value) for key, value in shown.items()}
    form = SheetRowForm(data, number=1, ruleset=ruleset, prefix="h1", initial=shown)
    assert form.is_valid(), form.errors
    assert form.hand_input() == entry
    assert form.hand_input().score(ruleset) == entry.score(ruleset)
