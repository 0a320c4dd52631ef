"""Entering, undoing, confirming and correcting hands through the services."""

import pytest
from django.core.exceptions import ValidationError

from scoring import services
from scoring.models import Adjustment, AuditEntry, Game, Hand
from scoring.services import Conflict, HandInput, SheetErrors
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(club, director):
    return factories.game(club, director)


def test_hand_is_scored_and_game_totals_are_stored(game):
    hand = services.hand_record(game=game, data=factories.hand_input("A", 100, roem_a=20))
    assert (hand.number, hand.score_a, hand.score_b, hand.nat) == (1, 120, 62, False)
    game.refresh_from_db()
    assert (game.total_a, game.total_b, game.hands_entered, game.version) == (120, 62, 1, 1)
    assert AuditEntry.objects.get(game=game).action == "create"


def test_tied_81_81_is_nat_and_all_goes_to_the_defenders(game):
    hand = services.hand_record(game=game, data=factories.hand_input("A", 81))
    assert hand.nat
    assert (hand.score_a, hand.score_b) == (0, 162)
    game.refresh_from_db()
    assert game.nat_a == 1


def test_sum_not_162_is_a_field_error_and_nothing_is_saved(game):
    with pytest.raises(ValidationError) as info:
        services.hand_record(game=game, data=HandInput(playing="A", points_a=100, points_b=70))
    assert "points_a" in info.value.message_dict
    assert not Hand.objects.exists()


def test_roem_30_is_refused(game):
    with pytest.raises(ValidationError) as info:
        services.hand_record(game=game, data=factories.hand_input("A", 100, roem_a=30))
    assert "roem_a" in info.value.message_dict
    assert not Hand.objects.exists()


def test_pit_without_162_is_refused(game):
    with pytest.raises(ValidationError) as info:
        services.hand_record(game=game, data=factories.hand_input("A", 150, pit="A"))
    assert "pit" in info.value.message_dict


def test_same_client_id_twice_stores_one_hand(game):
    first = services.hand_record(game=game, data=factories.hand_input(), client_id="phone-1-hand-1")
    again = services.hand_record(game=game, data=factories.hand_input(), client_id="phone-1-hand-1")
    assert first.pk == again.pk
    assert Hand.objects.count() == 1


def test_stale_hand_number_is_a_conflict(game):
    services.hand_record(game=game, data=factories.hand_input(), number=1)
    with pytest.raises(Conflict):
        services.hand_record(game=game, data=factories.hand_input("A", 90), number=1)
    assert Hand.objects.count() == 1


def test_stale_version_is_a_conflict(game):
    services.hand_record(game=game, data=factories.hand_input(), expected_version=0)
    with pytest.raises(Conflict):
        services.hand_record(game=game, data=factories.hand_input(), expected_version=0)


def full_game(game):
    for _ in range(16):
        services.hand_record(game=game, data=factories.hand_input("A", 100))


def test_hand_17_of_a_finished_boompje_is_refused(game):
    full_game(game)
    game.refresh_from_db()
    assert game.status == Game.Status.COMPLETE
    with pytest.raises(ValidationError) as info:
        services.hand_record(game=game, data=factories.hand_input())
    assert "compleet" in info.value.messages[0]
    assert Hand.objects.count() == 16


def test_confirm_locks_the_game(game):
    full_game(game)
    services.game_confirm(game=game, name="Bert")
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED and game.confirmed_by == "Bert"
    with pytest.raises(ValidationError):
        services.hand_undo(game=game)
    assert Hand.objects.count() == 16


def test_confirm_before_complete_is_refused(game):
    services.hand_record(game=game, data=factories.hand_input())
    with pytest.raises(ValidationError):
        services.game_confirm(game=game, name="Bert")


def test_undo_removes_the_last_hand_and_its_points(game):
    services.hand_record(game=game, data=factories.hand_input("A", 100))
    services.hand_record(game=game, data=factories.hand_input("A", 120))
    services.hand_undo(game=game)
    game.refresh_from_db()
    assert (game.total_a, game.hands_entered) == (100, 1)
    assert list(game.hands.values_list("number", flat=True)) == [1]


def test_sheet_with_a_bad_row_saves_nothing(game, director):
    rows = [factories.hand_input("A", 100)] * 5 + [
        HandInput(playing="A", points_a=100, points_b=61)
    ]
    with pytest.raises(SheetErrors) as info:
        services.game_enter_sheet(game=game, rows=rows, by=director)
    assert list(info.value.rows) == [6]
    assert not Hand.objects.exists()


def test_correction_of_a_confirmed_game_needs_a_reason_and_is_logged(game, director):
    full_game(game)
    services.game_confirm(game=game, name="Bert")
    rows = [factories.hand_input("A", 100)] * 15 + [factories.hand_input("A", 60)]
    with pytest.raises(ValidationError):
        services.game_enter_sheet(game=game, rows=rows, by=director)
    services.game_enter_sheet(game=game, rows=rows, by=director, reason="Hand 16 verkeerd")
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert game.total_a == 15 * 100 + 0
    entry = AuditEntry.objects.filter(action="correct").get()
    assert entry.reason == "Hand 16 verkeerd"
    assert len(entry.before) == 16


# --- Keeper, confirmation, sheets, adjustments (issue 6) ------------------------------


def seat_names(game):
    from tournaments.models import Seat

    seats = {s.position: s.player_name for s in Seat.objects.filter(table=game.table)}
    return [seats["N"], seats["S"]], [seats["E"], seats["W"]]


