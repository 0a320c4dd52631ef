"""Verzaken as a way a hand ends, and the roefel (hand 1 of a match-500 game)."""

import pytest

from scoring.rules import (
    STUK,
    InvalidHand,
    Outcome,
    PerTeam,
    Roefel,
    Suit,
    Team,
    banked_roem,
    check_roefel,
    get_ruleset,
    roefel_of,
    score_game,
    score_hand,
)

ROTTERDAM = get_ruleset("rotterdam")
MATCH_500 = get_ruleset("match-500")
MATCH_1500 = get_ruleset("match-1500")


# --- Verzaken ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("playing", "verzaakt", "scores", "points"),
    [
        ("A", "A", (0, 262), (0, 162)),  # the playing team reneges
        ("A", "B", (262, 0), (162, 0)),  # the defenders renege
        ("B", "B", (262, 0), (162, 0)),
        ("B", "A", (0, 262), (0, 162)),
    ],
)
def test_verzaken_gives_the_other_team_162_plus_the_bonus_and_the_offenders_0(
    playing, verzaakt, scores, points
):
    result = score_hand(ROTTERDAM, playing=playing, verzaakt=verzaakt)
    assert result.scores == PerTeam(*scores)
    assert result.points == PerTeam(*points)
    assert result.outcome is Outcome.VERZAKEN
    assert result.verzaakt is Team(verzaakt)
    assert not result.nat and not result.made and result.pit is None
    assert result.playing is Team(playing)


def test_verzaken_gives_all_roem_of_the_hand_to_the_other_team():
    result = score_hand(ROTTERDAM, playing="B", roem=(20, 50), verzaakt="B")
    assert result.scores == PerTeam(162 + 20 + 50 + 100, 0)
    assert result.roem == PerTeam(20, 50)


def test_verzaken_uses_the_rule_sets_bonus():
    ruleset = ROTTERDAM.replace(verzaken_bonus=50)
    assert score_hand(ruleset, playing="A", verzaakt="A", roem=(0, 20)).scores == (0, 232)
    no_bonus = ROTTERDAM.replace(verzaken_bonus=0)
    assert score_hand(no_bonus, playing="A", verzaakt=Team.B).scores == (162, 0)


def test_verzaken_takes_the_card_points_it_stores_and_refuses_others():
    assert score_hand(ROTTERDAM, playing="A", points=(162, 0), verzaakt="B").scores == (262, 0)
    with pytest.raises(InvalidHand) as info:
        score_hand(ROTTERDAM, playing="A", points=(100, 62), verzaakt="B")
    assert (info.value.field, info.value.code) == ("points", "verzaken_points")
    assert info.value.params["team"] == "B"
    with pytest.raises(InvalidHand) as info:
        score_hand(ROTTERDAM, playing="A", points=(0, 162), verzaakt="B")
    assert info.value.code == "verzaken_points"


def test_verzaken_cannot_go_with_pit():
    with pytest.raises(InvalidHand) as info:
        score_hand(ROTTERDAM, playing="A", points=(162, 0), pit="A", verzaakt="B")
    assert (info.value.field, info.value.code) == ("pit", "verzaken_with_pit")


@pytest.mark.parametrize(
    ("roem", "code"),
    [((10, 0), "roem_impossible"), ((500, 500), "roem_too_high"), ((-20, 0), "roem_negative")],
)
def test_verzaken_refuses_roem_no_hand_holds(roem, code):
    with pytest.raises(InvalidHand) as info:
        score_hand(ROTTERDAM, playing="A", roem=roem, verzaakt="A")
    assert (info.value.field, info.value.code) == ("roem", code)


def test_verzaken_by_an_unknown_team_is_refused():
    with pytest.raises(InvalidHand) as info:
        score_hand(ROTTERDAM, playing="A", verzaakt="C")
    assert (info.value.field, info.value.code) == ("verzaakt", "unknown_team")


