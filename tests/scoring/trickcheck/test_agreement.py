"""The trick checker's JavaScript core agrees with the Python scoring core.

The page computes everything in the browser with ``static/js/trickcheck-core.js``.
This module plays thousands of random deals with :func:`scoring.rules.simulate_deal`
(every card legal) and thousands of deals with reneges in them, runs the JS core on
them under Node.js, and compares, per trick, the winner, card points and roem; per
hand, the card points, roem, pit, banked scores and nat; per card, the legal set
(the core's :func:`legal_cards`) and the renege verdict; and per random trick, the
roem and its description. One Node process answers all of it (a few seconds).

No Node.js: skipped with a reason, except under ``CI=true``, where it fails.
``TRICKCHECK_SCALE=10`` runs ten times as many cases.
"""

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from scoring.rules import (
    RULESETS,
    Card,
    NatBasis,
    PlayRule,
    RoemRule,
    Team,
    declared_roem,
    describe_roem,
    get_ruleset,
    legal_cards,
    legal_mask,
    parse_suit,
    score_trick,
    simulate_deal,
    trick_points,
    trick_roem,
    trick_roem_detail,
    trick_winner,
)
from tests.needs import missing
from tests.scoring.legal_positions import all_positions

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "run_core.js"
SCALE = int(os.environ.get("TRICKCHECK_SCALE", "1"))

#: Simulated legal deals per rule set (the two play rules get the most).
LEGAL_DEALS = {
    "rotterdam": 1000,
    "amsterdam": 1000,
    "match-500": 150,
    "match-1500": 150,
    "single-deal": 100,
    "modified": 100,
    "low-fours": 300,
}
#: Deals with random reneges in them, per play rule; each also checked at a random
#: point half-way (what the page shows before the hand is complete).
RENEGE_DEALS = 500
ROEM_TRICKS = 4000
LEGAL_POSITIONS = 4000


def _ruleset(name):
    if name == "modified":
        # A club's tuning: the nat team loses its roem, pit is worth 50.
        return get_ruleset("rotterdam").replace(nat_roem="nat_team_loses", pit_bonus=50)
    if name == "low-fours":
        # Clubs that score four 7s, 8s or 9s as 100 roem too.
        return get_ruleset("rotterdam").replace(low_fours=True)
    return get_ruleset(name)


def _ruleset_json(ruleset):
    return ruleset.to_dict()


def _bits(cards):
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    return mask


# --- Cases ---------------------------------------------------------------------------


def _legal_deal_case(deal):
    """A simulated deal as the page's input, and what the Python core says of it."""
    ruleset = deal.ruleset
    amsterdam = ruleset.play_rule is PlayRule.AMSTERDAM
    trump = int(deal.trump)
    plays = [int(c) for trick in deal.tricks for c in trick.cards]
    held = [_bits(hand) for hand in deal.hands]
    legal = []
    for trick in deal.tricks:
        before = []
        for i, card in enumerate(trick.cards):
            seat = (trick.leader + i) % 4
            # legal_mask: legal_cards' own fast path on card masks (as the simulator).
            legal.append(legal_mask(held[seat], before, trump, amsterdam))
            held[seat] ^= 1 << int(card)
            before.append(int(card))
    result = deal.score()
    case = {
        "trump": int(deal.trump),
        "leader": int(deal.tricks[0].leader),
        "plays": plays,
        "amsterdam": amsterdam,
        "ruleset": _ruleset_json(ruleset),
        "roem_rule": ruleset.roem_rule.value,
        "playing": str(deal.playing),
    }
    expected = {
        "tricks": [[int(t.winner), t.points, t.roem] for t in deal.tricks],
        "status": "L" * 32,
        "legal": legal,
        "points": list(deal.points),
        "roem": list(deal.roem),
        "pit": None if deal.pit is None else str(deal.pit),
        "scores": list(result.scores),
        "nat": result.nat,
        "last_trick_decides": _last_trick_decides(deal, result),
    }
    if ruleset.roem_rule is RoemRule.DECLARED:
        expected["declared"] = [describe_roem(deal.declarations[i]) for i in (0, 1)]
    return case, expected


