"""The loting (tournaments.draw): invariants, the proved guarantees G1-G4, the
sit-out rota, the pairs movement, bad input and reproducibility.

The guarantees are checked round by round against independent oracles (a brute
force matching for small groups, the degree conditions of the module docstring),
so every evening drawn here, fixed or random, also tests the proofs.
"""

import ast
import functools
import itertools
import os
import pathlib
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments import draw as draw_module
from tournaments.draw import (
    DrawError,
    DrawHistory,
    Movement,
    OddMode,
    RepeatCounts,
    RoundDraw,
    Seat,
    TableDraw,
    evening_draw,
    individual_draw,
    movement_join,
    movement_positions,
    pairs_draw,
    repeat_counts,
)

COUNTS = [4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 23, 24, 40, 61, 120]
MODES = [OddMode.SITOUT, OddMode.SUBSTITUTE]


@functools.cache
def evening(n: int, mode: OddMode, rounds: int = 6, seed: int = 7) -> tuple[RoundDraw, ...]:
    return tuple(evening_draw(list(range(1, n + 1)), rounds, seed=seed, odd_mode=mode))


def seated_per_round(n: int, mode: OddMode) -> int:
    if mode is OddMode.SUBSTITUTE and n != 5:
        return n
    return 4 * (n // 4)


def tables_of_three(n: int, mode: OddMode) -> int:
    if mode is OddMode.SUBSTITUTE and n != 5:
        return -n % 4
    return 0


def proved_partner_bound(n: int, mode: OddMode) -> int:
    """Rounds without a partner repeat that the module docstring proves for n players."""
    m = seated_per_round(n, mode)
    threes = tables_of_three(n, mode)
    if threes:  # G5: Dirac on the full tables' players; the rota's three from round 4 on
        full = m - 3 * threes
        return min(full // 2 if full else 3, 3)
    dirac = m // 2  # G2
    if m == 4:  # one table: exact lookahead; 4 players 3 rounds (then forced), 5 players
        # 5 (10 pairs, 2 per round), 6 and 7 players 6 (witnessed by these draws)
        return {4: 3, 5: 5, 6: 6, 7: 6}[n]
    if n == 8:  # G3
        return 7
    return dirac


# --- oracles ---------------------------------------------------------------------


def partnered(history: DrawHistory, a, b) -> int:
    return history.partners.get(frozenset((a, b)), 0)


def opposed(history: DrawHistory, a, b) -> int:
    return history.opponents.get(frozenset((a, b)), 0)


def new_partner_repeats(history: DrawHistory, draw: RoundDraw) -> int:
    return sum(history.partners.get(pair, 0) > 0 for t in draw.tables for pair in t.partnerships())


def new_opponent_repeats(history: DrawHistory, draw: RoundDraw) -> int:
    return sum(history.opponents.get(pair, 0) > 0 for t in draw.tables for pair in t.oppositions())


def free_matching_number(seated: list, history: DrawHistory) -> int:
    """Maximum matching among seated players who have not partnered (brute force)."""
    m = len(seated)
    free = [
        [j for j in range(m) if j != i and not partnered(history, seated[i], seated[j])]
        for i in range(m)
    ]

    @functools.cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        v = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << v)
        return max([best(rest)] + [1 + best(rest & ~(1 << u)) for u in free[v] if rest >> u & 1])

    return best((1 << m) - 1)


def degrees(history: DrawHistory, seated: list) -> tuple[int, int]:
    """(Dp, Do): most seated players one seated player has partnered / opposed."""
    dp = max(sum(partnered(history, a, b) > 0 for b in seated if b != a) for a in seated)
    do = max(sum(opposed(history, a, b) > 0 for b in seated if b != a) for a in seated)
    return dp, do


def assert_valid_round(draw: RoundDraw, present: list, mode: OddMode) -> None:
    seated = list(draw.seated)
    assert sorted(seated + list(draw.sitouts)) == sorted(present)
    assert len(set(seated)) == len(seated)
    assert [t.number for t in draw.tables] == list(range(1, len(draw.tables) + 1))
    for table in draw.tables:
        assert len(table.players) >= 3
        assert table.seats.count(None) <= 1
    if mode is OddMode.SITOUT:
        assert draw.empty_seats == 0
        assert len(draw.sitouts) == len(present) % 4
    elif len(present) == 5:  # the documented fallback: two tables would need 3 empty seats
        assert (len(draw.tables), draw.empty_seats, len(draw.sitouts)) == (1, 0, 1)
    else:
        assert draw.sitouts == ()
        assert len(draw.tables) == -(-len(present) // 4)


def forced_at_tables_of_three(threes: list, history: DrawHistory) -> int:
    """Fewest tables of three without a free pair, over every grouping of ``threes``."""
    if not threes:
        return 0
    first, rest = threes[0], threes[1:]
    return min(
        all(partnered(history, a, b) for a, b in itertools.combinations((first, x, y), 2))
        + forced_at_tables_of_three([p for p in rest if p not in (x, y)], history)
        for x, y in itertools.combinations(rest, 2)
    )


def assert_guarantees(history: DrawHistory, draw: RoundDraw) -> None:
    """G1 (for up to 12 seated), G2, G4 and G5 for one round drawn after ``history``.

    With tables of three the rota has chosen who sits there: G1 holds for that
    choice, G2 and G4 for the full tables (G5).
    """
    threes = [p for t in draw.tables if None in t.seats for p in t.players]
    full = [p for t in draw.tables if None not in t.seats for p in t.players]
    tables = len(draw.tables) - draw.empty_seats
    repeats = new_partner_repeats(history, draw)
    if len(full) <= 12:  # G1: exactly the forced number of repeated partnerships
        forced = max(0, 2 * tables - free_matching_number(full, history))
        assert repeats == forced + forced_at_tables_of_three(threes, history)
    if not full:
        return
    full_round = RoundDraw(tables=tuple(t for t in draw.tables if None not in t.seats))
    full_repeats = new_partner_repeats(history, full_round)
    dp, do = degrees(history, full)
    if dp <= len(full) / 2 - 1:  # G2 (Dirac)
        assert full_repeats == 0
    if 4 * tables > 4 + 2 * dp + 4 * do:  # G4 (swap argument)
        assert full_repeats == 0
        assert new_opponent_repeats(history, full_round) == 0


def check_evening(rounds, present: list, mode: OddMode, history=None) -> DrawHistory:
    history = history if history is not None else DrawHistory()
    for draw in rounds:
        assert_valid_round(draw, present, mode)
        assert_guarantees(history, draw)
        history = history.extended(draw)
    return history


# --- every evening: valid rounds and the guarantees --------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", COUNTS)
def test_every_round_seats_each_player_once_and_keeps_the_guarantees(n, mode):
    check_evening(evening(n, mode), list(range(1, n + 1)), mode)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", COUNTS)
def test_no_partner_repeat_within_the_proved_bound(n, mode):
    bound = proved_partner_bound(n, mode)
    for rounds in range(3, 7):
        counts = repeat_counts(evening(n, mode)[:rounds])
        if rounds <= bound:
            assert counts.partner_repeats == 0, (n, mode, rounds)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [n for n in COUNTS if n % 4])
def test_substitute_seats_only_in_substitute_mode(n, mode):
    empty = sum(draw.empty_seats for draw in evening(n, mode))
    sitouts = sum(len(draw.sitouts) for draw in evening(n, mode))
    if mode is OddMode.SITOUT:
        assert (empty, sitouts) == (0, 6 * (n % 4))
    elif n == 5:
        assert (empty, sitouts) == (0, 6)
    else:
        assert (empty, sitouts) == (6 * (4 - n % 4), 0)


def test_four_players_have_three_pairings_then_a_repeat_is_forced():
    rounds = evening_draw([1, 2, 3, 4], 4, seed=1)
    assert repeat_counts(rounds[:3]).partner_repeats == 0
    assert repeat_counts(rounds).partner_repeats == 2  # both partnerships of round 4


@pytest.mark.parametrize("seed", range(12))
def test_eight_players_play_seven_rounds_without_a_partner_repeat(seed):
    rounds = evening_draw(list(range(8)), 8, seed=seed)
    check_evening(rounds, list(range(8)), OddMode.SITOUT)
    assert repeat_counts(rounds[:7]).partner_repeats == 0  # G3: all 28 pairs once
    assert repeat_counts(rounds).partner_repeats == 4  # round 8: every partnership again


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n", [5, 6, 7])
def test_one_table_evenings_avoid_partner_repeats_while_possible(n, seed):
    rounds = evening_draw(list(range(n)), 6, seed=seed)
    bound = proved_partner_bound(n, OddMode.SITOUT)
    assert repeat_counts(rounds[:bound]).partner_repeats == 0
    if n == 5:  # 6 rounds need 12 partnerships; 5 players have only 10 pairs
        assert repeat_counts(rounds).partner_repeats == 2


@pytest.mark.parametrize(("n", "rounds"), [(16, 2), (28, 3), (36, 4), (48, 5), (56, 6), (120, 6)])
@pytest.mark.parametrize("seed", [1, 2])
def test_no_partner_or_opponent_repeat_when_n_exceeds_10_r_minus_1_plus_4(n, rounds, seed):
    assert n > 10 * (rounds - 1) + 4
    counts = repeat_counts(evening_draw(list(range(n)), rounds, seed=seed))
    assert (counts.partner_repeats, counts.opponent_repeats) == (0, 0)


@pytest.mark.parametrize(
    ("n", "rounds", "mode"),
    [
        (8, 10, "sitout"),
        (9, 10, "sitout"),
        (6, 9, "substitute"),
        (12, 13, "sitout"),
        (11, 12, "substitute"),
    ],
)
def test_forced_repeats_are_as_few_as_possible_in_every_round(n, rounds, mode):
    mode = OddMode(mode)
    draws = evening_draw(list(range(n)), rounds, seed=3, odd_mode=mode)
    check_evening(draws, list(range(n)), mode)  # G1 against the brute-force matching
    assert repeat_counts(draws).partner_repeats > 0


def test_the_matching_fallback_removes_a_repeat_the_local_search_keeps(monkeypatch):
    # Three tables, round 8 of 12 players: with the local search switched off, only
    # the fallback of G1 (a maximum matching of the free pairs) can avoid repeats.
    history = DrawHistory.from_rounds(evening_draw(list(range(12)), 7, seed=5))
    fallbacks = []
    matching_layout = draw_module._matching_layout
    monkeypatch.setattr(draw_module, "_improve", lambda costs, layout, rng: None)
    monkeypatch.setattr(draw_module, "RESTARTS", 1)
    monkeypatch.setattr(
        draw_module, "_matching_layout", lambda *a: fallbacks.append(1) or matching_layout(*a)
    )
    for seed in range(10):
        draw = individual_draw(list(range(12)), history=history, seed=seed)
        assert new_partner_repeats(history, draw) == max(
            0, 6 - free_matching_number(list(range(12)), history)
        )
    assert fallbacks  # the greedy alone did repeat partners


# --- the season: partners spread, sit-outs rotate ----------------------------------


def test_first_round_of_two_tables_takes_the_least_played_season_partners():
    rng = random.Random(4)
    players = list(range(8))
    season = {frozenset(p): rng.randrange(6) for p in itertools.combinations(players, 2)}
    draw = individual_draw(players, history=DrawHistory(season_partners=season), seed=9)
    drawn = sum(season[pair] for t in draw.tables for pair in t.partnerships())
    best = min(
        sum(season[frozenset(pair)] for pair in matching) for matching in perfect_matchings(players)
    )
    assert drawn == best


def perfect_matchings(players):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, other in enumerate(rest):
        for matching in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *matching]


