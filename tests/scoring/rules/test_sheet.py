"""The score sheet's notation: every hand written as the sheet writes it reads back
as the same hand (scoring.rules.sheet)."""

import random

import pytest

from scoring.rules import (
    PRESET_NAMES,
    InvalidHand,
    Outcome,
    PerTeam,
    RoemRule,
    Team,
    format_declarations,
    get_ruleset,
    score_hand,
    sheet,
    simulate_deal,
)

ROTTERDAM = get_ruleset("rotterdam")
MATCH_500 = get_ruleset("match-500")
MATCH_1500 = get_ruleset("match-1500")


def same_hand(read, result):
    """The hand read back scores as the written one: who played, the outcome, the pit,
    who reneged and what each team banks."""
    assert read.playing is result.playing
    assert read.outcome is result.outcome
    assert read.pit is result.pit
    assert read.verzaakt is result.verzaakt
    assert read.scores == result.scores


def round_trip(ruleset, result, declared=("", ""), style=sheet.MarkStyle.PIT_TEAM):
    row = sheet.result_row(result, style=style)
    read = sheet.read_row(
        ruleset,
        playing=result.playing,
        points=["nat" if row.nat is team else row.points.of(team) for team in Team],
        roem=tuple(row.roem),
        marks=tuple(row.marks),
        declared=declared,
        style=style,
    )
    same_hand(read, result)
    assert sheet.result_row(read, style=style) == row  # written again, the same row
    return row, read


# (rule set, score_hand kwargs) -> (card points, roem column, marks) as the sheet writes them.
HANDS = {
    "pit": (
        ROTTERDAM,
        {"playing": "A", "points": (162, 0), "pit": "A"},
        ((162, 0), (100, 0), ("M", "")),
    ),
    "pit with roem": (
        ROTTERDAM,
        {"playing": "B", "points": (0, 162), "roem": (0, 70), "pit": "B"},
        ((0, 162), (0, 170), ("", "M")),
    ),
    "tegenpit": (
        ROTTERDAM,
        {"playing": "A", "points": (0, 162), "pit": "B"},
        ((0, 162), (0, 100), ("", "TP")),
    ),
    "tegenpit with roem": (
        ROTTERDAM,
        {"playing": "A", "points": (0, 162), "roem": (0, 20), "pit": "B"},
        ((0, 162), (0, 120), ("", "TP")),
    ),
    "made": (
        ROTTERDAM,
        {"playing": "A", "points": (102, 60), "roem": (20, 0)},
        ((102, 60), (20, 0), ("", "")),
    ),
    "nat, roem to the defenders": (
        ROTTERDAM,
        {"playing": "A", "points": (70, 92), "roem": (20, 20)},
        ((0, 162), (0, 40), ("", "")),
    ),
    "81-81 is nat": (
        ROTTERDAM,
        {"playing": "B", "points": (81, 81)},
        ((162, 0), (0, 0), ("", "")),
    ),
    "verzaakt": (
        ROTTERDAM,
        {"playing": "B", "roem": (20, 50), "verzaakt": "A"},
        ((0, 162), (0, 170), ("V", "")),
    ),
    "verzaakt without roem": (
        ROTTERDAM,
        {"playing": "A", "verzaakt": "A"},
        ((0, 162), (0, 100), ("V", "")),
    ),
    "roefel match, made": (
        MATCH_500,
        {"playing": "B", "points": (60, 102), "roem": (0, 50)},
        ((60, 102), (0, 50), ("", "")),
    ),
    "roefel match, nat on card points": (
        MATCH_500,
        {"playing": "B", "points": (81, 81), "roem": (0, 100)},
        ((162, 0), (100, 0), ("", "")),
    ),
    "roefel match, pit": (
        MATCH_500,
        {"playing": "B", "points": (0, 162), "roem": (0, 20), "pit": "B"},
        ((0, 162), (0, 120), ("", "M")),
    ),
}


@pytest.mark.parametrize("name", HANDS)
def test_a_hand_written_as_the_sheet_writes_it_reads_back_as_the_same_hand(name):
    ruleset, entry, (points, roem, marks) = HANDS[name]
    result = score_hand(ruleset, **entry)
    row, read = round_trip(ruleset, result)
    assert (tuple(row.points), tuple(row.roem), tuple(row.marks)) == (points, roem, marks)
    if result.outcome is Outcome.MADE:
        # Nothing is lost for a hand made: the entry itself comes back.
        assert (read.points, read.roem) == (result.points, result.roem)


