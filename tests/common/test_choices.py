"""Django choices built from the enums of the pure modules (common/choices.py)."""

from enum import StrEnum

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from common.choices import TeamChoices, enum_values, text_choices, validate_tie_breaks
from scoring import rules
from tournaments.models import Competition


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


def test_choices_keep_the_enums_values_order_and_names_with_the_given_labels():
    Choices = text_choices(Colour, {Colour.BLUE: "blauw", Colour.RED: "rood"})
    assert Choices.choices == [("red", "rood"), ("blue", "blauw")]
    assert Choices.RED == "red" == Colour.RED
    assert Choices("blue").label == "blauw"


def test_a_member_without_a_label_or_a_label_without_a_member_is_refused():
    with pytest.raises(ValueError, match=r"missing \['BLUE'\]"):
        text_choices(Colour, {Colour.RED: "rood"})
    with pytest.raises(ValueError, match="not members"):
        text_choices(Colour, {Colour.RED: "rood", Colour.BLUE: "blauw", "green": "groen"})


def test_an_int_enum_is_stored_by_the_value_it_is_written_with():
    Suits = text_choices(rules.Suit, {suit: suit.symbol for suit in rules.Suit})
    assert Suits.values == ["C", "D", "H", "S"]
    assert enum_values(rules.Seat, value=lambda seat: seat.letter) == ["N", "E", "S", "W"]


def test_team_labels_stay_translatable_in_the_clubs_words():
    with translation.override("nl"):
        assert dict(TeamChoices.choices) == {"A": "wij (Noord/Zuid)", "B": "zij (Oost/West)"}
    with translation.override("en"):
        assert TeamChoices("B").label == "zij (East/West)"


@pytest.mark.parametrize(
    "value, message",
    [
        (["marsen", "marsen"], "Each tie-break once."),
        (["marsen", "luck"], "Unknown tie-break."),
        ("marsen", "Unknown tie-break."),
        ([["marsen"]], "Unknown tie-break."),
        ([{"a": 1}], "Unknown tie-break."),
    ],
)
def test_a_tie_break_list_names_known_tie_breaks_each_once(value, message):
    with translation.override("en"):
        with pytest.raises(ValidationError) as info:
            validate_tie_breaks(value, Competition.TieBreak)
        assert info.value.messages == [message]


def test_a_good_tie_break_list_passes():
    validate_tie_breaks([], Competition.TieBreak)
    validate_tie_breaks(["head_to_head", "marsen"], Competition.TieBreak)