def test_season_partner_counts_steer_a_large_draw_to_new_partners():
    players = list(range(40))
    history = DrawHistory()
    for night in range(6):
        history = DrawHistory.from_rounds(
            evening_draw(players, 4, seed=night, history=history.new_evening()), season=history
        )
    fresh = individual_draw(players, seed=99)
    steered = individual_draw(players, history=history.new_evening(), seed=99)

    def season_load(draw):
        return sum(history.season_partners.get(p, 0) for t in draw.tables for p in t.partnerships())

    assert season_load(steered) < season_load(fresh)
    assert season_load(steered) == 0  # 40 players, 24 rounds so far: new partners exist


@pytest.mark.parametrize(
    ("n", "mode"),
    [(n, OddMode.SITOUT) for n in (5, 6, 7, 9, 10, 11, 13, 17, 23)] + [(5, OddMode.SUBSTITUTE)],
)
def test_sitouts_rotate_fairly_within_an_evening(n, mode):
    players = list(range(n))
    wrap = n // len(individual_draw(players, seed=0, odd_mode=mode).sitouts or players)
    rounds = evening_draw(players, min(wrap + 3, 12), seed=n, odd_mode=mode)
    counts = dict.fromkeys(players, 0)
    for draw in rounds:
        playing = [counts[p] for p in players if p not in draw.sitouts]
        # nobody sits out again while someone playing has sat out fewer times
        assert all(counts[p] <= min(playing) for p in draw.sitouts)
        for p in draw.sitouts:
            counts[p] += 1
        assert max(counts.values()) - min(counts.values()) <= 1