PIT_TEAM, MARSEN = sheet.MarkStyle.PIT_TEAM, sheet.MarkStyle.MARSEN
OTHER_P, OTHER_M = sheet.MarkStyle.OTHER_P, sheet.MarkStyle.OTHER_M

#: The marks of each style where they differ from today's (PIT_TEAM, in HANDS): a
#: pit of A when A plays; of B when B plays; the defenders' pit (B) when A plays.
#: MARSEN tallies I in the pit team's column, OTHER_P and OTHER_M write their
#: letter in the column of the team that took no trick.
PIT_MARKS = {
    "pit": {MARSEN: ("I", ""), OTHER_P: ("", "P"), OTHER_M: ("", "M")},
    "pit with roem": {MARSEN: ("", "I"), OTHER_P: ("P", ""), OTHER_M: ("M", "")},
    "tegenpit": {MARSEN: ("", "I"), OTHER_P: ("P", ""), OTHER_M: ("M", "")},
    "tegenpit with roem": {MARSEN: ("", "I"), OTHER_P: ("P", ""), OTHER_M: ("M", "")},
    "roefel match, pit": {MARSEN: ("", "I"), OTHER_P: ("P", ""), OTHER_M: ("M", "")},
}


@pytest.mark.parametrize("style", list(sheet.MarkStyle))
@pytest.mark.parametrize("name", HANDS)
def test_every_style_of_marks_reads_back_every_kind_of_hand(name, style):
    """The card points and roem columns are the same in every style; only the marks
    differ (a nat, a made hand and a renege: the same in all, V for verzaakt)."""
    ruleset, entry, (points, roem, marks) = HANDS[name]
    result = score_hand(ruleset, **entry)
    row, _read = round_trip(ruleset, result, style=style)
    expected = PIT_MARKS.get(name, {}).get(style, marks)
    assert (tuple(row.points), tuple(row.roem), tuple(row.marks)) == (points, roem, expected)


@pytest.mark.parametrize(
    ("style", "playing", "marks", "pit"),
    [
        # The style's own marks.
        (MARSEN, "A", ("I", ""), Team.A),
        (MARSEN, "A", ("", "i"), Team.B),  # a tegenpit is a mars in the marsen column too
        (MARSEN, "B", ("|", ""), Team.A),  # a tally stroke
        (OTHER_P, "A", ("", "P"), Team.A),
        (OTHER_P, "A", ("p", ""), Team.B),
        (OTHER_M, "A", ("", "M"), Team.A),
        (OTHER_M, "A", ("M", ""), Team.B),  # the style's M, never today's
        # Today's M / TP, where they cannot mean anything else.
        (MARSEN, "A", ("M", ""), Team.A),
        (MARSEN, "A", ("", "TP"), Team.B),
        (OTHER_P, "B", ("", "M"), Team.B),
        (OTHER_P, "A", ("", "TP"), Team.B),
        (OTHER_M, "A", ("", "TP"), Team.B),
    ],
)
def test_each_style_reads_its_marks_and_todays_where_unambiguous(style, playing, marks, pit):
    assert sheet.read_marks(playing=playing, marks=marks, style=style) == (pit, None)


@pytest.mark.parametrize(
    ("style", "playing", "marks"),
    [
        (PIT_TEAM, "A", ("I", "")),  # a tally needs a marsen column
        (PIT_TEAM, "A", ("", "P")),
        (MARSEN, "A", ("I", "I")),  # two pits
        (MARSEN, "A", ("", "M")),  # M is only ever the playing team's, today
        (MARSEN, "A", ("P", "")),
        (OTHER_P, "A", ("", "M")),  # today's M is the playing team's: ambiguous here
        (OTHER_P, "A", ("P", "P")),
        (OTHER_P, "A", ("TP", "")),
        (OTHER_M, "A", ("P", "")),
        (OTHER_M, "A", ("I", "")),
    ],
)
def test_a_mark_the_style_never_writes_is_refused(style, playing, marks):
    with pytest.raises(InvalidHand) as info:
        sheet.read_marks(playing=playing, marks=marks, style=style)
    assert info.value.code == "sheet_mark"
    assert info.value.params["style"] == style.value


