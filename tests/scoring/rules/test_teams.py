"""Teams and seats: the one definition the models, the draw and the pages use."""

import pytest

from scoring.rules import PRESET_NAMES, Preset, Seat, Team


@pytest.mark.parametrize(
    "seat, letter, team, partner, opponents",
    [
        (Seat.NORTH, "N", Team.A, Seat.SOUTH, (Seat.EAST, Seat.WEST)),
        (Seat.EAST, "E", Team.B, Seat.WEST, (Seat.NORTH, Seat.SOUTH)),
        (Seat.SOUTH, "S", Team.A, Seat.NORTH, (Seat.WEST, Seat.EAST)),
        (Seat.WEST, "W", Team.B, Seat.EAST, (Seat.SOUTH, Seat.NORTH)),
    ],
)
def test_a_seat_is_written_by_its_letter_and_knows_its_partner_and_opponents(
    seat, letter, team, partner, opponents
):
    assert seat.letter == letter
    assert Seat.from_letter(letter) is seat
    assert seat.team is team
    assert seat.partner is partner
    assert seat.opponents == opponents
    assert seat in team.seats and partner in team.seats
    assert not set(opponents) & set(team.seats)


@pytest.mark.parametrize("bad", ["", "n", "X", "NE", "0"])
def test_a_letter_that_is_no_seat_raises(bad):
    with pytest.raises(ValueError, match="write N, E, S or W"):
        Seat.from_letter(bad)


def test_the_presets_are_one_enum_with_the_default_first():
    assert (
        PRESET_NAMES
        == tuple(Preset)
        == (
            "rotterdam",
            "amsterdam",
            "match-500",
            "match-1500",
            "single-deal",
        )
    )
    assert repr(Preset.MATCH_500) == "Preset.MATCH_500"