@pytest.mark.parametrize("n", [5, 6, 7, 9, 14])
def test_sitouts_rotate_fairly_over_a_season(n):
    players = list(range(n))
    history = DrawHistory()
    for night in range(5):
        history = history.new_evening()
        for _ in range(3):
            draw = individual_draw(players, history=history, seed=100 * night + _)
            history = history.extended(draw)
            season = [history.sitouts_season.get(p, 0) for p in players]
            assert max(season) - min(season) <= 1


def test_late_arrivals_and_leavers_need_only_the_present_players():
    players = list(range(1, 14))
    history = DrawHistory()
    for draw_round in range(6):
        if draw_round == 2:
            players.remove(4)  # leaves; stays in the history
        if draw_round == 3:
            players += [50, 51, 52]  # arrive late; no history
        draw = individual_draw(players, history=history, seed=draw_round)
        assert_valid_round(draw, players, OddMode.SITOUT)
        assert_guarantees(history, draw)
        history = history.extended(draw)
    assert 4 in {p for pair in history.partners for p in pair}
    assert repeat_counts([]) == RepeatCounts(0, 0, 0)


def test_a_history_of_strangers_is_ignored():
    history = DrawHistory(
        partners={frozenset((98, 99)): 3},
        opponents={frozenset((1, 99)): 2},
        sitouts_evening={99: 4},
    )
    draw = individual_draw([1, 2, 3, 4, 5], history=history, seed=1)
    assert_valid_round(draw, [1, 2, 3, 4, 5], OddMode.SITOUT)