def test_verzaken_roem_counts_with_zero_card_points_for_the_offenders():
    # The offenders' roem (in their own column) is the other team's: a 0 card
    # point column does not limit it as it would in a played hand.
    assert score_hand(ROTTERDAM, playing="A", roem=(100, 0), verzaakt="A").scores == (0, 362)


def test_verzaken_under_every_preset_gives_the_same_penalty():
    for ruleset in (MATCH_500, MATCH_1500, get_ruleset("amsterdam")):
        assert score_hand(ruleset, playing="A", verzaakt="A").scores == (0, 262)


def test_a_swapped_verzaken_hand_names_the_other_offender():
    result = score_hand(ROTTERDAM, playing="A", roem=(20, 0), verzaakt="A")
    assert result.swapped().verzaakt is Team.B
    assert result.swapped().scores == (182 + 100, 0)


def test_verzaken_counts_toward_the_target_of_a_match():
    hands = [(300, 162), score_hand(MATCH_500, playing="A", verzaakt="B")]
    state = score_game(MATCH_500, hands)
    assert state.complete and state.winner is Team.A and state.totals == (562, 162)


def test_a_played_hand_has_no_offender():
    assert score_hand(ROTTERDAM, playing="A", points=(90, 72)).verzaakt is None


# --- The roefel ---------------------------------------------------------------------------


def test_the_roefel_is_hand_one_played_by_the_forehands_team_with_clubs():
    # North deals hand 1, East is the forehand: team B (zij) plays.
    assert roefel_of(MATCH_500, 1) == Roefel(Team.B, Suit.CLUBS)
    # Were West the first dealer, North would lead and team A play.
    assert roefel_of(MATCH_500, 1, first_dealer=3) == Roefel(Team.A, Suit.CLUBS)


def test_only_hand_one_of_a_roefel_rule_set_is_the_roefel():
    assert roefel_of(MATCH_500, 2) is None
    assert roefel_of(ROTTERDAM, 1) is None
    assert roefel_of(ROTTERDAM.replace(roefel=True), 1) is not None


def test_check_roefel_accepts_the_forehands_team_with_clubs_or_no_trump():
    assert check_roefel(MATCH_500, 1, playing="B", trump="C") == Roefel(Team.B, Suit.CLUBS)
    assert check_roefel(MATCH_500, 1, playing=Team.B, trump="") is not None
    assert check_roefel(MATCH_500, 1, playing="B") is not None


def test_check_roefel_refuses_the_other_team():
    with pytest.raises(InvalidHand) as info:
        check_roefel(MATCH_500, 1, playing="A", trump="C")
    assert (info.value.field, info.value.code) == ("playing", "roefel_playing")
    assert info.value.params["team"] == "B"


@pytest.mark.parametrize("trump", ["H", "D", "S", "x"])
def test_check_roefel_refuses_another_trump(trump):
    with pytest.raises(InvalidHand) as info:
        check_roefel(MATCH_500, 1, playing="B", trump=trump)
    assert (info.value.field, info.value.code) == ("trump", "roefel_trump")


def test_check_roefel_leaves_other_hands_and_rule_sets_alone():
    assert check_roefel(MATCH_500, 2, playing="A", trump="H") is None
    assert check_roefel(ROTTERDAM, 1, playing="A", trump="H") is None


# --- Verzaken under declared roem (match-1500) ------------------------------------------


@pytest.mark.parametrize(
    ("playing", "verzaakt", "declared", "roem", "scores"),
    [
        # A's run of three loses to B's run of four; B gets 162 + 50 + 100.
        ("A", "A", ((20,), (50,)), (0, 50), (0, 312)),
        # The offenders' counted runs go to the other team as well.
        ("A", "B", ((20,), (50,)), (0, 50), (312, 0)),
        # Equal highest runs go to the playing team, whoever reneged.
        ("B", "A", ((50,), (50,)), (0, 50), (0, 312)),
        ("A", "A", ((50,), (50,)), (50, 0), (0, 312)),
        # Stuk always counts, beside the other team's runs.
        ("A", "A", ((STUK,), (50, 20)), (20, 70), (0, 352)),
        ("B", "B", ((100, STUK), (20,)), (120, 0), (382, 0)),
        # Nothing declared: 162 + the bonus.
        ("A", "B", ((), ()), (0, 0), (262, 0)),
    ],
)
def test_verzaken_under_declared_roem_counts_the_declarations_and_gives_them_all_away(
    playing, verzaakt, declared, roem, scores
):
    result = score_hand(MATCH_1500, playing=playing, roem=declared, verzaakt=verzaakt)
    assert result.outcome is Outcome.VERZAKEN and result.verzaakt is Team(verzaakt)
    assert result.roem == PerTeam(*roem)
    assert result.scores == PerTeam(*scores)
    assert result.pit is None and not result.nat