def test_the_keeper_is_recorded_once_with_the_first_hand(game):
    services.hand_record(game=game, data=factories.hand_input(), keeper="B")
    services.hand_record(game=game, data=factories.hand_input(), keeper="A")
    game.refresh_from_db()
    assert game.scorer_team == "B"


def test_an_unknown_keeper_is_refused(game):
    with pytest.raises(ValidationError) as info:
        services.hand_record(game=game, data=factories.hand_input(), keeper="X")
    assert "keeper" in info.value.message_dict
    assert not Hand.objects.exists()


def test_only_a_player_of_the_other_team_confirms(game):
    wij, zij = seat_names(game)
    for _ in range(16):
        services.hand_record(game=game, data=factories.hand_input("A", 100), keeper="A")
    with pytest.raises(ValidationError) as info:
        services.game_confirm(game=game, name=wij[0])
    assert "name" in info.value.message_dict
    services.game_confirm(game=game, name=zij[1])
    game.refresh_from_db()
    assert game.confirmed_by == zij[1]


def test_a_scorer_cannot_enter_a_sheet(club, game):
    from django.core.exceptions import PermissionDenied

    scorer = factories.role(club, "scorer")
    with pytest.raises(PermissionDenied):
        services.game_enter_sheet(game=game, rows=[factories.hand_input()], by=scorer)
    assert not Hand.objects.exists()


def test_a_signed_sheet_confirms_the_game(game, director):
    services.game_enter_sheet(
        game=game, rows=[factories.hand_input("A", 100)] * 16, by=director, confirm=True
    )
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert director.username in game.confirmed_by
    actions = sorted(AuditEntry.objects.values_list("action", flat=True))
    assert actions == ["confirm", "create"]


def test_an_unchanged_sheet_changes_nothing_and_needs_no_reason(game, director):
    full_game(game)
    game.refresh_from_db()
    version = game.version
    services.game_enter_sheet(game=game, rows=[factories.hand_input("A", 100)] * 16, by=director)
    game.refresh_from_db()
    assert game.version == version
    assert AuditEntry.objects.filter(action="correct").count() == 0


def test_a_correction_that_shortens_a_confirmed_game_takes_the_confirmation_away(game, director):
    full_game(game)
    services.game_confirm(game=game, name="Bert")
    services.game_enter_sheet(
        game=game,
        rows=[factories.hand_input("A", 100)] * 15,
        by=director,
        reason="Hand 16 is niet gespeeld",
    )
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    assert (game.confirmed_at, game.confirmed_by) == (None, "")


def test_preview_scores_without_saving(game):
    result = services.hand_preview(game=game, data=factories.hand_input("A", 81))
    assert result.nat and tuple(result.scores) == (0, 162)
    with pytest.raises(ValidationError):
        services.hand_preview(game=game, data=factories.hand_input("A", 100, roem_a=30))
    assert not Hand.objects.exists()


def test_a_team_adjustment_is_logged_and_leaves_the_game_total_alone(game, director):
    services.hand_record(game=game, data=factories.hand_input("A", 100))
    evening = game.table.round.evening
    adjustment = services.adjustment_record(
        evening=evening,
        kind="director",
        points=262,
        reason="Oost verzaakt in hand 1",
        by=director,
        game=game,
        team="B",
    )
    assert adjustment.round_id == game.table.round_id
    game.refresh_from_db()
    assert (game.total_a, game.total_b) == (100, 62)
    entry = AuditEntry.objects.get(action="adjust")
    assert entry.after == {"kind": "director", "team": "B", "points": 262}
    assert entry.reason == "Oost verzaakt in hand 1"


def test_adjustments_are_for_the_director_with_a_reason(club, game, director):
    from django.core.exceptions import PermissionDenied

    evening = game.table.round.evening
    member = evening.attendances.first().member
    scorer = factories.role(club, "scorer")
    with pytest.raises(PermissionDenied):
        services.adjustment_record(
            evening=evening, kind="director", points=10, reason="x", by=scorer, member=member
        )
    with pytest.raises(ValidationError):
        services.adjustment_record(
            evening=evening, kind="director", points=10, reason=" ", by=director, member=member
        )
    with pytest.raises(ValidationError):
        services.adjustment_record(
            evening=evening, kind="director", points=10**6, reason="x", by=director, member=member
        )
    with pytest.raises(ValidationError):
        services.adjustment_record(
            evening=evening,
            kind="director",
            points=10,
            reason="x",
            by=director,
            member=member,
            game=game,
            team="A",
        )
    assert not Adjustment.objects.exclude(kind="sitout").exists()


def test_a_game_of_another_evening_cannot_be_adjusted_here(club, game, director):
    season = factories.competition(club, name="Zomer")
    other = factories.evening(season)
    with pytest.raises(ValidationError) as info:
        services.adjustment_record(
            evening=other, kind="director", points=10, reason="x", by=director, game=game, team="A"
        )
    assert "target" in info.value.message_dict


@pytest.mark.parametrize("before", [0, 9], ids=["hand_1", "hand_10"])
def test_recording_a_hand_takes_the_same_queries_every_time(
    game, before, django_assert_num_queries
):
    for _ in range(before):
        services.hand_record(game=game, data=factories.hand_input("A", 100))
    # savepoint; game locked; entry id; hands; insert; game; the evening locked, its
    # and its competition's page versions renewed (tests/scoring/results/test_read_cost.py)
    # and its stored totals thrown away; audit; release
    with django_assert_num_queries(12):
        services.hand_record(
            game=game, data=factories.hand_input("A", 100), client_id=f"c{before}", keeper="A"
        )
    assert Hand.objects.count() == before + 1
