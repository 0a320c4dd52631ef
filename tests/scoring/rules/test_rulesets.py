"""Rule sets: presets, club overrides, and storing them as name + JSON."""

import dataclasses
import json
import pathlib
import re

import pytest

import scoring.rules
from scoring.rules import (
    DEFAULT_RULESET,
    PRESET_NAMES,
    RULESETS,
    Chooser,
    GameEnd,
    InvalidRuleset,
    NatBasis,
    NatRoem,
    PlayRule,
    RoemRule,
    Ruleset,
    TieRule,
    get_ruleset,
    ruleset_from,
)

# docs/rules.md, "Presets", one row per preset.
PRESETS = {
    "rotterdam": {
        "nat_basis": NatBasis.POINTS_AND_ROEM,
        "nat_roem": NatRoem.TO_DEFENDERS,
        "pit_bonus": 100,
        "verzaken_bonus": 100,
        "game_end": GameEnd.HANDS,
        "hands_per_game": 16,
        "on_tie": TieRule.EXTRA_HANDS,
        "roefel": False,
        "all_pass_chooser": Chooser.FOREHAND,
        "play_rule": PlayRule.ROTTERDAM,
        "roem_rule": RoemRule.IN_TRICK,
    },
    "amsterdam": {
        "nat_basis": NatBasis.POINTS_AND_ROEM,
        "nat_roem": NatRoem.TO_DEFENDERS,
        "pit_bonus": 100,
        "verzaken_bonus": 100,
        "game_end": GameEnd.HANDS,
        "hands_per_game": 16,
        "on_tie": TieRule.EXTRA_HANDS,
        "roefel": False,
        "all_pass_chooser": Chooser.FOREHAND,
        "play_rule": PlayRule.AMSTERDAM,
        "roem_rule": RoemRule.IN_TRICK,
    },
    "match-500": {
        "nat_basis": NatBasis.CARD_POINTS,
        "nat_roem": NatRoem.TO_DEFENDERS,
        "pit_bonus": 100,
        "verzaken_bonus": 100,
        "game_end": GameEnd.TARGET,
        "target_score": 500,
        "on_tie": TieRule.EXTRA_HANDS,
        "roefel": True,
        "all_pass_chooser": Chooser.FOREHAND,
        "play_rule": PlayRule.AMSTERDAM,
        "roem_rule": RoemRule.IN_TRICK,
    },
    "match-1500": {
        "nat_basis": NatBasis.CARD_POINTS,
        "nat_roem": NatRoem.KEPT_BY_EACH,
        "pit_bonus": 100,
        "verzaken_bonus": 100,
        "game_end": GameEnd.TARGET,
        "target_score": 1500,
        "on_tie": TieRule.EXTRA_HANDS,
        "roefel": False,
        "all_pass_chooser": Chooser.DEALER,
        "play_rule": PlayRule.AMSTERDAM,
        "roem_rule": RoemRule.DECLARED,
    },
    "single-deal": {
        "nat_basis": NatBasis.POINTS_AND_ROEM,
        "nat_roem": NatRoem.TO_DEFENDERS,
        "pit_bonus": 100,
        "verzaken_bonus": 100,
        "game_end": GameEnd.HANDS,
        "hands_per_game": 1,
        "on_tie": TieRule.DRAW,
        "roefel": False,
        "all_pass_chooser": Chooser.FOREHAND,
        "play_rule": PlayRule.ROTTERDAM,
        "roem_rule": RoemRule.IN_TRICK,
    },
}


@pytest.mark.parametrize(
    ("preset", "field", "value"),
    [
        (preset, field, value)
        for preset, fields in PRESETS.items()
        for field, value in fields.items()
    ],
)
def test_each_preset_has_the_rules_domain_md_gives_it(preset, field, value):
    ruleset = get_ruleset(preset)
    assert ruleset.name == preset
    assert getattr(ruleset, field) == value


def test_the_presets_are_the_five_named_ones_and_rotterdam_is_the_default():
    assert (
        tuple(RULESETS)
        == PRESET_NAMES
        == (
            "rotterdam",
            "amsterdam",
            "match-500",
            "match-1500",
            "single-deal",
        )
    )
    assert get_ruleset() is DEFAULT_RULESET is RULESETS["rotterdam"]
    assert all(not r.is_modified and r.overrides() == {} for r in RULESETS.values())


@pytest.mark.parametrize("name", ["", "Rotterdam", "klaverjas", None, 3])
def test_an_unknown_preset_raises_invalid_ruleset_naming_the_field(name):
    with pytest.raises(InvalidRuleset) as info:
        get_ruleset(name)
    assert info.value.field == "name" and info.value.code == "unknown_preset"
    with pytest.raises(InvalidRuleset):
        ruleset_from(name, {})


def test_a_ruleset_is_immutable_and_hashable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_RULESET.pit_bonus = 200
    assert len({get_ruleset("rotterdam"), Ruleset(), get_ruleset("amsterdam")}) == 2


