"""What roem a team can hold in one hand: the tables score_hand checks against.

The tables in scoring.rules.roem are re-derived here, and every total in them is
shown to be real by building concrete tricks that make it (with the real
trick_roem), so score_hand rejects exactly the totals no set of tricks makes.
The highest, 700, is also played out card by card as a legal deal.
"""

import itertools
import random

import pytest

from scoring.rules import (
    CARDS,
    DECLARED_TEAM_TOTALS,
    IN_TRICK_MAX,
    IN_TRICK_MIN_POINTS,
    IN_TRICK_PIT_TOTALS,
    IN_TRICK_TEAM_TOTALS,
    Card,
    PlayRule,
    RoemKind,
    Team,
    declared_roem,
    get_ruleset,
    hand_declarations,
    legal_cards,
    score_hand,
    trick_points,
    trick_roem,
    trick_roem_detail,
    trick_winner,
)
from scoring.rules.roem import (
    DECLARED_TEAM_MULTISETS,
    derive_in_trick_min_points,
    derive_whole_deal_totals,
    roem_points,
)

TRUMP = 0  # clubs; suits are symmetric
POINTS = [trick_points([c], TRUMP) for c in CARDS]


def test_the_in_trick_tables_match_a_fresh_count():
    assert derive_in_trick_min_points() == IN_TRICK_MIN_POINTS
    assert derive_whole_deal_totals() == IN_TRICK_PIT_TOTALS
    assert max(IN_TRICK_PIT_TOTALS) == IN_TRICK_MAX == 700


def test_the_in_trick_tables_say_what_the_docs_say():
    assert set(range(0, 701, 10)) - IN_TRICK_PIT_TOTALS == {10, 30, 530, 630, 650, 670, 680, 690}
    assert set(range(0, 651, 10)) - IN_TRICK_TEAM_TOTALS == {10, 30, 530, 580, 610, 630}
    assert [t for t in IN_TRICK_TEAM_TOTALS if IN_TRICK_MIN_POINTS[t] == 0] == [0, 20, 40]
    assert IN_TRICK_MIN_POINTS[200] == 26  # four jacks: 20 + 2 + 2 + 2


def test_the_fast_roem_count_agrees_with_the_itemised_one():
    rng = random.Random(7)
    for _ in range(3000):
        trick = rng.sample(CARDS, rng.randint(1, 4))
        trump = rng.randrange(4)
        assert roem_points(trick, trump) == sum(i.points for i in trick_roem_detail(trick, trump))


# --- Building concrete tricks for every total ---------------------------------------------------


def _run_cores(suit, free_ranks):
    """Every set of disjoint run cores (and a lone stuk) in one suit, as (cards,
    extra cards needed) pairs."""
    out = []

    def extend(start, cores, taken):
        out.append(list(cores))
        if suit == TRUMP and {5, 6} <= free_ranks - taken:
            out.append([*cores, ((suit * 8 + 5, suit * 8 + 6), 2)])
        for low in range(start, 8):
            for length in (3, 4):
                ranks = set(range(low, low + length))
                if low + length <= 8 and ranks <= free_ranks:
                    core = (tuple(suit * 8 + r for r in sorted(ranks)), 4 - length)
                    extend(low + length, [*cores, core], taken | ranks)

    extend(0, [], set())
    return out


def _core_sets(room):
    """Core sets whose cores and extras fit in ``room`` cards: for each (roem, extras,
    cards, zero-point cards), the one with the fewest card points."""
    found = {}
    for k in range(6):
        for quads in itertools.combinations([3, 4, 5, 6, 7], k):
            free = set(range(8)) - set(quads)
            states = [[(tuple(s * 8 + r for s in range(4)), 0) for r in quads]]
            for suit in range(4):
                merged = {}
                for cores in states:
                    for more in _run_cores(suit, free):
                        combo = cores + more
                        if sum(len(c) + n for c, n in combo) > room:
                            continue
                        key = (
                            sum(trick_roem(c, TRUMP) for c, _ in combo),
                            sum(n for _, n in combo),
                            sum(len(c) for c, _ in combo),
                            sum(POINTS[x] == 0 for c, _ in combo for x in c),
                        )
                        points = sum(POINTS[x] for c, _ in combo for x in c)
                        if key not in merged or merged[key][0] > points:
                            merged[key] = (points, combo)
                states = [combo for _, combo in merged.values()]
                if suit == 3:
                    for key, value in merged.items():
                        if key not in found or found[key][0] > value[0]:
                            found[key] = value
    return found