# --- pairs -------------------------------------------------------------------------


def pair_schedule(pairs, rounds):
    return [pairs_draw(pairs, round_number=r) for r in range(1, rounds + 1)]


def pairs_at(table: TableDraw) -> tuple[tuple, tuple]:
    return tuple(sorted(table.team_a)), tuple(sorted(table.team_b))


@pytest.mark.parametrize("count", range(2, 12))
def test_pairs_meet_every_other_pair_once_per_cycle(count):
    pairs = [(2 * k, 2 * k + 1) for k in range(count)]
    cycle = count - 1 if count % 2 == 0 else count
    met = []
    byes = []
    for draw in pair_schedule(pairs, cycle):
        assert sorted(draw.seated + draw.sitouts) == list(range(2 * count))
        assert draw.empty_seats == 0
        for table in draw.tables:
            a, b = pairs_at(table)
            assert a in pairs and b in pairs  # pairs stay together
            met.append(frozenset((a, b)))
        byes.append(draw.sitouts)
    assert len(met) == len(set(met)) == count * (count - 1) // 2
    if count % 2:
        assert sorted(byes) == sorted(pairs)  # each pair one bye per cycle
    else:
        assert byes == [()] * cycle
    assert pair_schedule(pairs, 2 * cycle)[cycle:] == pair_schedule(pairs, cycle)


@pytest.mark.parametrize("count", range(3, 13))
def test_pairs_take_turns_at_north_south(count):
    pairs = [(2 * k, 2 * k + 1) for k in range(count)]
    north = dict.fromkeys(pairs, 0)
    for draw in pair_schedule(pairs, count - 1 if count % 2 == 0 else count):
        for table in draw.tables:
            north[pairs_at(table)[0]] += 1
    assert max(north.values()) - min(north.values()) <= (1 if count % 2 == 0 else 2)


def test_a_pair_that_leaves_becomes_a_bye_and_the_others_keep_their_schedule():
    pairs = [(1, 2), (3, 4), (5, 6), (7, 8)]
    before = [pairs_at(t) for t in pairs_draw(pairs, round_number=2).tables]
    after = pairs_draw([(1, 2), None, (5, 6), (7, 8)], round_number=2)
    (left_behind,) = [b if a == (3, 4) else a for a, b in before if (3, 4) in (a, b)]
    assert after.sitouts == left_behind
    assert [pairs_at(t) for t in after.tables] == [t for t in before if (3, 4) not in t]


# --- pairs movements: some pairs stay, the others move up a table ------------------

SIX = [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12)]  # pairs 1..6


def pair_numbers(draw: RoundDraw, pairs=SIX) -> list[tuple[int, int, int]]:
    """(table, pair at N/S, pair at E/W) with pairs numbered from 1."""
    number = {pair: k for k, pair in enumerate(pairs, start=1)}
    return [(t.number, number[pairs_at(t)[0]], number[pairs_at(t)[1]]) for t in draw.tables]