def test_a_club_replaces_fields_of_a_preset_and_keeps_its_name():
    twelve = dataclasses.replace(get_ruleset("rotterdam"), hands_per_game=12)
    assert twelve.name == "rotterdam"
    assert twelve.hands_per_game == 12
    assert twelve.is_modified and twelve.label == "rotterdam (modified)"
    assert twelve.overrides() == {"hands_per_game": 12}
    assert twelve.replace(pit_bonus=150).overrides() == {"hands_per_game": 12, "pit_bonus": 150}


def test_enum_fields_accept_their_string_values():
    ruleset = dataclasses.replace(DEFAULT_RULESET, play_rule="amsterdam", nat_roem="kept_by_each")
    assert ruleset.play_rule is PlayRule.AMSTERDAM
    assert ruleset.nat_roem is NatRoem.KEPT_BY_EACH


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_to_dict_is_json_safe_and_name_plus_overrides_rebuild_the_ruleset(name):
    ruleset = get_ruleset(name)
    data = ruleset.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["name"] == name
    assert all(type(v) in (str, int, bool) for v in data.values())
    fields = {k: v for k, v in data.items() if k != "name"}
    assert ruleset_from(name, fields) == ruleset
    assert ruleset_from(name, data) == ruleset

    tuned = ruleset.replace(pit_bonus=150, play_rule=PlayRule.ROTTERDAM, hands_per_game=12)
    stored = json.loads(json.dumps({"preset": tuned.name, "overrides": tuned.overrides()}))
    assert ruleset_from(stored["preset"], stored["overrides"]) == tuned
    assert stored["overrides"]["pit_bonus"] == 150


@pytest.mark.parametrize(
    ("overrides", "field", "code"),
    [
        ({"colour": "red"}, "colour", "unknown_field"),
        ({"name": "amsterdam"}, "name", "bad_value"),
        ({"nat_basis": "roem_only"}, "nat_basis", "bad_value"),
        ({"play_rule": "utrecht"}, "play_rule", "bad_value"),
        ({"roem_rule": None}, "roem_rule", "bad_value"),
        ({"hands_per_game": 0}, "hands_per_game", "bad_value"),
        ({"hands_per_game": True}, "hands_per_game", "bad_value"),
        ({"hands_per_game": "16"}, "hands_per_game", "bad_value"),
        ({"pit_bonus": -100}, "pit_bonus", "bad_value"),
        ({"pit_bonus": 100.0}, "pit_bonus", "bad_value"),
        ({"verzaken_bonus": -1}, "verzaken_bonus", "bad_value"),
        ({"roefel": "yes"}, "roefel", "bad_value"),
        ({"game_end": "target"}, "target_score", "bad_value"),
        ({"target_score": -5}, "target_score", "bad_value"),
    ],
)
def test_bad_overrides_raise_invalid_ruleset_naming_the_field(overrides, field, code):
    with pytest.raises(InvalidRuleset) as info:
        ruleset_from("rotterdam", overrides)
    assert isinstance(info.value, ValueError)
    assert info.value.field == field and info.value.code == code
    assert field in str(info.value)


def test_overrides_must_be_a_mapping():
    with pytest.raises(InvalidRuleset) as info:
        ruleset_from("rotterdam", [("pit_bonus", 200)])
    assert info.value.code == "not_a_mapping"
    assert ruleset_from("amsterdam", None) is get_ruleset("amsterdam")
    assert ruleset_from("amsterdam", {}) is get_ruleset("amsterdam")


def test_the_target_score_game_end_works_on_a_hands_preset_when_a_target_is_given():
    ruleset = ruleset_from("rotterdam", {"game_end": "target", "target_score": 1000})
    assert ruleset.game_end is GameEnd.TARGET and ruleset.target_score == 1000


def test_roefel_is_hand_one_of_a_game_only_where_the_ruleset_says():
    assert get_ruleset("match-500").is_roefel(1)
    assert not get_ruleset("match-500").is_roefel(2)
    assert not get_ruleset("rotterdam").is_roefel(1)


def test_no_module_branches_on_a_preset_name():
    package = pathlib.Path(scoring.rules.__file__).parent
    pattern = re.compile(r"\.name\s*(==|!=|\bin\b)|[\"'](match-500|match-1500|single-deal)[\"']")
    offenders = [
        path.name
        for path in package.glob("*.py")
        if path.name not in {"rulesets.py", "bench.py"} and pattern.search(path.read_text())
    ]
    assert offenders == []


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_rulesets_repr_can_be_pasted_back(name):
    ruleset = get_ruleset(name).replace(pit_bonus=150)
    namespace = {k: getattr(scoring.rules, k) for k in scoring.rules.__all__}
    assert eval(repr(ruleset), namespace) == ruleset  # noqa: S307