def _with_extras(combo, free):
    """Tricks: each core with extra cards that keep its roem (cheapest first), or None."""
    free = sorted(free, key=lambda c: (POINTS[c], c))

    def fill(i, left):
        if i == len(combo):
            return [], left
        core, need = combo[i]
        for extra in itertools.combinations(left, need):
            if trick_roem([*core, *extra], TRUMP) == trick_roem(core, TRUMP):
                rest = fill(i + 1, [c for c in left if c not in extra])
                if rest is not None:
                    return [(*core, *extra), *rest[0]], rest[1]
        return None

    return fill(0, free)


def _deal_out(cards):
    """The cards in tricks of four without roem, or None."""
    if not cards:
        return []
    first, rest = cards[0], cards[1:]
    for others in itertools.combinations(rest, 3):
        trick = (first, *others)
        if trick_roem(trick, TRUMP) == 0:
            more = _deal_out([c for c in rest if c not in others])
            if more is not None:
                return [trick, *more]
    return None


def test_every_total_a_team_without_pit_can_hold_is_made_by_real_tricks():
    made = {}
    for (total, _, _, _), (_, combo) in sorted(_core_sets(room=28).items()):
        if total in made:
            continue
        used = {c for core, _ in combo for c in core}
        built = _with_extras(combo, [c for c in range(32) if c not in used])
        if built is None:
            continue
        tricks, _ = built
        assert len(tricks) <= 7 and sum(trick_roem(t, TRUMP) for t in tricks) == total
        made[total] = sum(trick_points(t, TRUMP) for t in tricks)
    assert set(made) == IN_TRICK_TEAM_TOTALS
    # The table is a lower bound on the card points such tricks hold.
    assert all(made[t] >= IN_TRICK_MIN_POINTS[t] for t in made)


def test_every_total_eight_tricks_can_hold_is_a_real_deal_of_eight_tricks():
    made = set()
    for (total, _, _, _), (_, combo) in sorted(_core_sets(room=32).items()):
        if total in made:
            continue
        used = {c for core, _ in combo for c in core}
        built = _with_extras(combo, [c for c in range(32) if c not in used])
        if built is None:
            continue
        tricks, left = built
        rest = _deal_out(sorted(left))
        if rest is None:
            continue
        deal = tricks + rest
        assert sorted(c for t in deal for c in t) == list(range(32))
        assert sum(trick_roem(t, TRUMP) for t in deal) == total
        made.add(total)
    assert made == IN_TRICK_PIT_TOTALS


def _play(hands, leader, plays, trump, rule):
    """Play ``plays`` (one card list per trick, in play order from the leader),
    checking every card against legal_cards; return the tricks' winners' seats."""
    held = {seat: set(map(Card, hand.split())) for seat, hand in hands.items()}
    winners = []
    for trick in plays:
        played = []
        for i, code in enumerate(trick.split()):
            seat = (leader + i) % 4
            card = Card(code)
            assert card in legal_cards(sorted(held[seat]), played, trump, rule), (trick, code)
            held[seat].remove(card)
            played.append(card)
        leader = (leader + trick_winner(played, trump)) % 4
        winners.append(leader)
    assert not any(held.values())
    return winners


@pytest.mark.parametrize("rule", list(PlayRule))
def test_700_roem_is_reached_by_a_legal_deal(rule):
    # North names clubs; West dealt, so North leads. Each player holds one card of
    # every suit's 7-8-9-10 and the J, Q, K, A of one suit.
    hands = {
        0: "JC QC KC AC 9C TD 7H 7S",
        1: "JD QD KD AD 7C 7D 8H 8S",
        2: "JH QH KH AH 8C 8D TH TS",
        3: "JS QS KS AS TC 9D 9H 9S",
    }
    plays = [
        "9C 7C 8C TC",  # N leads trumps; nobody can beat the 9
        "TD 7D 8D 9D",  # N
        "7H 8H TH 9H",  # N leads, S takes with the 10
        "TS 9S 7S 8S",  # S
        "JH JS JC JD",  # S leads, N trumps with the jack
        "AC AD AH AS",  # N
        "KC KD KH KS",
        "QC QD QH QS",
    ]
    winners = _play(hands, 0, plays, "C", rule)
    assert {Team.of_seat(s) for s in winners} == {Team.A}
    roem = sum(trick_roem(t.split(), "C") for t in plays)
    points = sum(trick_points(t.split(), "C") for t in plays) + 10
    assert (roem, points) == (700, 162)
    result = score_hand(get_ruleset(), playing="A", points=(162, 0), roem=(700, 0), pit="A")
    assert result.scores == (962, 0)