@pytest.mark.parametrize(
    ("movement", "round_number", "expected"),
    [
        # Round 1: pairs 2t-1 and 2t at table t; the staying pair sits North-South.
        ("even_stay", 1, [(1, 2, 1), (2, 4, 3), (3, 6, 5)]),
        # Odd pairs move up a table: 1 to table 2, 3 to table 3, 5 wraps to table 1.
        ("even_stay", 2, [(1, 2, 5), (2, 4, 1), (3, 6, 3)]),
        ("even_stay", 3, [(1, 2, 3), (2, 4, 5), (3, 6, 1)]),
        ("even_stay", 4, [(1, 2, 1), (2, 4, 3), (3, 6, 5)]),  # after T rounds: again
        ("odd_stay", 1, [(1, 1, 2), (2, 3, 4), (3, 5, 6)]),
        ("odd_stay", 2, [(1, 1, 6), (2, 3, 2), (3, 5, 4)]),
        ("odd_stay", 3, [(1, 1, 4), (2, 3, 6), (3, 5, 2)]),
    ],
)
def test_six_pairs_move_as_worked_out_by_hand(movement, round_number, expected):
    draw = pairs_draw(SIX, round_number=round_number, movement=movement)
    assert pair_numbers(draw) == expected
    assert draw.sitouts == ()


@pytest.mark.parametrize("movement", [Movement.EVEN_STAY, Movement.ODD_STAY])
@pytest.mark.parametrize("tables", range(1, 11))
def test_in_t_rounds_every_staying_pair_meets_every_moving_pair_once(movement, tables):
    pairs = [(2 * k, 2 * k + 1) for k in range(2 * tables)]
    stay = 1 if movement is Movement.EVEN_STAY else 0  # list index parity of stayers
    met = []
    for r in range(1, tables + 1):
        draw = pairs_draw(pairs, round_number=r, movement=movement)
        assert [t.number for t in draw.tables] == list(range(1, tables + 1))
        for table in draw.tables:
            home, away = pairs_at(table)
            assert pairs.index(home) == 2 * (table.number - 1) + stay  # stays put
            start = pairs.index(away) // 2  # its table in round 1, from 0
            assert table.number - 1 == (start + r - 1) % tables  # one table up per round
            met.append(frozenset((home, away)))
    assert len(met) == len(set(met)) == tables * tables  # nobody meets twice in T rounds
    assert repeat_counts(
        pairs_draw(pairs, round_number=r, movement=movement) for r in range(1, tables + 1)
    ).partner_repeats == (0 if tables == 1 else 2 * tables * (tables - 1))


@pytest.mark.parametrize("movement", [Movement.EVEN_STAY, Movement.ODD_STAY])
@pytest.mark.parametrize("count", [3, 5, 7, 9])
def test_odd_pairs_leave_the_last_table_to_the_movers_by_turns(movement, count):
    pairs = [(2 * k, 2 * k + 1) for k in range(count)]
    tables = (count + 1) // 2
    byes = []
    for r in range(1, tables + 1):
        draw = pairs_draw(pairs, round_number=r, movement=movement)
        assert [t.number for t in draw.tables] == list(range(1, tables))  # table T empty
        byes.append(draw.sitouts)
    movers = pairs[0::2] if movement is Movement.EVEN_STAY else pairs[1::2] + [pairs[-1]]
    assert sorted(byes) == sorted(movers)  # each moving pair once in T rounds


def test_five_pairs_sit_out_by_the_rota_over_a_season():
    # Worked by hand: T = 3, two rounds an evening. Evening 1: all 0, so pairs A, B, C
    # move and A, then B, sit out. Evening 2: C, D, E have 0: C, then D. Evening 3: E
    # has 0, then A (1, first in order): E, then A.
    a, b, c, d, e = pairs = [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)]
    sitouts: dict = {}
    out = []
    for _night in range(3):
        positions = movement_positions(pairs, sitouts=sitouts, movement="even_stay")
        for r in (1, 2):
            draw = pairs_draw(positions, round_number=r, movement="even_stay")
            (pair,) = [p for p in pairs if p == draw.sitouts]
            out.append(pair)
            sitouts[pair] = sitouts.get(pair, 0) + 1
    assert out == [a, b, c, d, e, a]


