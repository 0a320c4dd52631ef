"""The rules of Klaverjas as clubs score it: pure Python, no Django.

Everything the site knows about the game lives here: cards and tricks, what a hand
is worth, when a game ends, and the rule sets that say how a club plays. The
Django apps store raw entries and call in; nothing here imports Django (a test
checks).

Glossary
========
The code uses the clubs' own words (docs/rules.md, Words), always the same ones:

boompje (boom)
    One game of 16 hands (``Ruleset.hands_per_game``); each of the four players
    deals four times. A tie after the last hand plays extra hands.
spel, hand
    One deal of eight tricks. The unit :func:`score_hand` scores.
slag
    A trick: four cards, one per player, leader first. :class:`Trick`,
    :func:`trick_winner`.
troef
    Trumps: J 20, 9 14, A 11, 10 10, K 4, Q 3, 8 0, 7 0, in that order.
roem
    Bonus points for combinations -- found inside a trick for the team that takes
    it (in-trick, the default), or declared from the hand (``RoemRule.DECLARED``):
    runs of three (20) and four (50) in the natural order 7 8 9 10 J Q K A, four
    aces/tens/kings/queens (100), four jacks (200). Never *meld*.
stuk
    Trump king + queen together: 20 roem. Among declarations :data:`STUK`; the
    written form is ``"50+20+stuk"`` (:func:`parse_declarations`).
nat
    The playing team (the one that named trump) failed: it banks nothing and the
    defenders bank 162 plus roem as the rule set says. Only the playing team can
    be nat.
pit (mars)
    One team took all eight tricks: a bonus of 100 (``Ruleset.pit_bonus``), written
    "162 + 100". Never *march* or *slam*.
marsen, tegenpit
    A game's pits, counted per team (:func:`count_game`, :class:`GameCounts`): a
    pit of the playing team is a *mars* (its count, *marsen*: M on the sheet), a
    pit of the defenders a *tegenpit* (TP), counted apart and not a mars. Beside
    them a game counts each team's nat, its verzaken and the roem it banked
    (:func:`game_roem`: on nat or verzaken the rule set says who banks it).
wij / zij
    The two columns of the paper score sheet: team A (North/South, seats 0 and 2)
    is *wij*, team B (East/West, seats 1 and 3) is *zij*. :class:`Team`.
roefel
    The first hand of a match in some rule sets: clubs are trumps and the
    forehand's team plays.
forehand
    The player left of the dealer: speaks first and always leads the first trick.
    North deals hand 1, so in the roefel East leads and team B (zij) plays
    (:func:`roefel_of`, :func:`check_roefel`).
verzaken
    Reneging: a player did not follow the obligations of play. By default
    (``VerzakenRule.ALL_ROEM``) the hand ends there: the other team banks 162 +
    all roem of the hand + ``Ruleset.verzaken_bonus`` (100), the offenders 0
    (``score_hand(..., verzaakt=team)``, ``Outcome.VERZAKEN``). It counts in the
    game total like any hand; it is not nat and not pit. ``NO_ROEM`` gives 162 +
    the bonus without roem; ``PERSONAL`` scores the hand as played and the player
    who reneged loses the bonus personally; ``NONE`` does not punish it.

The 162 invariant
    The 32 cards hold 152 card points and the last trick adds 10: every hand is
    worth exactly 162 card points, shared by the two teams. Roem and pit come on
    top. A team can have 162 without pit (the other took a trick worth 0) and roem
    with 0 card points (a trick of 7-8-9 and a zero card).

Map
===
:mod:`.cards` -- :class:`Card` (an int 0..31), :class:`Suit`, :class:`Rank`, tables.
:mod:`.teams` -- :class:`Team`, :class:`Seat`, :class:`PerTeam`.
:mod:`.rulesets` -- :class:`Ruleset`, the presets in :data:`RULESETS`.
:mod:`.tricks` -- trick winner, points, roem; :func:`legal_cards`.
:mod:`.roem` -- roem combinations, declarations, what a team can hold.
:mod:`.hands` -- :func:`score_hand`, :class:`HandResult`, :class:`InvalidHand`.
:mod:`.games` -- :func:`score_game`, :class:`GameResult`; :func:`count_game`, :class:`GameCounts`.
:mod:`.simulate` -- :func:`simulate_deal`, :class:`Deal`.
:mod:`.sheet` -- the paper score sheet's notation: :func:`sheet.write_row`, :func:`sheet.read_row`
(a pit is written 162 | 100 + roem and its mark; read back, the 100 is the pit bonus);
:class:`sheet.MarkStyle` -- the club's marks: M / TP, a marsen tally I, or P or M in the
other team's column.
Its benchmark lives outside the core: ``python -m bench.rules``.

>>> from scoring.rules import get_ruleset, score_hand
>>> score_hand(get_ruleset("rotterdam"), playing="A", points=(90, 72), roem=(20, 0)).scores
PerTeam(a=110, b=72)
"""