def test_verzaakt_is_v_in_every_style():
    for style in sheet.MarkStyle:
        assert sheet.read_marks(playing="A", marks=("", "V"), style=style) == (None, Team.B)
        assert sheet.marks(playing="A", verzaakt="B", style=style) == PerTeam("", "V")


def test_a_pit_written_162_100_m_is_262_and_not_362():
    read = sheet.read_row(
        ROTTERDAM, playing="A", points=(162, ""), roem=(100, None), marks=("M", "")
    )
    assert read.scores == PerTeam(262, 0) and read.roem == PerTeam(0, 0) and read.pit is Team.A


def test_the_roem_beside_a_pit_is_the_column_above_the_bonus():
    read = sheet.read_row(
        ROTTERDAM, playing="A", points=(162, 0), roem=(120, None), marks=("M", "")
    )
    assert read.scores == PerTeam(282, 0) and read.roem == PerTeam(20, 0)


@pytest.mark.parametrize("column", [None, 0])
def test_a_blank_or_0_roem_column_beside_a_pit_is_the_bonus_alone(column):
    """The sheet never writes it; "no roem" is its only reading (files written before)."""
    read = sheet.read_row(
        ROTTERDAM, playing="A", points=(None, None), roem=(column, None), marks=("M", "")
    )
    assert read.scores == PerTeam(262, 0)


@pytest.mark.parametrize("column", [10, 20, 50, 90])
def test_a_pit_column_below_the_bonus_is_refused_it_is_never_written(column):
    with pytest.raises(InvalidHand) as info:
        sheet.read_row(
            ROTTERDAM, playing="B", points=(0, 162), roem=(None, column), marks=("", "M")
        )
    assert info.value.code == "sheet_bonus"
    assert info.value.params == {"team": "B", "value": column, "bonus": 100, "kind": "pit"}


def test_a_verzaken_column_below_the_penalty_is_refused():
    with pytest.raises(InvalidHand) as info:
        sheet.read_roem(ROTTERDAM, "B", 70, pit=None, verzaakt="A")
    assert info.value.params["kind"] == "verzaken"


def test_the_bonus_follows_the_rule_set():
    tuned = ROTTERDAM.replace(pit_bonus=50)
    assert sheet.write_roem(tuned, "A", 20, pit="A", verzaakt=None) == 70
    assert sheet.read_roem(tuned, "A", 70, pit="A", verzaakt=None) == 20


@pytest.mark.parametrize(
    ("playing", "marks"),
    [("A", ("TP", "")), ("A", ("", "M")), ("B", ("M", "TP")), ("A", ("X", ""))],
)
def test_a_mark_the_sheet_never_writes_is_refused(playing, marks):
    with pytest.raises(InvalidHand) as info:
        sheet.read_marks(playing=playing, marks=marks)
    assert info.value.code == "sheet_mark"


def test_only_the_playing_team_can_be_written_nat():
    assert sheet.read_points("nat", team="A", playing="A") == 0
    assert sheet.read_points(" NAT ", team="B", playing="B") == 0
    with pytest.raises(InvalidHand) as info:
        sheet.read_points("nat", team="B", playing="A")
    assert info.value.code == "sheet_nat"


def test_a_declared_pit_reads_its_declarations_not_the_column():
    result = score_hand(MATCH_1500, playing="A", points=(162, 0), roem=("20+stuk", ""), pit="A")
    assert result.scores == PerTeam(302, 0)
    row, _read = round_trip(MATCH_1500, result, declared=("20+stuk", ""))
    assert tuple(row.roem) == (140, 0) and tuple(row.marks) == ("M", "")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_simulated_deals_written_and_read_back_are_the_same_hands(preset):
    ruleset = get_ruleset(preset)
    rng = random.Random(f"sheet {preset}")
    for number in range(1, 301):
        deal = simulate_deal(ruleset, rng=rng, hand_number=number)
        result = deal.score()
        declared = ("", "")
        if ruleset.roem_rule is RoemRule.DECLARED:
            declared = tuple(format_declarations(items) for items in deal.roem_entry())
            if not any(declared):
                declared = ("", "")
        for style in sheet.MarkStyle:
            round_trip(ruleset, result, declared, style=style)