@given(
    count=st.integers(2, 15),
    rounds=st.integers(1, 8),
    evenings=st.integers(1, 6),
    movement=st.sampled_from([Movement.EVEN_STAY, Movement.ODD_STAY]),
)
@settings(max_examples=40, deadline=None)
def test_movement_sitouts_stay_within_one_over_a_season(count, rounds, evenings, movement):
    pairs = [(2 * k, 2 * k + 1) for k in range(count)]
    tables = (count + 1) // 2
    sitouts = dict.fromkeys(pairs, 0)
    for _ in range(evenings):
        positions = movement_positions(pairs, sitouts=sitouts, movement=movement)
        assert sorted(positions) == pairs
        draws = [
            pairs_draw(positions, round_number=r, movement=movement) for r in range(1, rounds + 1)
        ]
        if rounds <= tables:  # within T rounds no two pairs meet twice
            met = [frozenset(pairs_at(t)) for d in draws for t in d.tables]
            assert len(met) == len(set(met))
        for draw in draws:
            assert len(draw.sitouts) == 2 * (count % 2)
            for pair in pairs:
                sitouts[pair] += set(pair) <= set(draw.sitouts)
        if rounds <= tables:
            assert max(sitouts.values()) - min(sitouts.values()) <= 1


def test_a_moving_pair_that_leaves_gives_its_table_a_bye_and_the_others_keep_moving():
    before = pairs_draw(SIX, round_number=2, movement="even_stay")
    after = pairs_draw([*SIX[:4], None, SIX[5]], round_number=2, movement="even_stay")
    assert after.sitouts == (3, 4)  # pair 2, whom pair 5 would have met at table 1
    assert after.tables == before.tables[1:]


# --- bad input ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_fewer_than_four_players_is_a_draw_error(n, mode):
    with pytest.raises(DrawError) as caught:
        individual_draw(list(range(n)), seed=1, odd_mode=mode)
    assert caught.value.code == "too_few_players"
    assert caught.value.params == {"count": n}
    assert "at least 4 players" in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_a_player_listed_twice_is_a_draw_error():
    with pytest.raises(DrawError) as caught:
        individual_draw([1, 2, 3, 4, 2], seed=1)
    assert (caught.value.code, caught.value.params) == ("duplicate_player", {"player": 2})
    with pytest.raises(DrawError) as caught:
        pairs_draw([(1, 2), (3, 1)], round_number=1)
    assert caught.value.code == "duplicate_player"


def test_one_pair_is_too_few():
    with pytest.raises(DrawError) as caught:
        pairs_draw([(1, 2), None], round_number=1)
    assert caught.value.code == "too_few_players"


def test_programming_errors_are_not_draw_errors():
    for call in (
        lambda: individual_draw([1, 2, 3, 4], odd_mode="bridge"),
        lambda: individual_draw([1, 2, 3, 4], seed=1, rng=random.Random(1)),
        lambda: pairs_draw([(1, 2), (3, 4)], round_number=0),
        lambda: pairs_draw([(1, 2), (3, 4)], round_number=1, movement="howell"),
        lambda: evening_draw([1, 2, 3, 4], -1),
        lambda: TableDraw(1, (1, 2, 3)),
    ):
        with pytest.raises(ValueError) as caught:
            call()
        assert not isinstance(caught.value, DrawError)


# --- values, reproducibility, the measure ------------------------------------------


def test_same_seed_same_draw_whatever_the_order_of_the_list():
    players = list(range(23))
    shuffled = players[::-1]
    assert evening_draw(players, 4, seed=5) == evening_draw(shuffled, 4, seed=5)
    assert evening_draw(players, 4, seed=5) != evening_draw(players, 4, seed=6)
    assert evening_draw(players, 4, rng=random.Random(5)) == evening_draw(players, 4, seed=5)


def test_string_player_keys_draw_the_same_in_every_process():
    # String hashes differ per process; the draw must not depend on set order.
    script = (
        "from tournaments.draw import evening_draw;"
        "print(evening_draw([f'lid-{k}' for k in range(13)], 3, seed=2))"
    )
    root = pathlib.Path(draw_module.__file__).parent.parent
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("1", "2")
    }
    names = [f"lid-{k}" for k in range(13)]
    assert outputs == {f"{evening_draw(names[::-1], 3, seed=2)}\n"}


def test_reprs_paste_back():
    namespace = {"TableDraw": TableDraw, "RoundDraw": RoundDraw, "DrawHistory": DrawHistory}
    rounds = evening_draw(list(range(7)), 2, seed=3, odd_mode="substitute")
    for draw in rounds:
        assert eval(repr(draw), namespace) == draw
    history = DrawHistory.from_rounds(rounds)
    assert eval(repr(history), namespace) == history
    assert repr(repeat_counts(rounds)).startswith("RepeatCounts(partner_repeats=")


