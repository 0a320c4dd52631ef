"""Legal-play positions, one table for both languages: the Python core's
``legal_cards`` (tests/scoring/rules/test_tricks.py) and the trick checker's
JavaScript twin ``legalPlay`` (tests/scoring/trickcheck/test_agreement.py) must
both give the expected cards, and the JavaScript names the rule that decides.

docs/rules.md, "Legal play". Each row: (play rule, hand, trick so far (leader first),
expected legal cards in the order of the hand, the rule code of trickcheck-core.js:
the obligation that applies, which the trick checker names for a renege, or None
when nothing restricts the player). Trumps are hearts, except in
the rows of ``ISSUE_POSITIONS``, which give their own trump.
"""

from scoring.rules import PlayRule

R, A = PlayRule.ROTTERDAM, PlayRule.AMSTERDAM

LEGAL = [
    # Leading: anything.
    (R, "7H AC KD", "", "7H AC KD", None),
    (A, "7H AC KD", "", "7H AC KD", None),
    # Follow suit if you can, also when the trick has been trumped; no duty to beat.
    (R, "7C AC 8H", "KC", "7C AC", "follow_suit"),
    (A, "7C AC 9H", "KC 8H", "7C AC", "follow_suit"),
    # Trump led: beat the highest trump in the trick when able...
    (R, "JH AH 7C", "9H", "JH", "trump_led_overtrump"),
    (A, "8H QH 7C", "7H", "8H QH", "trump_led_overtrump"),
    # ... even the partner's (the partner led A♥, the opponent played 7♥) ...
    (R, "9H KH 7C", "AH 7H", "9H", "trump_led_overtrump"),
    (A, "9H KH 7C", "AH 7H", "9H", "trump_led_overtrump"),
    # ... otherwise any trump; void in trumps, anything.
    (R, "AH 8H 7C", "JH", "AH 8H", "follow_suit"),
    (A, "AH 8H 7C", "JH", "AH 8H", "follow_suit"),
    (R, "7C KD", "9H", "7C KD", None),
    # Void, holding trump, no trump in the trick, opponent winning: trump.
    (R, "7H QH KD", "AC", "7H QH", "must_trump"),
    (A, "7H QH KD", "AC", "7H QH", "opponent_must_trump"),
    (A, "7H QH", "AC", "7H QH", "opponent_must_trump"),
    # Void, partner winning with a plain card: Rotterdam trumps, Amsterdam is free.
    (R, "7H QH KD", "QC AC 9C", "7H QH", "must_trump"),
    (A, "7H QH KD", "QC AC 9C", "7H QH KD", None),
    # ... also third to play, the partner's lead winning.
    (R, "7H KD", "AC 7C", "7H", "must_trump"),
    (A, "7H KD", "AC 7C", "7H KD", None),
    # Void, partner winning with a trump: Rotterdam must overtrump the partner...
    (R, "7H QH KD", "AC 8H 7C", "QH", "must_overtrump"),
    (R, "7H QH", "AC 8H 7C", "QH", "must_overtrump"),
    # ... and undertrump when it cannot; Amsterdam may discard or overtrump, never
    # undertrump while holding anything else: a non-trump or a higher trump.
    (R, "7H KD", "AC 8H 7C", "7H", "must_trump"),
    (A, "7H QH KD", "AC 8H 7C", "QH KD", "partner_trump_no_undertrump"),
    (A, "7H KD", "AC 8H 7C", "KD", "partner_trump_no_undertrump"),
    (A, "7H QH", "AC 8H 7C", "QH", "partner_trump_no_undertrump"),
    (A, "7H 9H QH", "AC 8H 7C", "9H QH", "partner_trump_no_undertrump"),
    # Holding only higher trumps, or higher trumps and non-trumps: any of them.
    (A, "QH KH", "AC 8H 7C", "QH KH", "partner_trump_no_undertrump"),
    (A, "QH KD", "AC 8H 7C", "QH KD", "partner_trump_no_undertrump"),
    # Nothing but lower trumps: an undertrump is then allowed under both.
    (R, "7H", "AC 8H 7C", "7H", "must_trump"),
    (A, "7H", "AC 8H 7C", "7H", None),
    (R, "7H 8H", "AC QH 7C", "7H 8H", "must_trump"),
    (A, "7H 8H", "AC QH 7C", "7H 8H", None),
    # Void, an opponent winning with a trump: overtrump when able (both rules) ...
    (R, "7H QH KD", "AC 8H", "QH", "must_overtrump"),
    (A, "7H QH KD", "AC 8H", "QH", "opponent_must_overtrump"),
    (A, "7H QH", "AC 8H", "QH", "opponent_must_overtrump"),
    (A, "QH KH", "AC 8H", "QH KH", "opponent_must_overtrump"),
    # ... if not: Rotterdam undertrumps, Amsterdam discards a non-trump ...
    (R, "7H KD", "AC 8H", "7H", "must_trump"),
    (A, "7H KD", "AC 8H", "KD", "opponent_no_undertrump"),
    # ... and with nothing but (lower) trumps, undertrumps.
    (A, "7H", "AC 8H", "7H", None),
    (A, "7H 8H", "AC QH", "7H 8H", None),
    # Fourth to play, the opponent overtrumped the partner: the opponent's rules.
    (A, "9H 7H KD", "AC 8H QH", "9H", "opponent_must_overtrump"),
    (A, "7H KD", "AC 8H QH", "KD", "opponent_no_undertrump"),
    (R, "7H KD", "AC 8H QH", "7H", "must_trump"),
    # Void with no trumps: anything.
    (R, "KD 7S", "AC", "KD 7S", None),
    (A, "KD 7S", "AC", "KD 7S", None),
    # The third player's partner led and was overtrumped by the opponent: overtrump.
    (A, "9H 7H 8D", "AC JD KH", "9H", "opponent_must_overtrump"),
]

#: Issue 15's position and its twin, with their own trump: (rule, hand, trick,
#: trump, expected, rule code). Clubs are trumps, partner trumped the A♦ with 8♣;
#: holding 7♣ and K♣ only, the K♣ is the one card to play (the Board Game Arena
#: engine calls 7♣ illegal).
ISSUE_POSITIONS = [
    (A, "7C KC", "AD 8C KD", "C", "KC", "partner_trump_no_undertrump"),
    (R, "7C KC", "AD 8C KD", "C", "KC", "must_overtrump"),
    (A, "KC 7C", "AD 8C KD", "C", "KC", "partner_trump_no_undertrump"),
    (A, "7C 9C", "AD 8C KD", "C", "9C", "partner_trump_no_undertrump"),
    (A, "7C", "AD 8C KD", "C", "7C", None),
]


def all_positions():
    """Every row of both tables as (rule, hand, trick, trump, expected, rule code)."""
    rows = [(rule, hand, trick, "H", want, code) for rule, hand, trick, want, code in LEGAL]
    return rows + ISSUE_POSITIONS