def _last_trick_decides(deal, result):
    """Had the other team taken the last trick (its card points with the 10, and its
    roem), would the playing team's outcome have been different? Scored by the core."""
    last = deal.tricks[7]
    took, other = last.team.index, 1 - last.team.index
    points, roem = list(deal.points), list(deal.roem)
    points[took] -= last.points
    points[other] += last.points
    won = [sum(1 for t in deal.tricks if t.team.index == i) for i in (0, 1)]
    won[took] -= 1
    won[other] += 1
    if deal.ruleset.roem_rule is RoemRule.DECLARED:
        pit = Team.A if won[0] == 8 else Team.B if won[1] == 8 else None
        declared = declared_roem(deal.hands, deal.trump, deal.playing, pit)
        roem = [sum(d.points for d in declared[i]) for i in (0, 1)]
    else:
        roem[took] -= last.roem
        roem[other] += last.roem
    own, theirs = (0, 1) if deal.playing == Team.A else (1, 0)
    if deal.ruleset.nat_basis is NatBasis.POINTS_AND_ROEM:
        nat = points[own] + roem[own] <= points[theirs] + roem[theirs]
    else:
        nat = points[own] <= points[theirs]
    return nat != result.nat


def _random_play(rng, amsterdam):
    """A deal played with a renege now and then: (trump, leader, plays, hands at each
    play). Four in five cards are legal, the rest any card of the hand."""
    deck = list(range(32))
    rng.shuffle(deck)
    held = [set(deck[8 * s : 8 * s + 8]) for s in range(4)]
    trump = rng.randrange(4)
    leader = first = rng.randrange(4)
    plays = []
    for _ in range(8):
        trick = []
        for i in range(4):
            seat = (leader + i) % 4
            hand = sorted(held[seat])
            mask = legal_mask(_bits(hand), trick, trump, amsterdam)
            legal = [c for c in hand if mask >> c & 1]
            card = rng.choice(legal) if rng.random() < 0.8 else rng.choice(hand)
            held[seat].discard(card)
            trick.append(card)
        plays.extend(trick)
        leader = (leader + trick_winner(trick, trump)) % 4
    return trump, first, plays