def test_seats_fix_the_partner():
    table = TableDraw(3, (1, 2, 3, None))
    assert table[Seat.NORTH] == 1 and table[Seat.NORTH.partner] == 3
    assert Seat.EAST.opponents == (Seat.NORTH, Seat.SOUTH)
    assert table.team_a == (1, 3) and table.team_b == (2, None)
    assert table.partnerships() == (frozenset({1, 3}),)
    assert set(table.oppositions()) == {frozenset({1, 2}), frozenset({3, 2})}


def test_repeat_counts_counts_times_beyond_the_first():
    one = RoundDraw(tables=(TableDraw(1, (1, 2, 3, 4)),))
    two = RoundDraw(tables=(TableDraw(1, (1, 3, 2, 4)),))  # 1-2 partners, 1-3 opponents
    three = RoundDraw(tables=(TableDraw(1, (1, 2, 3, 4)),), sitouts=(5,))
    assert repeat_counts([one]) == RepeatCounts(0, 0, 0)
    assert repeat_counts([one, two]) == RepeatCounts(0, 2, 6)  # 1-4, 2-3 opposed twice
    assert repeat_counts([one, two, three]) == RepeatCounts(2, 6, 12)


def test_history_keys_may_be_tuples_and_are_summed_as_pairs():
    history = DrawHistory(partners={(1, 2): 1, (2, 1): 1}, sitouts_evening={5: 1})
    assert history.partners == {frozenset({1, 2}): 2}
    assert DrawHistory.from_rounds([], season=history) == DrawHistory()


def test_the_draw_does_not_import_django():
    tree = ast.parse(pathlib.Path(draw_module.__file__).read_text())
    imported = {
        name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in (
            [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        )
    }
    assert "django" not in imported


# --- properties --------------------------------------------------------------------


@st.composite
def graphs(draw):
    n = draw(st.integers(0, 10))
    edges = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)))) if n else set()
    return n, {(min(a, b), max(a, b)) for a, b in edges if a != b}


@given(graphs())
@settings(max_examples=60, deadline=None)
def test_blossom_matching_is_maximum(graph):
    n, edges = graph
    adj = [[b for a, b in edges if a == v] + [a for a, b in edges if b == v] for v in range(n)]
    match = draw_module._maximum_matching(n, adj, [-1] * n)
    assert all(match[match[v]] == v for v in range(n) if match[v] >= 0)
    assert all((min(v, match[v]), max(v, match[v])) in edges for v in range(n) if match[v] >= 0)

    @functools.cache
    def best(mask):
        if not mask:
            return 0
        v = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << v)
        return max([best(rest)] + [1 + best(rest & ~(1 << u)) for u in adj[v] if rest >> u & 1])

    assert sum(m >= 0 for m in match) // 2 == best((1 << n) - 1)


@given(
    n=st.integers(4, 48),
    rounds=st.integers(1, 7),
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32),
    churn=st.lists(st.integers(-3, 3), min_size=7, max_size=7),
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_evening_with_arrivals_and_leavers_keeps_the_guarantees(n, rounds, mode, seed, churn):
    rng = random.Random(seed)
    players = list(range(n))
    steady = set(players)
    history = DrawHistory()
    fresh = 1000
    for k in range(rounds):
        change = churn[k]
        if change > 0:
            players += list(range(fresh, fresh + change))
            fresh += change
        elif change < 0 and len(players) + change >= 4:
            for gone in rng.sample(players, -change):
                players.remove(gone)
                steady.discard(gone)
        draw = individual_draw(players, history=history, rng=rng, odd_mode=mode)
        assert_valid_round(draw, players, mode)
        assert_guarantees(history, draw)
        history = history.extended(draw)
        sat = [history.sitouts_evening.get(p, 0) for p in steady]
        assert max(sat, default=0) - min(sat, default=0) <= 1


# --- tables of three: the rota ------------------------------------------------------


def threes_of(draw: RoundDraw) -> list:
    return [p for t in draw.tables if None in t.seats for p in t.players]


