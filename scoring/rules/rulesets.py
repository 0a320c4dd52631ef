"""Rule sets: every difference between the ways clubs play, as data.

A :class:`Ruleset` is a frozen value with one field per difference named in
docs/rules.md. The presets in :data:`RULESETS` are built from it; a club takes a
preset and replaces fields (``dataclasses.replace(ruleset, hands_per_game=12)``
or ``ruleset_from("rotterdam", {"hands_per_game": 12})``). Code asks the fields
(``ruleset.nat_basis``); nothing branches on a preset's name.

The Django side stores a club's rule set as its preset name plus JSON overrides:
``ruleset.name`` is always the preset it came from, :meth:`Ruleset.overrides`
gives the fields that differ from that preset (what to store), :meth:`Ruleset.to_dict`
the whole rule set JSON-safe, and :func:`ruleset_from` rebuilds it, raising
:class:`InvalidRuleset` (a ``ValueError`` naming the field) for anything it
cannot accept.

===========  =============  ============  ========  ======  ===========  =========
preset       nat_basis      nat_roem      game_end  target  on_tie       play_rule
===========  =============  ============  ========  ======  ===========  =========
rotterdam    points+roem    to defenders  16 hands  -       extra hands  rotterdam
amsterdam    points+roem    to defenders  16 hands  -       extra hands  amsterdam
match-500    card points    to defenders  target    500     extra hands  amsterdam
match-1500   card points    kept by each  target    1500    extra hands  amsterdam
single-deal  points+roem    to defenders  1 hand    -       draw         rotterdam
===========  =============  ============  ========  ======  ===========  =========

match-500 also plays the roefel (hand 1: clubs trump, forehand plays); match-1500
declares roem from the hand instead of finding it in tricks, and there the dealer,
not the forehand, must choose trump when all four pass. Pit is +100 everywhere.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import Any

__all__ = [
    "DEFAULT_RULESET",
    "PRESET_NAMES",
    "RULESETS",
    "Choice",
    "Chooser",
    "GameEnd",
    "InvalidRuleset",
    "NatBasis",
    "Preset",
    "NatRoem",
    "PlayRule",
    "RoemRule",
    "Ruleset",
    "TieRule",
    "VerzakenRule",
    "get_ruleset",
    "ruleset_from",
]


class InvalidRuleset(ValueError):
    """A rule set that cannot be built: unknown preset, unknown field or bad value.

    ``.field`` names the field (``"name"`` for an unknown preset, ``None`` when the
    overrides are not a mapping at all), ``.code`` is one of ``"unknown_preset"``,
    ``"unknown_field"``, ``"bad_value"``, ``"not_a_mapping"``.
    """

    def __init__(self, message: str, *, field: str | None, code: str) -> None:
        super().__init__(message)
        self.field = field
        self.code = code


class Choice(StrEnum):
    """Base of the core's string enums: the value is what JSON stores, the repr
    pastes back (``PlayRule.AMSTERDAM``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class NatBasis(Choice):
    """What the playing team must have more of than the defenders to make its hand."""

    #: Card points + roem strictly more than the defenders' (81-81 without roem is nat).
    POINTS_AND_ROEM = "points_and_roem"
    #: Card points only, strictly more than the defenders' (at least 82 of 162);
    #: roem does not count.
    CARD_POINTS = "card_points"


class NatRoem(Choice):
    """What happens to roem when the playing team is nat."""

    #: All roem of both teams goes to the defenders.
    TO_DEFENDERS = "to_defenders"
    #: No transfer: each team banks its own roem; the nat team gets no card points.
    KEPT_BY_EACH = "kept_by_each"
    #: The nat team's roem is lost; the defenders bank only their own.
    NAT_TEAM_LOSES = "nat_team_loses"


class VerzakenRule(Choice):
    """What a renege (verzaken) costs, as the club plays it."""

    #: The hand ends: the other team banks 162 + all roem of the hand (both teams')
    #: + ``verzaken_bonus``, the offenders 0.
    ALL_ROEM = "all_roem"
    #: The hand ends: the other team banks 162 + ``verzaken_bonus`` and no roem at
    #: all, the offenders 0.
    NO_ROEM = "no_roem"
    #: The hand counts as played (card points and roem as the tricks fell, made or
    #: nat as usual); the player who reneged gets ``-verzaken_bonus`` personally.
    PERSONAL = "personal"
    #: Not punished: the hand counts as played.
    NONE = "none"

    @property
    def ends_hand(self) -> bool:
        """Whether the renege ends the hand with 162 for the other team."""
        return self in (VerzakenRule.ALL_ROEM, VerzakenRule.NO_ROEM)


class GameEnd(Choice):
    """When a game (a boompje, a match) is over."""

    #: After ``hands_per_game`` hands.
    HANDS = "hands"
    #: At the end of the first hand after which a team has ``target_score`` or more;
    #: if both have, the higher total wins.
    TARGET = "target"


class TieRule(Choice):
    """What a tie at the end (equal totals) means."""

    #: Play one more hand, and again, until the totals differ.
    EXTRA_HANDS = "extra_hands"
    #: The game ends drawn (no winner).
    DRAW = "draw"


class Chooser(Choice):
    """Who must name trump when all four players pass."""

    FOREHAND = "forehand"
    DEALER = "dealer"


class PlayRule(Choice):
    """The obligations of a player void in the led suit (docs/rules.md, Legal play)."""

    #: Must trump, even over a winning partner; overtrump when able, else undertrump.
    ROTTERDAM = "rotterdam"
    #: Free when the partner is winning, except no undertrump of a partner's trump
    #: while holding a non-trump or a higher trump; against an opponent trump and
    #: overtrump when able, otherwise discard a non-trump (undertrump only holding
    #: nothing but trumps).
    AMSTERDAM = "amsterdam"


class RoemRule(Choice):
    """Where roem comes from."""

    #: Found in the tricks, for the team that wins the trick.
    IN_TRICK = "in_trick"
    #: Declared from the hand before play: runs of 3 = 20, 4 = 50, 5+ = 100, stuk 20;
    #: only the team with the single highest run scores its runs (a tie goes to the
    #: playing team).
    DECLARED = "declared"


class Preset(Choice):
    """The rule-set presets, one per seed document; the default first."""

    ROTTERDAM = "rotterdam"
    AMSTERDAM = "amsterdam"
    MATCH_500 = "match-500"
    MATCH_1500 = "match-1500"
    SINGLE_DEAL = "single-deal"


#: The preset names, the default first.
PRESET_NAMES: tuple[str, ...] = tuple(preset.value for preset in Preset)

_ENUM_FIELDS: dict[str, type[StrEnum]] = {
    "nat_basis": NatBasis,
    "nat_roem": NatRoem,
    "game_end": GameEnd,
    "on_tie": TieRule,
    "all_pass_chooser": Chooser,
    "play_rule": PlayRule,
    "roem_rule": RoemRule,
    "verzaken_rule": VerzakenRule,
}


@dataclasses.dataclass(frozen=True, slots=True)
class Ruleset:
    """How a club plays and scores; one field per difference between the variants.

    Build one from a preset: :func:`get_ruleset`, :func:`ruleset_from`, or
    ``dataclasses.replace(preset, field=value)`` / :meth:`replace`. Enum fields also
    accept their string values (``play_rule="amsterdam"``). Invalid values raise
    :class:`InvalidRuleset`.
    """

    #: The preset this rule set came from (never a club's own name).
    name: str = "rotterdam"
    #: What the playing team must have strictly more of than the defenders.
    nat_basis: NatBasis = NatBasis.POINTS_AND_ROEM
    #: Where the roem goes when the playing team is nat.
    nat_roem: NatRoem = NatRoem.TO_DEFENDERS
    #: Bonus for the team that takes all eight tricks (pit / mars).
    pit_bonus: int = 100
    #: What a renege costs: the hand ends for the other team (with all roem, or none),
    #: the offender pays personally, or nothing.
    verzaken_rule: VerzakenRule = VerzakenRule.ALL_ROEM
    #: The verzaken penalty: the other team's bonus on top of 162 (``ALL_ROEM``,
    #: ``NO_ROEM``), or what the offender loses personally (``PERSONAL``).
    verzaken_bonus: int = 100
    #: A game ends after a number of hands, or at a target score.
    game_end: GameEnd = GameEnd.HANDS
    #: Hands in a game when ``game_end`` is HANDS: 16 is a boompje (clubs play e.g. 12).
    hands_per_game: int = 16
    #: The score that ends a game when ``game_end`` is TARGET (ignored otherwise).
    target_score: int = 0
    #: What equal totals at the end mean.
    on_tie: TieRule = TieRule.EXTRA_HANDS
    #: Hand 1 of a game is the roefel: clubs are trumps and the forehand's team plays.
    roefel: bool = False
    #: Who must name trump when all four pass (or, without passing, always).
    all_pass_chooser: Chooser = Chooser.FOREHAND
    #: Forced play: nobody passes; the ``all_pass_chooser`` (the forehand) always
    #: names trump and its team plays.
    forced_play: bool = False
    #: The obligations of a player void in the led suit.
    play_rule: PlayRule = PlayRule.ROTTERDAM
    #: Roem found in tricks, or declared from the hand.
    roem_rule: RoemRule = RoemRule.IN_TRICK
    #: Four 7s, 8s or 9s in one trick are 100 roem too (some clubs' rule; in-trick roem).
    low_fours: bool = False

    def __post_init__(self) -> None:
        if self.name not in PRESET_NAMES:
            raise InvalidRuleset(
                f"unknown rule set preset {self.name!r}; choose one of {', '.join(PRESET_NAMES)}",
                field="name",
                code="unknown_preset",
            )
        for field, enum in _ENUM_FIELDS.items():
            value = getattr(self, field)
            if type(value) is not enum:
                object.__setattr__(self, field, _coerce_enum(field, enum, value))
        _check_int(self, "pit_bonus", minimum=0)
        _check_int(self, "verzaken_bonus", minimum=0)
        _check_int(self, "hands_per_game", minimum=1)
        _check_int(self, "target_score", minimum=0)
        for field in ("roefel", "low_fours", "forced_play"):
            if type(getattr(self, field)) is not bool:
                raise InvalidRuleset(
                    f"rule set field {field!r} must be true or false, not {getattr(self, field)!r}",
                    field=field,
                    code="bad_value",
                )
        if self.game_end is GameEnd.TARGET and self.target_score < 1:
            raise InvalidRuleset(
                "rule set field 'target_score' must be a positive number of points "
                "when the game ends at a target score",
                field="target_score",
                code="bad_value",
            )

    # --- Building and storing -----------------------------------------------------------

    def replace(self, **changes: Any) -> Ruleset:
        """A copy with ``changes`` applied (same preset name). Raises InvalidRuleset
        for an unknown field or a bad value."""
        return ruleset_from(self.name, {**self.overrides(), **changes})

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-safe (enums as their string values), including ``name``."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def overrides(self) -> dict[str, Any]:
        """The fields that differ from the preset ``name``, JSON-safe: what a club
        stores beside the preset name. Empty for an unmodified preset."""
        base = RULESETS[self.name]
        return {
            f.name: _plain(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }

    @property
    def is_modified(self) -> bool:
        """True when some field differs from the preset ``name``."""
        return self != RULESETS[self.name]

    @property
    def label(self) -> str:
        """``"rotterdam"``, or ``"rotterdam (modified)"`` for a tuned preset."""
        return f"{self.name} (modified)" if self.is_modified else self.name

    # --- Questions the core asks ---------------------------------------------------------

    def is_roefel(self, hand_number: int) -> bool:
        """Whether hand ``hand_number`` (1-based) of a game is the roefel."""
        return self.roefel and hand_number == 1


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value


def _coerce_enum(field: str, enum: type[StrEnum], value: Any) -> StrEnum:
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(repr(m.value) for m in enum)
        raise InvalidRuleset(
            f"rule set field {field!r} cannot be {value!r}; choose one of {choices}",
            field=field,
            code="bad_value",
        ) from None


def _check_int(ruleset: Ruleset, field: str, *, minimum: int) -> None:
    value = getattr(ruleset, field)
    if type(value) is not int or value < minimum:
        raise InvalidRuleset(
            f"rule set field {field!r} must be a whole number of at least {minimum}, not {value!r}",
            field=field,
            code="bad_value",
        )


_FIELD_NAMES = frozenset(f.name for f in dataclasses.fields(Ruleset))

#: The presets by name (docs/rules.md, "Presets").
RULESETS: dict[str, Ruleset] = {
    "rotterdam": Ruleset(name="rotterdam"),
    "amsterdam": Ruleset(name="amsterdam", play_rule=PlayRule.AMSTERDAM),
    "match-500": Ruleset(
        name="match-500",
        nat_basis=NatBasis.CARD_POINTS,
        game_end=GameEnd.TARGET,
        target_score=500,
        roefel=True,
        play_rule=PlayRule.AMSTERDAM,
    ),
    "match-1500": Ruleset(
        name="match-1500",
        nat_basis=NatBasis.CARD_POINTS,
        nat_roem=NatRoem.KEPT_BY_EACH,
        game_end=GameEnd.TARGET,
        target_score=1500,
        all_pass_chooser=Chooser.DEALER,
        play_rule=PlayRule.AMSTERDAM,
        roem_rule=RoemRule.DECLARED,
    ),
    "single-deal": Ruleset(name="single-deal", hands_per_game=1, on_tie=TieRule.DRAW),
}

#: The default rule set: Rotterdam.
DEFAULT_RULESET: Ruleset = RULESETS["rotterdam"]


def get_ruleset(name: str = "rotterdam") -> Ruleset:
    """The preset ``name``; raises :class:`InvalidRuleset` for an unknown name."""
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise InvalidRuleset(
            f"unknown rule set preset {name!r}; choose one of {', '.join(PRESET_NAMES)}",
            field="name",
            code="unknown_preset",
        ) from None


def ruleset_from(name: str, overrides: dict[str, Any] | None = None) -> Ruleset:
    """The preset ``name`` with ``overrides`` (field -> value, values as in
    :meth:`Ruleset.to_dict`) applied; the inverse of ``(r.name, r.overrides())``.

    ``ruleset_from(r.name, r.to_dict())`` works too: a ``name`` field equal to the
    preset is ignored. Raises :class:`InvalidRuleset` naming the field for an unknown
    preset, an unknown field, another ``name``, or a bad value.
    """
    base = get_ruleset(name)
    if not overrides:
        if overrides is not None and not isinstance(overrides, dict):
            raise InvalidRuleset(
                "rule set overrides must be a mapping of field names to values",
                field=None,
                code="not_a_mapping",
            )
        return base
    if not isinstance(overrides, dict):
        raise InvalidRuleset(
            "rule set overrides must be a mapping of field names to values",
            field=None,
            code="not_a_mapping",
        )
    for field in overrides:
        if field not in _FIELD_NAMES:
            known = ", ".join(sorted(_FIELD_NAMES - {"name"}))
            raise InvalidRuleset(
                f"unknown rule set field {field!r}; known fields are {known}",
                field=str(field),
                code="unknown_field",
            )
    if overrides.get("name", name) != name:
        raise InvalidRuleset(
            f"rule set field 'name' is the preset, {name!r}; it cannot be overridden "
            f"with {overrides['name']!r}",
            field="name",
            code="bad_value",
        )
    return dataclasses.replace(base, **{k: v for k, v in overrides.items() if k != "name"})
