"""Verzaken as the club plays it (``Ruleset.verzaken_rule``), forced play, and the
core's reason for roem the card points cannot hold: each played as a small boompje
of two hands and compared with sums worked out by hand."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.messages import MESSAGES, ROEM_NEEDS_POINTS
from scoring.models import Adjustment, Hand
from scoring.results import standings
from scoring.rules import Chooser, get_ruleset, simulate_deal
from scoring.services import HandInput
from tests import factories
from tests.htmltables import read_tables
from tests.scoring.test_table_entry import entry_url, hand_data

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def boompje(club, director, **overrides):
    """One table of a two-hand game under Rotterdam with ``overrides``; ``seats`` are
    its members by position."""
    drawn = factories.drawn_round(
        club,
        director,
        players=4,
        ruleset_overrides={"hands_per_game": 2, **overrides},
        rounds_per_evening=1,
    )
    drawn.seats = {s.position: s.member for s in drawn.table.seats.all()}
    return drawn


def play_two_hands(game, second):
    """Hand 1: wij play and make it, 100-62, wij 20 roem (banks 120 | 62). Hand 2: ``second``."""
    factories.hand(game, "A", 100, roem_a=20)
    services.hand_record(game=game, data=second)
    game.refresh_from_db()
    return game


# --- Each rule, a boompje ------------------------------------------------------------------


def test_all_roem_gives_the_other_team_162_all_roem_and_100(club, director):
    table = boompje(club, director)
    # Hand 2: zij verzaken with 20 roem of wij and 50 of zij in the tricks so far:
    # wij bank 162 + 20 + 50 + 100 = 332, zij 0. Totals: wij 120 + 332 = 452, zij 62.
    game = play_two_hands(
        table.game,
        HandInput(playing="B", points_a=162, points_b=0, roem_a=20, roem_b=50, verzaakt="B"),
    )
    assert (game.total_a, game.total_b, game.verzaken_b) == (452, 62, 1)
    assert not Adjustment.objects.exists()


def test_no_roem_gives_the_other_team_162_and_100_only(club, director):
    table = boompje(club, director, verzaken_rule="no_roem")
    # Hand 2 as above: wij bank 162 + 100 = 262 (no roem at all), zij 0.
    # Totals: wij 120 + 262 = 382, zij 62; wij's banked roem is hand 1's 20 only.
    game = play_two_hands(
        table.game,
        HandInput(playing="B", points_a=162, points_b=0, roem_a=20, roem_b=50, verzaakt="B"),
    )
    assert (game.total_a, game.total_b, game.verzaken_b) == (382, 62, 1)
    assert (game.roem_a, game.roem_b) == (20, 0)


def test_no_penalty_scores_the_hand_as_played(club, director):
    table = boompje(club, director, verzaken_rule="none")
    # Hand 2: zij play, 90-72 for zij, zij 20 roem; a renege is not punished:
    # zij 90 + 20 = 110 > 72, made; wij bank 72, zij 110. Totals: wij 192, zij 172.
    game = play_two_hands(
        table.game, HandInput(playing="B", points_a=72, points_b=90, roem_b=20, verzaakt="B")
    )
    assert (game.total_a, game.total_b, game.verzaken_b) == (192, 172, 0)
    assert Hand.objects.get(game=game, number=2).verzaakt == ""
    assert not Adjustment.objects.exists()


def test_personal_penalty_goes_to_the_offender_and_the_round_adds_up(club, director, client):
    table = boompje(club, director, verzaken_rule="personal")
    east, west = table.seats["E"], table.seats["W"]
    # Hand 2 as played: zij play 90-72, zij 20 roem, made (110 > 72): wij 72, zij 110;
    # East reneged: East gets -100 personally, West keeps the points.
    game = play_two_hands(
        table.game,
        HandInput(playing="B", points_a=72, points_b=90, roem_b=20, verzaakt="B", offender="E"),
    )
    assert (game.total_a, game.total_b) == (120 + 72, 62 + 110)  # 192 | 172
    penalty = Adjustment.objects.get()
    assert (penalty.member, penalty.points, penalty.kind) == (east, -100, "verzaken")
    assert penalty.round == table.table.round
    services.game_confirm(game=game, name="Tegenpartij")

    result = standings.evening_result(evening=table.evening)
    points = {line.key: line.points for line in result.lines}
    # East: 172 - 100 = 72; West 172; North and South 192.
    assert points[east.pk] == 72 and points[west.pk] == 172
    assert result.rounds[east.pk] == {1: 72}  # the round column is the total
    assert result.rounds[west.pk] == {1: 172}

    page = client.get(
        reverse("results:evening", kwargs={"club": club.slug, "pk": table.evening.pk}),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    sheet = read_tables(page.content.decode())[0]
    texts = [text for text, _title in sheet.headers]
    rows = {cells[texts.index("Player")]: cells for _classes, cells in sheet.rows}
    east_row = next(cells for name, cells in rows.items() if east.name in name)
    # Round 1 is East's whole evening: 172 - 100 = 72, as the total.
    assert east_row[texts.index("Round 1")] == "72" == east_row[texts.index("Points")]

    stats = standings.player_stats(member=east, competition=table.season)
    assert (stats.points, stats.penalties, stats.penalty_points) == (72, 1, -100)
    page = client.get(
        reverse("results:player", kwargs={"club": club.slug, "pk": east.pk}),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Verzaakt, penalty to the player" in page.content.decode()


def test_personal_penalty_needs_a_player_of_the_team_that_verzaakt(club, director):
    table = boompje(club, director, verzaken_rule="personal")
    with pytest.raises(ValidationError) as info:
        services.hand_record(
            game=table.game,
            data=HandInput(playing="B", points_a=72, points_b=90, verzaakt="B", offender="N"),
        )
    assert "offender" in info.value.message_dict
    assert not Hand.objects.exists() and not Adjustment.objects.exists()


def test_phone_entry_records_the_personal_penalty(club, director, client):
    table = boompje(club, director, verzaken_rule="personal")
    page = client.get(entry_url(table.table), HTTP_ACCEPT_LANGUAGE="en")
    body = page.content.decode()
    assert "Who reneged" in body and "data-verzaken-played" in body
    assert "gets -100 personally" in body
    data = hand_data(playing="B", points_a="72", roem_b="20", verzaakt="B", offender="W")
    response = client.post(entry_url(table.table, "table-hand"), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code in (200, 302), response.content.decode()[:2000]
    hand = Hand.objects.get(game=table.game)
    assert (hand.score_a, hand.score_b, hand.verzaakt) == (72, 110, "")
    assert Adjustment.objects.get().member == table.seats["W"]


def test_the_grid_help_follows_the_rule(club, director):
    from scoring.forms import verzaakt_help

    ruleset = get_ruleset().replace(verzaken_rule="no_roem")
    assert "162 + the penalty and no roem" in verzaakt_help(False, ruleset)
    assert "as played" in verzaakt_help(False, get_ruleset().replace(verzaken_rule="none"))


# --- Forced play ---------------------------------------------------------------------------


def test_forced_play_lets_the_forehand_always_choose_trump():
    ruleset = get_ruleset().replace(forced_play=True)
    for seed in range(40):
        deal = simulate_deal(ruleset, seed=seed, dealer=seed % 4)
        assert deal.forced and int(deal.chooser) == (seed % 4 + 1) % 4
    dealer_chooses = ruleset.replace(all_pass_chooser=Chooser.DEALER)
    assert all(int(simulate_deal(dealer_chooses, seed=s, dealer=2).chooser) == 2 for s in range(10))
    # With passing (the default) some of the same deals are named by another seat.
    assert any(not simulate_deal(get_ruleset(), seed=s).forced for s in range(40))


# --- The core's reason for roem --------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "nl"])
def test_roem_the_card_points_cannot_hold_says_why(club, director, language):
    table = boompje(club, director)
    # 100 roem needs tricks worth at least 12 card points (the core's bound); wij have 10.
    with translation.override(language), pytest.raises(ValidationError) as info:
        services.hand_record(
            game=table.game, data=HandInput(playing="B", points_a=10, points_b=152, roem_a=100)
        )
    message = info.value.message_dict["roem_a"][0]
    with translation.override(language):
        assert message == str(ROEM_NEEDS_POINTS) % {"value": 100, "limit": 12, "points": 10}
        assert message != str(MESSAGES["roem_too_high"])
    if language == "en":
        assert message == "100 roem needs tricks worth at least 12 card points; this team has 10."


def test_the_grid_takes_no_verzaakt_where_the_hand_counts_as_played(club, director):
    from scoring.forms import SHEET_PLAYED_VERZAKEN, ScoreSheet

    ruleset = get_ruleset().replace(verzaken_rule="personal")
    sheet = ScoreSheet(rows=2, ruleset=ruleset)
    assert sheet.verzaakt_help == str(SHEET_PLAYED_VERZAKEN)
    from scoring.forms import SheetRowForm

    row = SheetRowForm(
        {"playing": "B", "points_a": "72", "points_b": "90", "verzaakt": "B"},
        number=1,
        ruleset=ruleset,
    )
    assert not row.is_valid()
    assert row.errors["verzaakt"] == [str(SHEET_PLAYED_VERZAKEN)]


def test_undoing_the_hand_withdraws_the_players_penalty(club, director):
    table = boompje(club, director, verzaken_rule="personal")
    services.hand_record(
        game=table.game,
        data=HandInput(playing="B", points_a=72, points_b=90, verzaakt="B", offender="E"),
    )
    services.hand_undo(game=table.game)
    # -100 and its withdrawal +100: East's adjustments add up to 0.
    assert sorted(Adjustment.objects.values_list("points", flat=True)) == [-100, 100]
    assert {a.member for a in Adjustment.objects.all()} == {table.seats["E"]}


def test_replacing_the_hand_moves_the_players_penalty_with_the_chosen_version(club, director):
    """Two phones entered hand 1 differently: East reneged (-100 to East), or West did.
    Choosing West's version withdraws East's penalty (+100) and gives West -100;
    choosing a version without verzaken withdraws West's. Each player's adjustments
    then add up to what the chosen version says: East 0, West 0 at the end."""
    table = boompje(club, director, verzaken_rule="personal")
    game = table.game
    services.hand_record(
        game=game,
        data=HandInput(playing="B", points_a=72, points_b=90, verzaakt="B", offender="E"),
    )
    game.refresh_from_db()
    services.hand_replace(
        game=game,
        number=1,
        data=HandInput(playing="B", points_a=72, points_b=90, verzaakt="B", offender="W"),
        expected_version=game.version,
    )

    def totals():
        return {
            position: sum(Adjustment.objects.filter(member=member).values_list("points", flat=True))
            for position, member in table.seats.items()
        }

    assert totals() == {"N": 0, "E": 0, "S": 0, "W": -100}
    game.refresh_from_db()
    services.hand_replace(
        game=game,
        number=1,
        data=HandInput(playing="B", points_a=72, points_b=90),
        expected_version=game.version,
    )
    assert totals() == {"N": 0, "E": 0, "S": 0, "W": 0}
    # Undoing the hand now withdraws nothing more: its version has no penalty.
    game.refresh_from_db()
    services.hand_undo(game=game)
    assert totals() == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert Adjustment.objects.count() == 4  # -100 E, +100 E, -100 W, +100 W


def test_undoing_a_hand_entered_on_the_grid_finds_no_penalty(club, director):
    """A hand the grid entered has a sheet's audit entry (a list of hands): undoing it
    withdraws nothing and does not fail."""
    table = boompje(club, director, verzaken_rule="personal")
    services.game_enter_sheet(
        game=table.game, rows=[HandInput(playing="A", points_a=100, points_b=62)], by=director
    )
    services.hand_undo(game=table.game)
    assert not Adjustment.objects.exists()
    assert not Hand.objects.filter(game=table.game).exists()


def test_the_same_hand_from_the_other_phone_names_the_same_player_who_reneged(club, director):
    """Under the personal rule a hand "East reneged" is not the hand "West reneged" nor
    the hand without verzaken: the other phone's version would lose its penalty."""
    table = boompje(club, director, verzaken_rule="personal")
    east = HandInput(playing="B", points_a=72, points_b=90, verzaakt="B", offender="E")
    stored = services.hand_record(game=table.game, data=east)
    assert stored.offender == "E" and stored.penalty.member == table.seats["E"]
    assert services.hand_same_as(hand=stored, data=east)
    west = HandInput(playing="B", points_a=72, points_b=90, verzaakt="B", offender="W")
    assert not services.hand_same_as(hand=stored, data=west)
    assert not services.hand_same_as(
        hand=stored, data=HandInput(playing="B", points_a=72, points_b=90)
    )
    # And the other way round: a stored hand without verzaken is not "East reneged".
    services.hand_undo(game=table.game)
    plain = services.hand_record(
        game=table.game, data=HandInput(playing="B", points_a=72, points_b=90)
    )
    assert plain.offender == "" and not services.hand_same_as(hand=plain, data=east)


