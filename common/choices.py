"""Django ``choices`` built from the enums of the pure modules.

A model field that stores a value of the rules core (a team, a seat, a suit, a
rule-set preset) or of another pure module (a tie-break, the ranking basis) does
not define the values again: :func:`text_choices` makes a Django ``TextChoices``
from the enum, with the values the enum stores and labels in the clubs' words.
A value added to the enum without a label is an error at import time, not a
500 on a page.
"""

from collections.abc import Callable, Iterable, Mapping
from enum import Enum

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.rules.teams import Team

__all__ = ["TeamChoices", "enum_values", "text_choices", "validate_tie_breaks"]


def text_choices(
    enum: type[Enum],
    labels: Mapping[Enum, str],
    *,
    value: Callable[[Enum], str] = str,
    name: str | None = None,
    members: Iterable[Enum] | None = None,
) -> type[models.TextChoices]:
    """A ``TextChoices`` with one member per member of ``enum`` (same names, in
    the enum's order), stored as ``value(member)`` (``str(member)``: a
    ``StrEnum``'s value, a suit's letter) and labelled ``labels[member]``.

    ``members`` narrows the choices to some members of the enum (a field that
    takes only some of its values); ``labels`` must name every chosen member
    and nothing else.
    """
    members = list(enum) if members is None else list(members)
    missing = [m.name for m in members if m not in labels]
    extra = [str(k) for k in labels if k not in members]
    if missing or extra:
        raise ValueError(
            f"labels for {enum.__name__} do not match its members: "
            f"missing {missing}, not members {extra}"
        )
    return models.TextChoices(
        name or enum.__name__,
        [(m.name, (value(m), labels[m])) for m in members],
    )


def enum_values(enum: Iterable[Enum], *, value: Callable[[Enum], str] = str) -> list[str]:
    """The stored values of ``enum`` (or of some of its members) as plain strings,
    for a check constraint's ``Q(field__in=...)`` (plain strings keep migrations
    free of the enum)."""
    return [value(m) for m in enum]


#: The core's teams (``scoring.rules.Team``) as a score sheet names them; every
#: model field that stores a team (a game's winner, a hand's pit, the side a
#: league's home team sits on) chooses from these.
TeamChoices = text_choices(
    Team, {Team.A: _("wij (North/South)"), Team.B: _("zij (East/West)")}, name="Team"
)


def validate_tie_breaks(value, choices: type[models.TextChoices]) -> None:
    """Raise ``ValidationError`` unless ``value`` is a list of values of
    ``choices``, each at most once: what a model's ``clean()`` asks of a stored
    tie-break order (a JSON list), so the admin cannot save what the ranking
    would refuse."""
    known = set(choices.values)
    if not isinstance(value, list) or any(
        not isinstance(item, str) or item not in known for item in value
    ):
        raise ValidationError(_("Unknown tie-break."), code="unknown_tie_break")
    if len(set(value)) != len(value):
        raise ValidationError(_("Each tie-break once."), code="tie_break_twice")