def test_eleven_players_take_turns_at_the_table_of_three_over_twelve_rounds():
    # 11 players: three tables, one of three; 12 rounds seat 36 players there, so by
    # the rota eight players sit there 3 times and three players 4 times.
    players = list(range(11))
    history = DrawHistory()
    for night in range(3):
        history = history.new_evening()
        for round_number in range(4):
            draw = individual_draw(
                players, history=history, seed=10 * night + round_number, odd_mode="substitute"
            )
            assert len(threes_of(draw)) == 3
            history = history.extended(draw)
            for counts in (history.threes_evening, history.threes_season):
                spread = [counts.get(p, 0) for p in players]
                assert max(spread) - min(spread) <= 1
    assert sorted(history.threes_season.values()) == [3] * 8 + [4] * 3


@pytest.mark.parametrize("n", [6, 7, 9, 10, 11, 13, 14, 15, 23])
def test_the_rota_never_seats_a_player_at_a_table_of_three_before_one_with_fewer_turns(n):
    players = list(range(n))
    history = DrawHistory()
    for night in range(3):
        history = history.new_evening()
        for draw in evening_draw(players, 5, history=history, seed=night, odd_mode="substitute"):
            key = {
                p: (history.threes_evening.get(p, 0), history.threes_season.get(p, 0))
                for p in players
            }
            there = threes_of(draw)
            elsewhere = [key[p] for p in players if p not in there]
            assert all(key[p] <= min(elsewhere, default=key[p]) for p in there)
            assert len(there) == 3 * tables_of_three(n, OddMode.SUBSTITUTE)
            history = history.extended(draw)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("n", [7, 10, 11, 13, 14, 15, 18, 22, 23])
def test_tables_of_three_by_the_rota_still_avoid_partner_repeats_over_six_rounds(n, seed):
    # Witnessed, not proved (G5 promises 3 rounds): the tie-breaks of the rota find
    # repeat-free evenings of 6 rounds for these groups.
    rounds = evening_draw(list(range(n)), 6, seed=seed, odd_mode="substitute")
    check_evening(rounds, list(range(n)), OddMode.SUBSTITUTE)
    assert repeat_counts(rounds).partner_repeats == 0


@given(
    classes=st.lists(st.integers(1, 6), min_size=2, max_size=5),
    presence=st.lists(st.lists(st.booleans(), min_size=5, max_size=5), min_size=8, max_size=8),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_players_present_at_the_same_rounds_sit_at_tables_of_three_equally_often(
    classes, presence, rounds, seed
):
    # Players in one class come and go together; classes differ evening by evening.
    members = [(c, k) for c, size in enumerate(classes) for k in range(size)]
    rng = random.Random(seed)
    history = DrawHistory()
    for night in range(len(presence)):
        history = history.new_evening()
        here = [p for p in members if presence[night][p[0]]]
        if len(here) < 4:
            continue
        for draw in evening_draw(here, rounds, history=history, rng=rng, odd_mode="substitute"):
            history = history.extended(draw)
            for c in range(len(classes)):
                for counts in (history.threes_evening, history.threes_season):
                    mine = [counts.get(p, 0) for p in members if p[0] == c]
                    assert max(mine) - min(mine) <= 1


@pytest.mark.parametrize(
    ("movement", "joined"),
    [
        # Even pairs stay: the empty staying place of table 2 is position 4; odd pairs
        # stay: position 3 (the late pair goes before the last mover).
        ("even_stay", ["p2", "p3", "p1", "late"]),
        ("odd_stay", ["p2", "p3", "late", "p1"]),
    ],
)
def test_a_late_pair_joins_the_empty_staying_place_and_only_the_bye_changes(movement, joined):
    names = {name: (f"{name}n", f"{name}s") for name in ("p1", "p2", "p3", "late")}
    positions = [names[n] for n in ("p2", "p3", "p1")]
    together = movement_join(positions, names["late"], movement=movement)
    assert together == [names[n] for n in joined]
    for number in range(1, 5):
        before = pairs_draw(positions, round_number=number, movement=movement)
        after = pairs_draw(together, round_number=number, movement=movement)
        # The tables that were played stay as they were; the pair that had the bye
        # now meets the late pair at table 2.
        assert set(before.tables) < set(after.tables) and not after.sitouts
        (new,) = set(after.tables) - set(before.tables)
        assert new.number == 2 and set(before.sitouts) < set(new.seats)
        assert set(names["late"]) < set(new.seats)


def test_a_late_pair_has_no_place_in_an_even_movement_or_without_a_pair():
    positions = [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert movement_join(positions, (9, 10), movement="even_stay") == positions
    assert movement_join(positions[:3], None, movement="odd_stay") == positions[:3]
