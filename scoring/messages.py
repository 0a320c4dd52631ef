"""The rules core's objections in the scorer's language.

``scoring.rules`` raises ``InvalidHand`` with a machine-readable ``code``,
the ``field`` it concerns and ``params``; here each code gets a translated
sentence, and the field is mapped to the form's field names.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .rules.sheet import MarkStyle

MESSAGES = {
    "points_sum": _("The card points of both teams must add up to 162."),
    "points_negative": _("Card points cannot be negative."),
    "points_range": _("Card points are between 0 and 162."),
    "not_integer": _("Enter a whole number."),
    "roem_negative": _("Roem cannot be negative."),
    "roem_impossible": _("No hand can give this roem: roem is made of 20, 50, 100 and 200."),
    "roem_too_high": _("That is more roem than one hand can hold."),
    "pit_without_all_points": _("Pit (mars) needs all 162 card points for that team."),
    "roem_without_tricks": _("A team that took no trick has no roem."),
    "unknown_team": _("Choose the team that played (wij or zij)."),
    "not_pair": _("Enter one value for each team."),
    "points_impossible": _("No card is worth 1 point: a team has 0 or at least 2 card points."),
    "roem_conflict": _(
        "These roem totals cannot both count: only the team with the highest run "
        "scores its runs, and there is one stuk. Enter what each team declared."
    ),
    "verzaken_points": _(
        "After verzaken the other team has all 162 card points and the team that reneged 0; "
        "leave the card points empty."
    ),
    "verzaken_with_pit": _("A hand that ends in verzaken has no pit."),
    "roefel_playing": _(
        "Hand %(number)s is the roefel: clubs are trumps and the forehand's team (%(team)s) plays."
    ),
    "roefel_trump": _(
        "Hand %(number)s is the roefel: clubs are trumps and the forehand's team (%(team)s) plays."
    ),
    "declaration_unknown": _(
        "Write the declarations as runs and stuk, e.g. 50+20+stuk: a run of three is 20, "
        "of four 50, of five or more 100."
    ),
    "declarations_mixed": _("Enter what each team declared, e.g. 50+20+stuk, for both teams."),
    # The score sheet's notation (scoring.rules.sheet): how a row is written.
    "sheet_nat": _("Only the team that played can be nat."),
    "declared_not_totals": _(
        "This competition declares roem: write what each team declared, e.g. 50+20+stuk, "
        "not a roem total (a total cannot tell a run of 20 from a stuk)."
    ),
}

#: The marks of a pit in each style of score sheet (``rules.sheet.MarkStyle``): the
#: legend of the sheets and the grid, and the message for a mark the style never writes.
MARK_LEGENDS = {
    MarkStyle.PIT_TEAM: _(
        "M in the pit team's column: pit (mars) of the team that played; TP: tegenpit, "
        "the defenders took every trick."
    ),
    MarkStyle.MARSEN: _(
        "I in a team's marsen column: that team took every trick (a mars, also when it "
        "did not play)."
    ),
    MarkStyle.OTHER_P: _(
        "P in a team's column: the other team took every trick (pit, mars); that team took none."
    ),
    MarkStyle.OTHER_M: _(
        "M in a team's column: the other team took every trick (pit, mars); that team took none."
    ),
}
#: The verzaken mark, in every style.
MARK_VERZAAKT_LEGEND = _("V: the team that reneged (verzaakt).")


def mark_legend(style) -> str:
    """The pit marks of ``style`` and the verzaken mark, as one sentence for a legend."""
    return f"{MARK_LEGENDS[MarkStyle(style)]} {MARK_VERZAAKT_LEGEND}"


#: A roem column that carries a bonus (``code="sheet_bonus"``), by the bonus's kind.
SHEET_BONUS_MESSAGES = {
    "pit": _(
        "The roem of a pit is written as on the score sheet: the pit's %(bonus)s plus the "
        "roem. Write %(bonus)s (or leave it empty) for a pit without roem, %(example)s for "
        "a pit with 20 roem."
    ),
    "verzaken": _(
        "After verzaken the other team's roem is written as on the score sheet: the "
        "penalty of %(bonus)s plus all roem of the hand. Write %(bonus)s (or leave it "
        "empty) without roem, %(example)s with 20 roem."
    ),
}

#: Roem the team holds but not with these card points (``roem_too_high`` with the
#: core's ``points`` param): the core's reason, not "more than a hand holds".
ROEM_NEEDS_POINTS = _(
    "%(value)s roem needs tricks worth at least %(limit)s card points; this team has %(points)s."
)

#: Messages that name the hand and a team: formatted with the core's params.
_WITH_PARAMS = frozenset({"roefel_playing", "roefel_trump"})

# Declared roem (match-1500): the messages for what the table declared.
DECLARED_MESSAGES = {
    "roem_impossible": _(
        "A team cannot declare this: a run is 20 (three), 50 (four) or 100 (five or more), "
        "each player declares at most two runs, and a hand has one stuk. "
        "Write e.g. 50+20+stuk."
    ),
    "roem_too_high": None,  # filled in below: the same sentence
    "roem_conflict": _("Only one team can declare stuk: there is one trump king and queen."),
    "roem_negative": MESSAGES["declaration_unknown"],
    "not_integer": MESSAGES["declaration_unknown"],
}
DECLARED_MESSAGES["roem_too_high"] = DECLARED_MESSAGES["roem_impossible"]

# The core's field names -> the form's.
FIELDS = {
    "playing": "playing",
    "points": "points_a",
    "roem": "roem_a",
    "pit": "pit",
    "verzaakt": "verzaakt",
    "trump": "trump",
}


def hand_message(exc, *, declared=False):
    """The translated sentence for the core's InvalidHand (its English text when
    the code has none); with ``declared`` the roem was entered as declarations."""
    code = getattr(exc, "code", None)
    if code == "sheet_mark":
        return mark_legend(exc.params.get("style", MarkStyle.PIT_TEAM))
    if code == "sheet_bonus":
        params = exc.params
        return str(SHEET_BONUS_MESSAGES[params["kind"]]) % {
            "bonus": params["bonus"],
            "example": params["bonus"] + 20,
        }
    params = getattr(exc, "params", None) or {}
    if code == "roem_too_high" and not declared and "points" in params:
        return str(ROEM_NEEDS_POINTS) % {
            "value": params["value"],
            "limit": params["limit"],
            "points": params["points"],
        }
    message = (DECLARED_MESSAGES.get(code) if declared else None) or MESSAGES.get(code)
    if message is None:
        return str(exc)
    if code in _WITH_PARAMS:
        team = _("wij") if str(params.get("team")) == "A" else _("zij")
        return str(message) % {"number": params.get("number", 1), "team": team}
    return message


def hand_error(exc, *, declared=False):
    """A ValidationError for the form field the core's InvalidHand names; with
    ``declared`` the roem was entered as declarations (fields declared_a/_b)."""
    message = hand_message(exc, declared=declared)
    field = FIELDS.get(getattr(exc, "field", None))
    if field == "roem_a" and _team_of(exc) == "B":
        field = "roem_b"
    if declared and field in ("roem_a", "roem_b"):
        field = "declared" + field[4:]
    if field is None:
        return ValidationError(message, code=getattr(exc, "code", "invalid"))
    return ValidationError({field: ValidationError(message, code=getattr(exc, "code", "invalid"))})


def _team_of(exc):
    params = getattr(exc, "params", None) or {}
    team = params.get("team")
    return str(team) if team is not None else None