def test_verzaken_takes_declarations_in_the_written_form_and_card_points_given():
    written = score_hand(
        MATCH_1500, playing="A", points=(0, 162), roem=("stuk", "50+20"), verzaakt="A"
    )
    items = score_hand(MATCH_1500, playing="A", roem=((STUK,), (50, 20)), verzaakt="A")
    assert written == items
    assert written.scores == (0, 162 + 90 + 100)


def test_verzaken_under_declared_roem_takes_the_counted_totals_of_a_stored_hand():
    # A stored hand keeps the counted roem: replayed as totals it scores the same.
    played = score_hand(MATCH_1500, playing="A", roem=("20", "50+stuk"), verzaakt="B")
    again = score_hand(MATCH_1500, playing="A", roem=tuple(played.roem), verzaakt="B")
    assert again == played and again.scores == (162 + 70 + 100, 0)


@pytest.mark.parametrize(
    ("roem", "code"),
    [
        (("stuk", "stuk"), "roem_conflict"),  # one trump king and queen
        (("drie", ""), "declaration_unknown"),
        (("30", ""), "roem_impossible"),
        ((50, "20"), "declarations_mixed"),
        (("20+20+20+20+20", ""), "roem_impossible"),
        ((50, 50), "roem_conflict"),  # totals: both teams' runs cannot both count
        ((30, 0), "roem_impossible"),
    ],
)
def test_verzaken_under_declared_roem_refuses_what_no_deal_holds(roem, code):
    with pytest.raises(InvalidHand) as info:
        score_hand(MATCH_1500, playing="A", roem=roem, verzaakt="A")
    assert (info.value.field, info.value.code) == ("roem", code)


def test_verzaken_under_declared_roem_still_refuses_pit_and_wrong_card_points():
    with pytest.raises(InvalidHand) as info:
        score_hand(MATCH_1500, playing="A", points=(162, 0), roem=("50", ""), pit="A", verzaakt="B")
    assert info.value.code == "verzaken_with_pit"
    with pytest.raises(InvalidHand) as info:
        score_hand(MATCH_1500, playing="A", points=(100, 62), roem=("50", ""), verzaakt="B")
    assert info.value.code == "verzaken_points"


def test_a_declared_hand_without_verzaken_scores_as_before():
    # verzaakt=None is the played hand: the declared counting and the fast path of
    # in-trick totals are unchanged.
    kwargs = {"playing": "A", "points": (100, 62), "roem": ("20", "50")}
    assert score_hand(MATCH_1500, **kwargs, verzaakt=None) == score_hand(MATCH_1500, **kwargs)
    assert score_hand(MATCH_1500, **kwargs).scores == (100, 112)
    fast = score_hand(ROTTERDAM, playing="A", points=(100, 62), roem=(20, 0), verzaakt=None)
    assert fast.scores == (120, 62) and fast.outcome is Outcome.MADE


def test_the_roem_of_a_verzaken_hand_is_banked_by_the_other_team():
    for ruleset in (ROTTERDAM, MATCH_1500):
        assert banked_roem(ruleset, playing="A", nat=False, roem=(20, 50), verzaakt="A") == (0, 70)
        assert banked_roem(ruleset, playing="A", nat=False, roem=(20, 50), verzaakt=Team.B) == (
            70,
            0,
        )
    assert banked_roem(ROTTERDAM, playing="A", nat=False, roem=(20, 50)) == (20, 50)