def _expected_verdicts(trump, first, plays, amsterdam):
    """The renege verdicts the page must show for ``plays`` (a whole hand or a part):
    the definition in trickcheck-core.js, stated again on the Python core. A card
    played to trick k is a renege when legal_mask of the cards that player showed
    from trick k on (that card and every later one) does not hold it; legal once the
    player has played all eight cards; open before that."""
    seats, tricks_of = [], []
    leader = first
    for start in range(0, len(plays), 4):
        trick = plays[start : start + 4]
        seats.extend((leader + i) % 4 for i in range(len(trick)))
        tricks_of.extend([start // 4] * len(trick))
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
    status, legal = [], []
    for j, card in enumerate(plays):
        seat, number = seats[j], tricks_of[j]
        shown = 0
        for i in range(4 * number, len(plays)):
            if seats[i] == seat:
                shown |= 1 << plays[i]
        before = plays[4 * number : j]
        mask = legal_mask(shown, before, trump, amsterdam)
        legal.append(mask)
        if not mask >> card & 1:
            status.append("R")
        elif seats.count(seat) == 8:
            status.append("L")
        else:
            status.append("O")
    return "".join(status), legal


def _renege_cases(rng, amsterdam, count):
    cases, expected = [], []
    for _ in range(count):
        trump, first, plays = _random_play(rng, amsterdam)
        for part in (plays, plays[: rng.randrange(1, 32)]):
            status, legal = _expected_verdicts(trump, first, part, amsterdam)
            cases.append(
                {
                    "trump": trump,
                    "leader": first,
                    "plays": part,
                    "amsterdam": amsterdam,
                    "ruleset": None,
                    "roem_rule": "in_trick",
                    "playing": None,
                }
            )
            expected.append({"status": status, "legal": legal})
    return cases, expected


def _all_fours_case():
    """A legal deal under low_fours whose eight tricks are the eight fours of a kind:
    each seat holds one suit, the clubs seat leads trump every trick and takes all
    (900 roem, the most a hand holds where four 7s, 8s or 9s count)."""
    ruleset = _ruleset("low-fours")
    trump = int(parse_suit("C"))
    order = [int(parse_suit(s)) for s in "CDHS"]
    plays = [suit * 8 + rank for rank in range(8) for suit in order]
    tricks = [score_trick(plays[i : i + 4], trump, low_fours=True) for i in range(0, 32, 4)]
    case = {
        "trump": trump,
        "leader": 0,
        "plays": plays,
        "amsterdam": False,
        "ruleset": _ruleset_json(ruleset),
        "roem_rule": "in_trick",
        "playing": "A",
    }
    points = sum(t.points for t in tricks) + 10
    want = {
        "tricks": [[0, t.points + (10 if i == 7 else 0), t.roem] for i, t in enumerate(tricks)],
        "roem": [sum(t.roem for t in tricks), 0],
        "points": [points, 0],
        "pit": "A",
        # Made with pit: 162 + 900 roem + 100; the last trick to zij would not turn it.
        "scores": [points + 900 + ruleset.pit_bonus, 0],
        "nat": False,
        "last_trick_decides": False,
    }
    return case, want


def _roem_cases(rng, count):
    """(cards, trump, low_fours) per trick: every four of a kind under both rules,
    then random tricks and built runs under either."""
    tricks = []
    for trump in range(4):
        for rank in range(8):
            for low_fours in (False, True):
                tricks.append(([s * 8 + rank for s in range(4)], trump, low_fours))
    for _ in range(count):
        size = rng.choice((4, 4, 4, 3, 2))
        tricks.append((rng.sample(range(32), size), rng.randrange(4), rng.random() < 0.5))
        # Runs and stuk are rare among random cards: build some on purpose.
        suit, low = rng.randrange(4), rng.randrange(6)
        run = [suit * 8 + low + i for i in range(rng.choice((3, 4))) if low + i < 8]
        rest = rng.sample([c for c in range(32) if c not in run], 4 - len(run))
        trick = run + rest
        rng.shuffle(trick)
        tricks.append((trick, rng.randrange(4), rng.random() < 0.5))
    return tricks


#: The table of legal-play positions the Python core's tests use too (docs/rules.md,
#: "Legal play", Amsterdam undertrumping included).
POSITIONS = all_positions()


def _position(row):
    """A row of the table as the JS core takes it: (hand ints, trick ints, trump, amsterdam)."""
    rule, hand, trick, trump, _, _ = row
    ints = [[int(Card(c)) for c in text.split()] for text in (hand, trick)]
    return [*ints, int(parse_suit(trump)), rule is PlayRule.AMSTERDAM]


def _legal_positions(rng, count):
    positions = []
    for _ in range(count):
        deck = rng.sample(range(32), 11)
        size = rng.randrange(1, 9)
        hand, trick = deck[:size], deck[8 : 8 + rng.randrange(4)]
        positions.append((hand, trick, rng.randrange(4), rng.random() < 0.5))
    return positions


@pytest.fixture(scope="module")
def agreement(tmp_path_factory):
    node = shutil.which("node")
    if node is None:
        missing("node (Node.js) is not on PATH: the trick checker's agreement is not checked")
    rng = random.Random(20260811)
    hands, expected = [], []
    for name, count in LEGAL_DEALS.items():
        ruleset = _ruleset(name)
        for _ in range(count * SCALE):
            case, want = _legal_deal_case(simulate_deal(ruleset, rng=rng))
            hands.append(case)
            expected.append(("legal", name, want))
    case, want = _all_fours_case()
    hands.append(case)
    expected.append(("legal", "low-fours", want))
    for amsterdam in (False, True):
        cases, wants = _renege_cases(rng, amsterdam, RENEGE_DEALS * SCALE)
        hands.extend(cases)
        rule = "amsterdam" if amsterdam else "rotterdam"
        expected.extend(("renege", rule, want) for want in wants)
    roem = _roem_cases(rng, ROEM_TRICKS * SCALE)
    legal = _legal_positions(rng, LEGAL_POSITIONS * SCALE)
    path = tmp_path_factory.mktemp("trickcheck") / "cases.json"
    positions = [_position(row) for row in POSITIONS]
    payload = {"hands": hands, "roem": roem, "legal": legal, "positions": positions}
    path.write_text(json.dumps(payload))
    run = subprocess.run(
        [node, str(RUNNER), str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr
    return hands, expected, roem, legal, json.loads(run.stdout)


def _mismatches(agreement, kind, keys):
    hands, expected, _, _, out = agreement
    bad = []
    for case, (what, name, want), got in zip(hands, expected, out["hands"], strict=True):
        if what != kind:
            continue
        for key in keys:
            if key in want and got[key] != want[key]:
                bad.append((name, key, case, want[key], got[key]))
    return bad


def test_the_cases_are_thousands(agreement):
    hands, expected, roem, legal, _ = agreement
    legal_deals = sum(1 for what, _, _ in expected if what == "legal")
    assert legal_deals >= 2500
    assert len(hands) - legal_deals >= 2000  # half of them whole hands, half part hands
    assert len(roem) >= 4000 and len(legal) >= 4000


def test_every_trick_agrees_winner_points_roem(agreement):
    assert _mismatches(agreement, "legal", ["tricks"])[:3] == []


def test_every_hand_agrees_points_roem_pit_scores_nat(agreement):
    keys = ["points", "roem", "pit", "scores", "nat", "last_trick_decides", "declared"]
    assert _mismatches(agreement, "legal", keys)[:3] == []
    # The deals cover what the page tells apart: nat and made, pit, a decisive last trick.
    wants = [want for what, _, want in agreement[1] if what == "legal"]
    assert {w["nat"] for w in wants} == {True, False}
    assert {w["pit"] for w in wants} == {None, "A", "B"}
    assert {w["last_trick_decides"] for w in wants} == {True, False}
    assert any(any(w.get("declared") or ()) for w in wants)  # match-1500's declarations


def test_every_card_of_a_legal_deal_is_legal_with_the_cores_legal_set(agreement):
    assert _mismatches(agreement, "legal", ["status", "legal"])[:3] == []


def test_renege_verdicts_agree_on_whole_and_part_hands(agreement):
    assert _mismatches(agreement, "renege", ["status", "legal"])[:3] == []
    # The random play does renege, under both rules, and part hands leave cards open.
    statuses = [(name, want["status"]) for what, name, want in agreement[1] if what == "renege"]
    for rule in ("rotterdam", "amsterdam"):
        assert any("R" in s for name, s in statuses if name == rule)
    assert any("O" in s for _, s in statuses)


def test_every_renege_names_the_rule_broken(agreement):
    hands, expected, _, _, out = agreement
    rules = set()
    for (what, _, want), got in zip(expected, out["hands"], strict=True):
        if what == "renege":
            for status, rule in zip(want["status"], got["rules"], strict=True):
                if status == "R":
                    assert rule
                    rules.add(rule)
    assert {"follow_suit", "trump_led_overtrump", "must_trump", "must_overtrump"} <= rules
    assert {"opponent_must_trump", "opponent_no_undertrump", "partner_trump_no_undertrump"} <= rules


def test_roem_winner_points_and_descriptions_agree(agreement):
    _, _, roem, _, out = agreement
    for (cards, trump, low_fours), got in zip(roem, out["roem"], strict=True):
        want = [
            trick_roem(cards, trump, low_fours=low_fours),
            describe_roem(trick_roem_detail(cards, trump, low_fours=low_fours)),
            trick_winner(cards, trump),
            trick_points(cards, trump),
        ]
        assert got == want, (cards, trump, low_fours)
    assert {g[0] for g in out["roem"]} == {0, 20, 40, 50, 70, 100, 200}


def test_legal_sets_agree_on_random_positions(agreement):
    _, _, _, legal, out = agreement
    for (hand, trick, trump, amsterdam), got in zip(legal, out["legal"], strict=True):
        rule = "amsterdam" if amsterdam else "rotterdam"
        assert got == _bits(legal_cards(hand, trick, trump, rule)), (hand, trick, trump, rule)


@pytest.mark.parametrize("row", POSITIONS, ids=lambda row: f"{row[0]}-{row[1]}-on-{row[2]}")
def test_the_table_of_positions_gives_the_same_cards_and_rule_in_both_languages(agreement, row):
    rule, hand, trick, trump, expected, code = row
    got = agreement[4]["positions"][POSITIONS.index(row)]
    want = _bits(Card(c) for c in expected.split())
    assert _bits(legal_cards(hand.split(), trick.split(), trump, rule)) == want  # Python
    assert got == [want, code]  # JavaScript: the legal mask and the rule it names


def test_every_preset_was_compared():
    assert set(RULESETS) <= set(LEGAL_DEALS)


def test_holding_more_cards_never_makes_a_card_legal():
    """What makes "a renege shown by later cards" sound: if a card is illegal for the
    cards a player is known to have held, it is illegal for every larger hand.
    Equivalently, a card legal for a hand is legal for any part of that hand that
    holds it. Checked on the core's legal_mask at random positions."""
    rng = random.Random(7)
    for _ in range(20_000 * SCALE):
        deck = rng.sample(range(32), 11)
        hand = deck[: rng.randrange(1, 9)]
        trick = deck[8 : 8 + rng.randrange(4)]
        trump = rng.randrange(4)
        amsterdam = rng.random() < 0.5
        legal = legal_mask(_bits(hand), trick, trump, amsterdam)
        card = rng.choice(hand)
        part = [card] + [c for c in hand if c != card and rng.random() < 0.5]
        if legal >> card & 1:
            assert legal_mask(_bits(part), trick, trump, amsterdam) >> card & 1, (
                hand,
                part,
                trick,
                trump,
                amsterdam,
            )
