"""Declared roem (match-1500, seed 003): the table enters what each team declared,
the core applies "only the single highest run counts, a tie to the playing team",
stuk always counts, and the written form "50+20+stuk" is read and written once."""

import random

import pytest

from scoring.rules import (
    STUK,
    InvalidHand,
    NatRoem,
    RoemKind,
    Team,
    check_declarations,
    count_declarations,
    format_declarations,
    get_ruleset,
    hand_declarations,
    parse_declarations,
    score_hand,
    simulate_deal,
)

M1500 = get_ruleset("match-1500")


def _score(playing, points, declared, pit=None, ruleset=M1500):
    return score_hand(ruleset, playing=playing, points=points, roem=declared, pit=pit)


# (playing, points, declared A, declared B, pit, roem that counts, banked, nat)
DECLARED = {
    "test_the_higher_run_of_the_defenders_counts_and_the_players_run_not": (
        "A", (100, 62), (20,), (50,), None, (0, 50), (100, 112), False,
    ),
    "test_equal_runs_go_to_the_playing_team_who_keeps_them_when_nat": (
        "B", (100, 62), (50,), (50,), None, (0, 50), (162, 50), True,
    ),
    "test_equal_runs_go_to_the_playing_team_a": (
        "A", (100, 62), (20,), (20,), None, (20, 0), (120, 62), False,
    ),
    "test_the_single_highest_run_wins_not_the_sum_of_runs": (
        "B", (62, 100), (50, 50, 20), (100,), None, (0, 100), (62, 200), False,
    ),
    "test_a_run_of_five_against_two_runs_of_four_is_not_a_tie_of_totals": (
        "A", (100, 62), (50, 50), (100,), None, (0, 100), (100, 162), False,
    ),
    "test_the_winner_scores_all_its_runs": (
        "A", (100, 62), (100, 20), (50,), None, (120, 0), (220, 62), False,
    ),
    "test_stuk_counts_for_the_team_whose_runs_lose": (
        "A", (100, 62), (20, STUK), (50,), None, (20, 50), (120, 112), False,
    ),
    "test_stuk_counts_beside_the_winning_runs": (
        "A", (100, 62), (20,), (50, STUK), None, (0, 70), (100, 132), False,
    ),
    "test_stuk_alone_is_not_a_run_and_does_not_beat_a_run_of_three": (
        "A", (100, 62), (STUK,), (20,), None, (20, 20), (120, 82), False,
    ),
    "test_nat_keeps_each_teams_own_counted_roem": (
        "A", (80, 82), (50,), (STUK,), None, (50, 20), (50, 182), True,
    ),
    "test_pit_with_declarations_adds_100": (
        "A", (162, 0), (50, STUK), (), "A", (70, 0), (332, 0), False,
    ),
    # Order (docs/rules.md, "When roem counts"): "no trick, no roem" first, then the
    # highest-run rule: B took no trick, so it has no run to compare and A keeps its
    # run beside its stuk.
    "test_a_team_without_a_trick_scores_nothing_it_declared": (
        "A", (162, 0), (20, STUK), (100,), "A", (40, 0), (302, 0), False,
    ),
    "test_the_defenders_pit_keeps_their_higher_run_the_players_none": (
        "A", (0, 162), (20,), (50,), "B", (0, 50), (0, 312), True,
    ),
    "test_a_higher_run_without_a_trick_does_not_take_the_pit_teams_runs": (
        "A", (0, 162), (50,), (20, STUK), "B", (0, 40), (0, 302), True,
    ),
    # The example of docs/rules.md, "When roem counts": A pits, A declared 20, B declared 50.
    "test_against_a_pit_only_the_pit_teams_declarations_count": (
        "A", (162, 0), (20,), (50,), "A", (20, 0), (282, 0), False,
    ),
    "test_a_pit_teams_lower_run_counts_against_the_defenders_higher_one": (
        "A", (162, 0), (50,), (100,), "A", (50, 0), (312, 0), False,
    ),
}  # fmt: skip


@pytest.mark.parametrize(
    ("playing", "points", "decl_a", "decl_b", "pit", "roem", "scores", "nat"),
    list(DECLARED.values()),
    ids=list(DECLARED),
)
def test_declared_roem(playing, points, decl_a, decl_b, pit, roem, scores, nat):
    result = _score(playing, points, (decl_a, decl_b), pit)
    assert result.roem == roem
    assert result.scores == scores
    assert result.nat is nat
    # The same hand with the teams exchanged is the same hand.
    other = _score(
        Team(playing).other,
        points[::-1],
        (decl_b, decl_a),
        None if pit is None else Team(pit).other,
    )
    assert other == result.swapped()


def test_declarations_in_the_written_form_score_the_same():
    written = _score("A", (100, 62), ("20+stuk", "50"))
    assert written == _score("A", (100, 62), ((20, STUK), (50,)))
    assert written == _score("A", (100, 62), ((20, "stuk"), (50,)))
    assert written.scores == (120, 112)


