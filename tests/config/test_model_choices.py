"""One vocabulary, and the database keeps it: every choice column of every app.

Each ``CharField`` with choices either stores a value of an enum of a pure
module (the rules core's teams, seats, suits and presets; the ranking's basis
and tie-breaks; the draw's odd mode; the league table's rules), and then its
choices are exactly that enum's values, or it is listed here as the model's own.
Each has a check constraint ``Q(field__in=[...])`` that the database enforces.
A choice field added without either fails here.
"""

import pytest
from django.apps import apps
from django.db import models

from leagues import table as league_table
from scoring import rules
from tournaments import ranking_rules
from tournaments.draw import Movement, OddMode

APPS = ("clubs", "tournaments", "scoring", "leagues")

#: Fields that store a value of a pure module's enum, and how the enum writes it.
FROM_AN_ENUM = {
    ("clubs.Club", "ruleset_preset"): rules.PRESET_NAMES,
    ("clubs.Club", "sheet_marks"): [str(style) for style in rules.sheet.MarkStyle],
    ("tournaments.Competition", "ruleset_preset"): rules.PRESET_NAMES,
    ("tournaments.Competition", "odd_players"): [str(mode) for mode in OddMode],
    ("tournaments.Competition", "movement"): [str(m) for m in Movement],
    ("tournaments.Competition", "ranking_basis"): [str(b) for b in ranking_rules.MAIN_BASES],
    ("tournaments.Competition", "prize_rule"): [str(p) for p in ranking_rules.PrizeRule],
    ("tournaments.Competition", "average_unit"): [str(u) for u in ranking_rules.AverageUnit],
    ("tournaments.Seat", "position"): [seat.letter for seat in rules.Seat],
    ("leagues.League", "win_by"): [str(w) for w in league_table.WinBy],
    ("leagues.League", "points_rule"): [str(p) for p in league_table.PointsRule],
    ("leagues.MatchTable", "home_side"): [str(team) for team in rules.Team],
    ("scoring.Game", "winner"): [str(team) for team in rules.Team],
    ("scoring.Game", "scorer_team"): [str(team) for team in rules.Team],
    ("scoring.Hand", "playing"): [str(team) for team in rules.Team],
    ("scoring.Hand", "pit"): [str(team) for team in rules.Team],
    ("scoring.Hand", "verzaakt"): [str(team) for team in rules.Team],
    ("scoring.Hand", "trump"): [suit.letter for suit in rules.Suit],
    ("scoring.Hand", "offender"): [seat.letter for seat in rules.Seat],
    ("scoring.Adjustment", "team"): [str(team) for team in rules.Team],
}

#: Fields whose values only the model knows (a status, a kind, a log action).
MODEL_ONLY = {
    ("clubs.ClubRole", "role"),
    ("clubs.ClubLog", "action"),
    ("clubs.Invitation", "role"),
    ("tournaments.Competition", "format"),
    ("tournaments.Competition", "kind"),
    ("tournaments.Competition", "absence_policy"),
    ("tournaments.Competition", "absence_unit"),
    ("tournaments.Competition", "leaving_policy"),
    ("tournaments.Competition", "left_over"),
    ("tournaments.Evening", "status"),
    ("tournaments.Attendance", "status"),
    ("leagues.LeagueMatch", "status"),
    ("scoring.Game", "status"),
    ("scoring.Adjustment", "kind"),
    ("scoring.AuditEntry", "action"),
}


def choice_fields():
    for model in apps.get_models():
        if model._meta.app_label not in APPS:
            continue
        for field in model._meta.get_fields():
            if isinstance(field, models.CharField) and field.choices:
                yield model, field


def key(model, field):
    return (model._meta.label, field.name)


def known_values(field):
    """What the column may hold: the choices, and "" where the field may be blank
    (a nullable field holds NULL instead)."""
    values = [value for value, _label in field.flatchoices]
    if field.blank and not field.null:
        values.append("")
    return values


def in_leaf(condition, name):
    """The values of the ``<name>__in`` test of a check constraint's condition: the
    condition itself, or one branch of an OR with ``<name>__isnull=True``."""
    children = condition.children if condition.connector == "OR" else [condition]
    if condition.connector == "AND" and len(condition.children) == 1:
        children = condition.children
    found = None
    for child in children:
        if isinstance(child, models.Q):
            if len(child.children) != 1:
                return None
            child = child.children[0]
        lookup, value = child
        if lookup == f"{name}__in":
            found = list(value)
        elif lookup != f"{name}__isnull" or value is not True:
            return None
    return found


def known_constraint(model, field):
    for constraint in model._meta.constraints:
        if isinstance(constraint, models.CheckConstraint):
            values = in_leaf(constraint.condition, field.name)
            if values is not None:
                return constraint, values
    return None, None


def test_every_choice_field_is_classified():
    found = {key(model, field) for model, field in choice_fields()}
    assert found == set(FROM_AN_ENUM) | MODEL_ONLY


@pytest.mark.parametrize("field_key", sorted(FROM_AN_ENUM), ids="{0[0]}.{0[1]}".format)
def test_a_choice_field_stores_exactly_its_enums_values(field_key):
    label, name = field_key
    field = apps.get_model(label)._meta.get_field(name)
    assert [value for value, _label in field.flatchoices] == list(FROM_AN_ENUM[field_key])


@pytest.mark.parametrize(
    "model, field", list(choice_fields()), ids=lambda x: getattr(x, "name", None) or str(x)
)
def test_every_choice_field_has_a_check_constraint_with_its_values(model, field):
    constraint, values = known_constraint(model, field)
    assert constraint is not None, f"{key(model, field)} has no Q({field.name}__in=...) check"
    assert sorted(values) == sorted(known_values(field))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "model, field", list(choice_fields()), ids=lambda x: getattr(x, "name", None) or str(x)
)
def test_the_database_refuses_an_unknown_choice_and_takes_every_known_one(model, field):
    from django.core.exceptions import ValidationError

    constraint, _values = known_constraint(model, field)
    instance = model()
    setattr(instance, field.attname, "?")
    with pytest.raises(ValidationError):
        constraint.validate(model, instance)
    for value in known_values(field):
        setattr(instance, field.attname, value)
        constraint.validate(model, instance)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "column, value",
    [
        ("odd_players", "sometimes"),
        ("ranking_basis", "median"),
        ("ruleset_preset", "utrecht"),
        ("absence_policy", "maybe"),
    ],
)
def test_an_update_that_skips_the_model_cannot_store_an_unknown_choice(column, value):
    from django.db import IntegrityError

    from tests import factories
    from tournaments.models import Competition

    competition = factories.competition(factories.club())
    with pytest.raises(IntegrityError):
        Competition.objects.filter(pk=competition.pk).update(**{column: value})


def test_the_modules_that_define_the_vocabulary_load_no_django():
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys, scoring.rules, scoring.results.ranking, tournaments.ranking_rules, "
        "tournaments.draw, leagues.table; print('django' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
