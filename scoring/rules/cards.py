"""Cards, suits and ranks, and the per-trump tables the rest of the core reads.

A card is written rank + suit: ranks ``7 8 9 T J Q K A`` (``10`` is accepted for
``T``), suits ``C D H S`` (clubs, diamonds, hearts, spades); lower case is
accepted too, and so are the symbols ``♣ ♦ ♥ ♠`` for suits.

A :class:`Card` *is* a small ``int`` from 0 to 31 (``suit * 8 + rank``, ranks in
the natural order 7 8 9 10 J Q K A), the way python-chess squares are ints. The 32
cards are interned: ``Card("JH") is Card("jh") is CARDS[20]``. Because a card is an
int it indexes the lookup tables below directly, so hot loops never re-parse a
string, and ``1 << card`` is its bit in a 32-bit card set (a *mask*).

Card points (docs/rules.md, "Cards and card points"): trump J 20, 9 14, A 11, 10 10,
K 4, Q 3, 8 and 7 nothing; plain A 11, 10 10, K 4, Q 3, J 2, 9 8 7 nothing. The 32
cards hold :data:`CARD_POINTS_TOTAL` = 152 points; the last trick adds
:data:`LAST_TRICK_BONUS` = 10, so every hand is worth :data:`HAND_TOTAL` = 162.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

__all__ = [
    "CARDS",
    "CARD_POINTS_TOTAL",
    "DECK",
    "HAND_TOTAL",
    "LAST_TRICK_BONUS",
    "Card",
    "InvalidCard",
    "Rank",
    "Suit",
    "card_points",
    "parse_card",
    "parse_cards",
    "parse_suit",
]


class InvalidCard(ValueError):
    """A card or suit that cannot be read, or a set of cards that cannot occur
    (a card twice, a trick of five). A programming or input error, never a rule
    of the game."""


class Suit(IntEnum):
    """The four suits, in the order clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """``"C"``, ``"D"``, ``"H"`` or ``"S"``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """``"♣"``, ``"♦"``, ``"♥"`` or ``"♠"``."""
        return "♣♦♥♠"[self]

    def __str__(self) -> str:
        return "CDHS"[self]

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


class Rank(IntEnum):
    """The eight ranks in the natural order 7 8 9 10 J Q K A (the order runs use)."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        """``"7"`` ... ``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
        return "789TJQKA"[self]

    @property
    def label(self) -> str:
        """The rank as printed on a score sheet: ``"10"`` for the ten."""
        return ("7", "8", "9", "10", "J", "Q", "K", "A")[self]

    def __str__(self) -> str:
        return "789TJQKA"[self]

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_SUIT_LETTERS = "CDHS"
_RANK_LETTERS = "789TJQKA"

#: Trick-taking order of trumps, lowest first: 7 8 Q K 10 A 9 J.
TRUMP_ORDER: tuple[Rank, ...] = (
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.QUEEN,
    Rank.KING,
    Rank.TEN,
    Rank.ACE,
    Rank.NINE,
    Rank.JACK,
)
#: Trick-taking order of a plain suit, lowest first: 7 8 9 J Q K 10 A.
PLAIN_ORDER: tuple[Rank, ...] = (
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.TEN,
    Rank.ACE,
)
TRUMP_POINTS: dict[Rank, int] = {
    Rank.JACK: 20,
    Rank.NINE: 14,
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.EIGHT: 0,
    Rank.SEVEN: 0,
}
PLAIN_POINTS: dict[Rank, int] = {
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.NINE: 0,
    Rank.EIGHT: 0,
    Rank.SEVEN: 0,
}
#: Card points in the 32 cards, whatever the trump.
CARD_POINTS_TOTAL = 152
#: The extra 10 card points for the team that takes the last (8th) trick.
LAST_TRICK_BONUS = 10
#: Card points in every hand: 152 + 10. The invariant every hand entry obeys.
HAND_TOTAL = 162


class Card(int):
    """One of the 32 cards; an ``int`` 0..31 (``suit * 8 + rank``).

    ``Card("JH")``, ``Card("10s")``, ``Card(20)`` and ``Card.from_parts(Suit.HEARTS,
    Rank.JACK)`` all return the same interned object. ``str(card)`` is its code
    (``"JH"``), ``repr(card)`` is ``Card('JH')``. Cards compare and sort as their
    ints: by suit, then in natural rank order.
    """

    __slots__ = ()

    def __new__(cls, code: str | int) -> Card:
        try:
            return _PARSE[code]
        except (KeyError, TypeError):
            raise InvalidCard(_bad_card_message(code)) from None

    @classmethod
    def from_parts(cls, suit: Suit | int, rank: Rank | int) -> Card:
        """The card of ``suit`` and ``rank``."""
        return CARDS[int(suit) * 8 + int(rank)]

    @property
    def suit(self) -> Suit:
        return _SUITS[self >> 3]

    @property
    def rank(self) -> Rank:
        return _RANKS[self & 7]

    @property
    def code(self) -> str:
        """``"JH"``: rank letter + suit letter (``T`` for the ten)."""
        return _CODES[self]

    @property
    def label(self) -> str:
        """``"10♥"``: the way a page shows the card."""
        return _RANKS[self & 7].label + "♣♦♥♠"[self >> 3]

    def points(self, trump: Suit | str | int) -> int:
        """Card points of this card when ``trump`` is trumps."""
        return _POINTS[parse_suit(trump)][self]

    def is_trump(self, trump: Suit | str | int) -> bool:
        return self >> 3 == parse_suit(trump)

    def __str__(self) -> str:
        return _CODES[self]

    def __format__(self, spec: str) -> str:
        return format(_CODES[self], spec)

    def __repr__(self) -> str:
        return f"Card({_CODES[self]!r})"

    def __reduce__(self):
        return (Card, (int(self),))