from . import sheet
from .cards import (
    CARD_POINTS_TOTAL,
    CARDS,
    DECK,
    HAND_TOTAL,
    LAST_TRICK_BONUS,
    Card,
    InvalidCard,
    Rank,
    Suit,
    card_points,
    parse_card,
    parse_cards,
    parse_suit,
)
from .games import (
    GameCounts,
    GameResult,
    InvalidGame,
    ScoredHand,
    count_game,
    dealer_of_hand,
    game_roem,
    game_state,
    score_game,
)
from .hands import (
    HandResult,
    InvalidHand,
    Outcome,
    Roefel,
    all_points,
    banked_roem,
    check_declarations,
    check_roefel,
    complete_points,
    format_declarations,
    other_points,
    parse_declarations,
    roefel_of,
    score_hand,
)
from .roem import (
    DECLARED_TEAM_TOTALS,
    IN_TRICK_MAX,
    IN_TRICK_MIN_POINTS,
    IN_TRICK_PIT_TOTALS,
    IN_TRICK_TEAM_TOTALS,
    STUK,
    Roem,
    RoemKind,
    count_declarations,
    declared_roem,
    describe_roem,
    hand_declarations,
)
from .rulesets import (
    DEFAULT_RULESET,
    PRESET_NAMES,
    RULESETS,
    Chooser,
    GameEnd,
    InvalidRuleset,
    NatBasis,
    NatRoem,
    PlayRule,
    Preset,
    RoemRule,
    Ruleset,
    TieRule,
    VerzakenRule,
    get_ruleset,
    ruleset_from,
)
from .simulate import Deal, simulate_deal
from .teams import PerTeam, Seat, Team
from .tricks import (
    Trick,
    TrickScore,
    legal_cards,
    legal_mask,
    score_trick,
    trick_points,
    trick_roem,
    trick_roem_detail,
    trick_winner,
)

__all__ = [
    "CARDS",
    "CARD_POINTS_TOTAL",
    "DECK",
    "DECLARED_TEAM_TOTALS",
    "DEFAULT_RULESET",
    "HAND_TOTAL",
    "IN_TRICK_MAX",
    "IN_TRICK_MIN_POINTS",
    "IN_TRICK_PIT_TOTALS",
    "IN_TRICK_TEAM_TOTALS",
    "LAST_TRICK_BONUS",
    "PRESET_NAMES",
    "RULESETS",
    "STUK",
    "Card",
    "Chooser",
    "Deal",
    "GameCounts",
    "GameEnd",
    "GameResult",
    "HandResult",
    "InvalidCard",
    "InvalidGame",
    "ScoredHand",
    "InvalidHand",
    "InvalidRuleset",
    "NatBasis",
    "NatRoem",
    "Outcome",
    "PerTeam",
    "PlayRule",
    "Rank",
    "Roefel",
    "Roem",
    "RoemKind",
    "RoemRule",
    "Ruleset",
    "Preset",
    "Seat",
    "Suit",
    "Team",
    "TieRule",
    "VerzakenRule",
    "Trick",
    "TrickScore",
    "all_points",
    "card_points",
    "check_declarations",
    "check_roefel",
    "complete_points",
    "count_declarations",
    "dealer_of_hand",
    "format_declarations",
    "declared_roem",
    "describe_roem",
    "count_game",
    "game_roem",
    "game_state",
    "get_ruleset",
    "hand_declarations",
    "legal_cards",
    "legal_mask",
    "other_points",
    "parse_card",
    "parse_cards",
    "parse_declarations",
    "parse_suit",
    "roefel_of",
    "ruleset_from",
    "score_game",
    "score_hand",
    "sheet",
    "banked_roem",
    "score_trick",
    "simulate_deal",
    "trick_points",
    "trick_roem",
    "trick_roem_detail",
    "trick_winner",
]