def test_counted_totals_are_taken_as_they_are():
    # A stored hand or an old import gives the roem that counts: it is not counted again.
    assert _score("A", (100, 62), (0, 50)).scores == (100, 112)
    assert _score("A", (100, 62), (20, 50)).roem == (20, 50)  # a stuk and B's run


def test_a_total_for_one_team_and_declarations_for_the_other_is_refused():
    with pytest.raises(InvalidHand) as info:
        _score("A", (100, 62), (50, (20,)))
    assert info.value.code == "declarations_mixed"
    # 0 is nothing declared.
    assert _score("A", (100, 62), ((50,), 0)).roem == (50, 0)


def test_nat_with_roem_to_the_defenders_moves_the_counted_roem():
    ruleset = M1500.replace(nat_roem=NatRoem.TO_DEFENDERS)
    result = _score("A", (80, 82), ((50,), (20,)), ruleset=ruleset)
    assert result.roem == (50, 0)
    assert result.scores == (0, 212)


@pytest.mark.parametrize(
    ("declared", "code"),
    [
        (((30,), ()), "roem_impossible"),
        (((20, 20, 20, 20, 20), ()), "roem_impossible"),  # five runs: two players hold four
        (((100, 100, 100), ()), "roem_too_high"),
        (((STUK, STUK), ()), "roem_impossible"),
        (((STUK,), ("stuk",)), "roem_conflict"),
        ((("50+x",), ()), "declaration_unknown"),
        (("50+x", ""), "declaration_unknown"),
        ((("-20",), ()), "declaration_unknown"),
        (((True,), ()), "not_integer"),
        (((50,), 20), "declarations_mixed"),
    ],
)
def test_declarations_no_deal_holds_are_refused(declared, code):
    with pytest.raises(InvalidHand) as info:
        _score("A", (100, 62), declared)
    assert info.value.code == code
    assert info.value.field == "roem"


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("50+20+stuk", (50, 20, STUK)),
        ("", ()),
        ("-", ()),
        ("0", ()),
        ("stuk", (STUK,)),
        ("STUK", (STUK,)),
        ("s + 100", (STUK, 100)),
        ("20, 20", (20, 20)),
        ("100 50", (100, 50)),
    ],
)
def test_parse_declarations_reads_the_written_form(text, items):
    assert parse_declarations(text) == items


@pytest.mark.parametrize(
    ("items", "text"),
    [
        ((50, 20, STUK), "50+20+stuk"),
        ((STUK, 20, 100), "100+20+stuk"),
        (("stuk",), "stuk"),
        ((), ""),
    ],
)
def test_format_declarations_writes_runs_high_to_low_then_stuk(items, text):
    assert format_declarations(items) == text
    assert sorted(map(str, parse_declarations(text))) == sorted(map(str, items))


@pytest.mark.parametrize("text", ["30", "x", "50+", "50++20", "twintig", "２０"])
def test_parse_declarations_names_what_it_cannot_read(text):
    if text in {"50+", "50++20"}:  # empty items between separators are skipped
        assert parse_declarations(text) in {(50,), (50, 20)}
        return
    with pytest.raises(InvalidHand) as info:
        parse_declarations(text, "B")
    assert info.value.field == "roem"
    assert info.value.params["team"] == "B"
    assert info.value.code in {"declaration_unknown", "roem_impossible"}
    assert "B" in str(info.value)


def test_check_declarations_keeps_each_teams_items():
    assert check_declarations(("50+stuk", (20,))) == ((50, STUK), (20,))


def test_count_declarations_keeps_the_order_given():
    assert count_declarations(((STUK, 20), (50,)), "A") == ((STUK,), (50,))
    assert count_declarations(((STUK, 20), (50,)), "A", pit="B") == ((), (50,))
    assert count_declarations(((STUK, 20), (50,)), "A", pit="A") == ((STUK, 20), ())


def test_the_simulated_deals_score_the_same_from_everything_declared():
    """What the four players declared, entered as is, scores as the simulator counted
    it: for hundreds of random match-1500 deals."""
    rng = random.Random(1500)
    runs_for_both = 0
    for _ in range(400):
        deal = simulate_deal(M1500, rng=rng)
        declared = []
        for team in Team:
            items = [
                STUK if item.kind is RoemKind.STUK else item.points
                for seat in team.seats
                for item in hand_declarations(deal.hands[seat], deal.trump)
            ]
            declared.append(tuple(items))
        runs_for_both += all(any(i != STUK for i in items) for items in declared)
        result = score_hand(
            M1500, playing=deal.playing, points=deal.points, roem=declared, pit=deal.pit
        )
        assert result == deal.score()
        assert result.roem == deal.roem
    assert runs_for_both > 10  # the rule was really applied