def test_the_other_phones_hand_with_another_player_who_reneged_is_a_conflict(
    club, director, client
):
    """Through the phone's JSON: hand 1 stored with East reneged; the other phone sends
    hand 1 with West reneged: shown as a conflict (409), not taken as the same hand."""
    table = boompje(club, director, verzaken_rule="personal")
    services.hand_record(
        game=table.game,
        data=HandInput(playing="B", points_a=72, points_b=90, verzaakt="B", offender="E"),
    )
    body = {
        "number": 1,
        "keeper": "A",
        "client_id": "other-phone",
        "playing": "B",
        "points_a": 72,
        "points_b": 90,
        "verzaakt": "B",
        "offender": "W",
    }
    response = client.post(
        entry_url(table.table, "table-hands-json"),
        body,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 409, response.content.decode()[:500]
    conflict = response.json()
    assert conflict["current"]["offender"] == "E"
    assert conflict["current"]["text"].endswith(", East reneged")
    body["offender"] = "E"
    response = client.post(
        entry_url(table.table, "table-hands-json"),
        body,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200 and Adjustment.objects.count() == 1


HAND_1 = HandInput(playing="A", points_a=100, points_b=62, roem_a=20)
EAST_RENEGED = HandInput(playing="B", points_a=72, points_b=90, verzaakt="B", offender="E")


def east_points(table):
    return sorted(
        Adjustment.objects.filter(member=table.seats["E"]).values_list("points", flat=True)
    )


def test_a_penalty_undone_is_not_withdrawn_again_after_the_grid(club, director):
    """Phone: hand 2 with East reneged (-100), undone (+100). The director enters hand 2
    on the grid; the phone undoes hand 2 again: nothing more is withdrawn (East 0,
    not +100)."""
    table = boompje(club, director, verzaken_rule="personal")
    game = table.game
    services.hand_record(game=game, data=HAND_1)
    services.hand_record(game=game, data=EAST_RENEGED)
    services.hand_undo(game=game)
    assert east_points(table) == [-100, 100]
    services.game_enter_sheet(
        game=game,
        rows=[HAND_1, HandInput(playing="B", points_a=72, points_b=90)],
        by=director,
        reason="Paper sheet",
    )
    services.hand_undo(game=game)
    assert east_points(table) == [-100, 100]  # -100 + 100 = 0


def test_the_grid_withdraws_the_penalty_of_a_hand_it_changes_or_removes(club, director):
    """Hand 2 with East reneged (-100). A sheet that changes hand 2 withdraws it (+100);
    so does a sheet without hand 2 (a second game, same players)."""
    table = boompje(club, director, verzaken_rule="personal")
    game = table.game
    services.hand_record(game=game, data=HAND_1)
    services.hand_record(game=game, data=EAST_RENEGED)
    changed = HandInput(playing="B", points_a=82, points_b=80)
    services.game_enter_sheet(game=game, rows=[HAND_1, changed], by=director, reason="Typo")
    assert east_points(table) == [-100, 100]
    withdrawal = Adjustment.objects.get(points=100)
    assert withdrawal.reason == "Hand 2 corrected on the sheet: its verzaken penalty is withdrawn"
    assert withdrawal.round == table.table.round
    # The hand is the sheet's now: undoing it withdraws nothing more.
    services.hand_undo(game=game)
    assert east_points(table) == [-100, 100]

    services.hand_record(game=game, data=EAST_RENEGED)
    services.game_enter_sheet(game=game, rows=[HAND_1], by=director, reason="Not played")
    # -100, +100, -100 and the removed hand's +100: East adds up to 0.
    assert east_points(table) == [-100, -100, 100, 100]


def test_a_sheet_that_keeps_the_hand_keeps_its_penalty(club, director):
    """Hand 2 with East reneged (-100); the director corrects hand 1 only: hand 2's row is
    what is stored, so East keeps -100; undoing hand 2 then withdraws it once (+100)."""
    table = boompje(club, director, verzaken_rule="personal")
    game = table.game
    services.hand_record(game=game, data=HAND_1)
    services.hand_record(game=game, data=EAST_RENEGED)
    hand_1 = HandInput(playing="A", points_a=110, points_b=52, roem_a=20)
    sheet_2 = HandInput(playing="B", points_a=72, points_b=90)
    services.game_enter_sheet(game=game, rows=[hand_1, sheet_2], by=director, reason="Typo")
    assert east_points(table) == [-100]
    hand = Hand.objects.get(game=game, number=2)
    assert hand.offender == "E" and hand.penalty.points == -100
    services.hand_undo(game=game)
    assert east_points(table) == [-100, 100]
    services.hand_undo(game=game)
    assert east_points(table) == [-100, 100]


def test_a_withdrawn_penalty_is_no_penalty_on_the_player_page(club, director, client):
    """East: hand 1 reneged (-100), undone (+100), entered again with East reneged (-100):
    one penalty, -100 + 100 - 100 = -100. Before: 3 penalties, or "2 (0)" after one undo."""
    table = boompje(club, director, verzaken_rule="personal")
    east = table.seats["E"]
    services.hand_record(game=table.game, data=EAST_RENEGED)
    services.hand_undo(game=table.game)

    def page():
        response = client.get(
            reverse("results:player", kwargs={"club": club.slug, "pk": east.pk}),
            HTTP_ACCEPT_LANGUAGE="en",
        )
        return response.content.decode()

    stats = standings.player_stats(member=east, competition=table.season)
    assert (stats.penalties, stats.penalty_points) == (0, 0)
    assert "Verzaakt, penalty to the player" not in page()
    services.hand_record(game=table.game, data=EAST_RENEGED)
    stats = standings.player_stats(member=east, competition=table.season)
    assert (stats.penalties, stats.penalty_points) == (1, -100)
    assert '<dd>1 <span class="muted">(-100)</span></dd>' in page()


def test_a_typed_substitute_who_reneged_stores_the_hand_and_leaves_the_penalty_to_the_director(
    club, director, client
):
    """East's seat holds a typed substitute (no member): the hand is stored as played
    (wij 72, zij 90), with East as the seat that reneged and no penalty, and the phone
    is told that the director gives it on the evening's scores page."""
    table = boompje(club, director, verzaken_rule="personal")
    table.table.seats.filter(position="E").update(member=None, substitute="Gast Jansen")
    body = {
        "number": 1,
        "keeper": "A",
        "client_id": "phone-1",
        "playing": "B",
        "points_a": 72,
        "points_b": 90,
        "verzaakt": "B",
        "offender": "E",
    }
    response = client.post(
        entry_url(table.table, "table-hands-json"),
        body,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 201, response.content.decode()[:500]
    hand = Hand.objects.get(game=table.game)
    assert (hand.score_a, hand.score_b, hand.offender, hand.penalty) == (72, 90, "E", None)
    assert not Adjustment.objects.exists()
    assert "give it on the evening's scores page" in response.json()["message"]
    # Undoing it withdraws nothing (there is nothing to withdraw).
    services.hand_undo(game=table.game)
    assert not Adjustment.objects.exists()

    # The entry page's form says the same after a plain POST.
    table.game.refresh_from_db()
    data = hand_data(table.game, playing="B", points_a="72", verzaakt="B", offender="E", keeper="A")
    response = client.post(
        entry_url(table.table, "table-hand"), data, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )
    assert Hand.objects.get(game=table.game).penalty is None
    assert "give it on the evening&#x27;s scores page" in response.content.decode()