_SUITS: tuple[Suit, ...] = tuple(Suit)
_RANKS: tuple[Rank, ...] = tuple(Rank)
_CODES: tuple[str, ...] = tuple(r + s for s in _SUIT_LETTERS for r in _RANK_LETTERS)

#: All 32 cards, indexed by their int: ``CARDS[i] == i``.
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(32))
#: The deck in the order clubs, diamonds, hearts, spades; 7 to A within a suit.
DECK = CARDS


def _build_parse() -> dict[object, Card]:
    table: dict[object, Card] = {}
    rank_spellings = {r: {_RANK_LETTERS[r], _RANK_LETTERS[r].lower()} for r in range(8)}
    rank_spellings[Rank.TEN] |= {"10"}
    suit_spellings = {s: {_SUIT_LETTERS[s], _SUIT_LETTERS[s].lower(), "♣♦♥♠"[s]} for s in range(4)}
    for card in CARDS:
        # The Card itself is the key (equal to its int): a lookup by a Card then hits
        # by identity, the common case in hot loops.
        table[card] = card
        for r in rank_spellings[card & 7]:
            for s in suit_spellings[card >> 3]:
                table[r + s] = card
    return table


_PARSE: dict[object, Card] = _build_parse()
#: Every accepted spelling of a card -> its plain int (plain ints are faster in
#: arithmetic than the ``Card`` subclass), and -> its bit in a card mask.
_INDEX: dict[object, int] = {k: int(v) for k, v in _PARSE.items()}
_BIT: dict[object, int] = {k: 1 << int(v) for k, v in _PARSE.items()}

_SUIT_PARSE: dict[object, Suit] = {}
for _suit in Suit:
    _SUIT_PARSE[_suit] = _suit  # equal to its int; keyed by the member for speed
    for _spelling in (
        _suit.letter,
        _suit.letter.lower(),
        _suit.symbol,
        _suit.name.lower(),
        _suit.name.capitalize(),
    ):
        _SUIT_PARSE[_spelling] = _suit
del _suit, _spelling


def _bad_card_message(code: object) -> str:
    return (
        f"{code!r} is not a card: write rank + suit, ranks 7 8 9 T (or 10) J Q K A, suits C D H S"
    )


def parse_card(code: Card | str | int) -> Card:
    """The :class:`Card` for ``"JH"``, ``"10h"``, ``"j♥"``, an int 0..31 or a Card."""
    try:
        return _PARSE[code]
    except (KeyError, TypeError):
        raise InvalidCard(_bad_card_message(code)) from None


def parse_cards(codes: Iterable[Card | str | int] | str) -> tuple[Card, ...]:
    """A tuple of cards from an iterable of card codes, or one string of codes
    separated by spaces or commas (``"JH 9H AH"``). Raises :class:`InvalidCard`
    when a card appears twice."""
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    cards = tuple(map(parse_card, codes))
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        twice = [c for c in cards if c in seen or seen.add(c)]
        raise InvalidCard(f"card {twice[0]} appears more than once")
    return cards


def parse_suit(suit: Suit | str | int) -> Suit:
    """The :class:`Suit` for ``"H"``, ``"h"``, ``"♥"``, ``"hearts"``, 0..3 or a Suit."""
    try:
        return _SUIT_PARSE[suit]
    except (KeyError, TypeError):
        raise InvalidCard(
            f"{suit!r} is not a suit: write C, D, H or S (clubs, diamonds, hearts, spades)"
        ) from None


def card_points(card: Card | str | int, trump: Suit | str | int) -> int:
    """Card points of ``card`` when ``trump`` is trumps (``card_points("9H", "H") == 14``)."""
    return _POINTS[parse_suit(trump)][parse_card(card)]


# --- Per-trump tables, indexed by card int. -------------------------------------------------

#: ``_POINTS[trump][card]``: card points.
_POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple((TRUMP_POINTS if c >> 3 == t else PLAIN_POINTS)[_RANKS[c & 7]] for c in range(32))
    for t in range(4)
)

_TRUMP_POWER = {rank: i for i, rank in enumerate(TRUMP_ORDER)}
_PLAIN_POWER = {rank: i for i, rank in enumerate(PLAIN_ORDER)}

#: ``_STRENGTH[trump * 4 + led][card]``: how strongly a card bids for the trick; the
#: highest strength wins. Trumps 9..16, the led suit 1..8, other cards 0.
_STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        9 + _TRUMP_POWER[_RANKS[c & 7]]
        if c >> 3 == t
        else (1 + _PLAIN_POWER[_RANKS[c & 7]] if c >> 3 == led else 0)
        for c in range(32)
    )
    for t in range(4)
    for led in range(4)
)

#: ``_SUIT_MASK[suit]``: the bits of the eight cards of a suit.
_SUIT_MASK: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))

#: ``_HIGHER_TRUMPS[card]``: mask of the trumps that beat ``card`` when ``card``'s suit
#: is trumps.
_HIGHER_TRUMPS: tuple[int, ...] = tuple(
    sum(
        1 << ((c & ~7) | r)
        for r in range(8)
        if _TRUMP_POWER[_RANKS[r]] > _TRUMP_POWER[_RANKS[c & 7]]
    )
    for c in range(32)
)


def mask_of(cards: Iterable[int]) -> int:
    """The 32-bit set of ``cards`` (card ints)."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards in a 32-bit card set, in deck order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out