# --- Declared roem ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "declared"),
    [
        ("7C 8C 9C JD QS KH 7S 9D", (20,)),
        ("7C 8C 9C TC QS KH 7S 9D", (50,)),
        ("7C 8C 9C TC JC QS 7S 9D", (100,)),
        ("7C 8C 9C TC JC QC KC AC", (100,)),  # the whole suit is one run
        ("7C 8C 9C JC QC KC 7S 9D", (20, 20)),  # a gap splits two runs
        ("7C 8C 9C 7D 8D 9D TD AS", (20, 50)),
        ("7C 8C 9C 7D 8D 9D TD JD", (20, 100)),
        ("7C 8C 9C TC 7D 8D 9D TD", (50, 50)),
        ("KH QH 7C 9D JS AS 8D TC", (20,)),  # stuk (hearts are trumps)
        ("JH QH KH 7C 9D JS AS 8D", (20, 20)),  # a run with stuk inside: 20 + 20
    ],
)
def test_what_a_player_declares(hand, declared):
    items = hand_declarations([Card(c) for c in hand.split()], 2)
    assert tuple(sorted(i.points for i in items)) == tuple(sorted(declared))


def test_run_of_five_or_more_is_100_and_stuk_is_named():
    items = hand_declarations(
        [Card(c) for c in ("8H", "9H", "TH", "JH", "QH", "KH", "7C", "7D")], 2
    )
    assert [i.kind for i in items] == [RoemKind.RUN_OF_FIVE_OR_MORE, RoemKind.STUK]


def _deal(north, east, south, west):
    return [[Card(c) for c in h.split()] for h in (north, east, south, west)]


def test_only_the_team_with_the_single_highest_run_scores_its_runs():
    hands = _deal(
        "7C 8C 9C TC JD AD 7S 8S",  # North: run of four, 50
        "7D 8D 9D 9H TS QS KS AS",  # East: two runs of three, 20 + 20
        "JC QC KC TD QD KD JH 8H",  # South: run of three, 20
        "AC 9S JS TH QH KH AH 7H",  # West: Q-K-A of hearts 20, and stuk (hearts trump)
    )
    declared = declared_roem(hands, 2, "B")
    assert [i.points for i in declared.a] == [50, 20]
    assert [i.kind for i in declared.b] == [RoemKind.STUK]


def test_equal_highest_runs_go_to_the_playing_team():
    hands = _deal(
        "7C 8C 9C TS JD AD 7S 8S",  # North: 20
        "7D 8D 9D 9H TC QS KS AS",  # East: 20 + 20
        "JC QC KC TD QD KD JH 8H",  # South: 20
        "AC 9S JS TH QH KH AH 7H",  # West: 20 + stuk
    )
    for playing in ("A", "B"):
        declared = declared_roem(hands, 2, playing)
        runs = {t: [i for i in declared[t.index] if i.kind is not RoemKind.STUK] for t in Team}
        assert runs[Team(playing)] and not runs[Team(playing).other]


def test_the_declared_totals_are_every_multiple_of_10_to_260_but_10_30_230_250():
    assert set(range(0, 261, 10)) - DECLARED_TEAM_TOTALS == {10, 30, 230, 250}
    assert max(DECLARED_TEAM_TOTALS) == 260


def test_every_declared_set_is_held_by_two_real_hands():
    # Each player's pattern is built in two suits of their own, so any two fit.
    patterns = {
        (): "",
        (20,): "7{a} 8{a} 9{a}",
        (50,): "7{a} 8{a} 9{a} T{a}",
        (100,): "7{a} 8{a} 9{a} T{a} J{a}",
        (20, 20): "7{a} 8{a} 9{a} 7{b} 8{b} 9{b}",
        (20, 50): "7{a} 8{a} 9{a} 7{b} 8{b} 9{b} T{b}",
        (20, 100): "7{a} 8{a} 9{a} 7{b} 8{b} 9{b} T{b} J{b}",
        (50, 50): "7{a} 8{a} 9{a} T{a} 7{b} 8{b} 9{b} T{b}",
    }
    seen = set()
    for (p1, h1), (p2, h2) in itertools.combinations_with_replacement(patterns.items(), 2):
        north = [Card(c) for c in h1.format(a="C", b="D").split()]
        south = [Card(c) for c in h2.format(a="H", b="S").split()]
        for stuk in (False, True):
            trump = 2  # hearts; stuk is the K and Q of hearts, added to North
            extra = [Card("KH"), Card("QH")] if stuk and Card("KH") not in south else []
            if stuk and not extra:
                continue
            points = [i.points for h in (north + extra, south) for i in hand_declarations(h, trump)]
            assert sorted(points) == sorted(p1 + p2 + ((20,) if stuk else ()))
            seen.add(tuple(sorted(points)))
    assert seen <= set(DECLARED_TEAM_MULTISETS)
    assert {sum(s) for s in seen} == set(DECLARED_TEAM_TOTALS)
