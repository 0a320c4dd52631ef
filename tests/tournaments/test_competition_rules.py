"""The rule set on the competition pages: a preset's values are the form's defaults,
every field of the rule set is editable and stored as preset + overrides, the core
refuses bad combinations on their field, and the rules are stated in plain words."""

import dataclasses
import gettext
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from common.rulesets import RULE_FIELDS, describe_ruleset
from scoring.models import Game
from scoring.rules import RULESETS, Ruleset, get_ruleset
from tests import factories
from tests.config.test_translations import parse_po
from tournaments import services
from tournaments.models import Competition

pytestmark = pytest.mark.django_db

PENDING = Path(__file__).resolve().parents[2] / "locale" / "pending" / "play.django.po"

#: A value other than the Rotterdam preset's for every rule-set field.
CHANGED = {
    "play_rule": "amsterdam",
    "roem_rule": "declared",
    "nat_basis": "card_points",
    "nat_roem": "kept_by_each",
    "pit_bonus": 50,
    "verzaken_rule": "personal",
    "verzaken_bonus": 200,
    "game_end": "target",
    "hands_per_game": 12,
    "target_score": 700,
    "on_tie": "draw",
    "roefel": True,
    "all_pass_chooser": "dealer",
    "forced_play": True,
    "low_fours": True,
}


class PendingCatalog(gettext.NullTranslations):
    """A branch's pending Dutch strings (locale/pending/<branch>.django.po) as a catalog."""

    def __init__(self, entries):
        super().__init__()
        self._catalog = {}
        for (_, msgid), value in entries.items():
            if isinstance(value, tuple):
                self._catalog.update({(msgid, i): text for i, text in enumerate(value)})
            else:
                self._catalog[msgid] = value
        self.plural = lambda n: int(n != 1)


def with_pending_dutch(path):
    """Merge ``path`` into the Dutch catalog until the generator is closed (a fixture)."""
    if path.exists():
        trans_real.translation("nl").merge(PendingCatalog(parse_po(path)))
    yield
    trans_real._translations = {}
    trans_real._default = None


@pytest.fixture(scope="module", autouse=True)
def pending_dutch():
    """This branch's new Dutch strings, until they are merged into the catalog."""
    yield from with_pending_dutch(PENDING)


@pytest.fixture
def director(club):
    return factories.role(club, "director")


@pytest.fixture
def logged_in(client, director):
    client.force_login(director)
    return client


def url(name, club, **kwargs):
    return reverse(f"tournaments:{name}", kwargs={"club": club.slug, **kwargs})


def as_posted(form, **changes):
    """What a browser without JavaScript sends for ``form`` as shown, with ``changes``."""
    data = {}
    for field in form:
        value = field.value()
        if field.field.disabled or value is None or value is False:
            continue
        data[field.html_name] = "on" if value is True else value
    for name, value in changes.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = "on" if value is True else value
    return data


def new_competition_data(logged_in, club, **changes):
    page = logged_in.get(url("competition-create", club))
    fields = {"name": "Zomeravond", "start_date": "2027-06-01", "end_date": "2027-08-31"}
    return as_posted(page.context["form"], **{**fields, **changes})


def test_single_deal_from_the_form_is_a_one_hand_game_at_the_table(logged_in, club, director):
    # The page shows the club's preset (Rotterdam, 16 hands); choosing the single
    # deal, without JavaScript, changes nothing else in the form.
    data = new_competition_data(logged_in, club, ruleset_preset="single-deal")
    assert data["hands_per_game"] == 16 and data["ruleset_base"] == "rotterdam"
    response = logged_in.post(url("competition-create", club), data)
    competition = Competition.objects.get(name="Zomeravond")
    assert response["Location"] == competition.get_absolute_url()
    assert competition.ruleset() == get_ruleset("single-deal")
    assert competition.ruleset_overrides == {}
    evening = factories.evening(competition, present=factories.members(club, 4))
    round_ = services.round_draw(evening=evening, by=director, seed=1)
    game = Game.objects.get(table__round=round_)
    assert game.ruleset["hands_per_game"] == 1
    entry = logged_in.get(reverse("scoring:table-entry", kwargs={"token": game.table.token}))
    assert "Spel <strong>1</strong> van 1" in entry.text


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_the_new_form_starts_from_the_chosen_preset(logged_in, club, preset):
    club.ruleset_preset = preset
    club.save()
    form = logged_in.get(url("competition-create", club)).context["form"]
    values = {name: form[name].value() for name in RULE_FIELDS}
    expected = get_ruleset(preset).to_dict()
    assert values == {name: expected[name] for name in RULE_FIELDS}
    assert form["ruleset_preset"].value() == form["ruleset_base"].value() == preset


def test_a_field_the_director_changed_stays_when_the_preset_changes(logged_in, club):
    data = new_competition_data(logged_in, club, ruleset_preset="match-500", pit_bonus=50)
    logged_in.post(url("competition-create", club), data)
    competition = Competition.objects.get(name="Zomeravond")
    assert competition.ruleset() == get_ruleset("match-500").replace(pit_bonus=50)
    assert competition.ruleset_overrides == {"pit_bonus": 50}


def test_a_post_without_the_rule_fields_gets_the_presets_rules(logged_in, club):
    data = {
        "name": "Kaal",
        "format": "season",
        "kind": "individual",
        "start_date": "2027-06-01",
        "end_date": "2027-08-31",
        "ruleset_preset": "match-500",
        "rounds_per_evening": 1,
        "odd_players": "sitout",
        "sitout_score": 1600,
        "absence_policy": "nothing",
        "absence_score": 0,
        "ranking_basis": "total",
        "min_attendance": 0,
    }
    logged_in.post(url("competition-create", club), data)
    assert Competition.objects.get(name="Kaal").ruleset() == get_ruleset("match-500")


def test_every_rule_field_round_trips_through_edit(logged_in, club):
    season = factories.competition(club)
    page = logged_in.get(url("competition-edit", club, pk=season.pk))
    response = logged_in.post(
        url("competition-edit", club, pk=season.pk), as_posted(page.context["form"], **CHANGED)
    )
    assert response.status_code == 302
    season.refresh_from_db()
    expected = get_ruleset("rotterdam").replace(**CHANGED)
    assert season.ruleset() == expected
    assert season.ruleset_overrides == expected.overrides()
    assert set(season.ruleset_overrides) == set(RULE_FIELDS)  # every field, stored
    form = logged_in.get(url("competition-edit", club, pk=season.pk)).context["form"]
    assert {name: form[name].value() for name in RULE_FIELDS} == CHANGED
    # Saved again unchanged, nothing moves; set back to the preset's, nothing is left over.
    logged_in.post(url("competition-edit", club, pk=season.pk), as_posted(form))
    season.refresh_from_db()
    assert season.ruleset() == expected
    rotterdam = {name: get_ruleset("rotterdam").to_dict()[name] for name in RULE_FIELDS}
    logged_in.post(url("competition-edit", club, pk=season.pk), as_posted(form, **rotterdam))
    season.refresh_from_db()
    assert season.ruleset_overrides == {}


@pytest.mark.parametrize(("name", "value"), CHANGED.items())
def test_each_rule_field_alone_is_stored_as_one_override(logged_in, club, name, value):
    season = factories.competition(club)
    form = logged_in.get(url("competition-edit", club, pk=season.pk)).context["form"]
    changes = {name: value}
    if name == "game_end":
        changes["target_score"] = 500  # a target game needs a target
    logged_in.post(url("competition-edit", club, pk=season.pk), as_posted(form, **changes))
    season.refresh_from_db()
    assert season.ruleset_overrides == changes


def test_a_target_game_without_a_target_is_refused_on_the_target_field(logged_in, club):
    data = new_competition_data(logged_in, club, game_end="target", target_score=0)
    response = logged_in.post(url("competition-create", club), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors["target_score"] == [
        "Een partij tot een eindscore heeft een eindscore van minstens 1 punt nodig."
    ]
    assert list(form.errors) == ["target_score"]
    assert not Competition.objects.filter(name="Zomeravond").exists()


def test_the_edit_refuses_a_bad_combination_and_keeps_the_rules(logged_in, club):
    season = factories.competition(club, ruleset_overrides={"pit_bonus": 50})
    form = logged_in.get(url("competition-edit", club, pk=season.pk)).context["form"]
    data = as_posted(form, game_end="target", target_score=0, hands_per_game=1)
    response = logged_in.post(url("competition-edit", club, pk=season.pk), data)
    assert "target_score" in response.context["form"].errors
    season.refresh_from_db()
    assert season.ruleset_overrides == {"pit_bonus": 50}


def test_the_rule_set_is_fixed_once_a_hand_is_played(logged_in, club, director):
    drawn = factories.drawn_round(club, director, players=4)
    season = drawn.season
    factories.hand(drawn.game, "A", 100, raw=True)
    page = logged_in.get(url("competition-edit", club, pk=season.pk))
    form = page.context["form"]
    assert form["hands_per_game"].field.disabled and form["ruleset_preset"].field.disabled
    data = as_posted(form, hands_per_game=1, ruleset_preset="amsterdam", sitout_score=1500)
    logged_in.post(url("competition-edit", club, pk=season.pk), data)
    season.refresh_from_db()
    assert season.ruleset() == get_ruleset("rotterdam")
    assert season.sitout_score == 1500  # other settings still change


def test_a_rules_change_before_play_reaches_the_tables_already_drawn(club, director):
    drawn = factories.drawn_round(club, director, players=4)
    season = drawn.season
    services.competition_update(competition=season, by=director, ruleset_preset="single-deal")
    game = Game.objects.get(table__round=drawn.round)
    assert Ruleset(**{**game.ruleset}) == get_ruleset("single-deal")


def test_the_form_has_every_field_of_the_rule_set():
    # A new Ruleset field needs its place on the form (and words in describe_ruleset).
    assert set(RULE_FIELDS) == {f.name for f in dataclasses.fields(Ruleset)} - {"name"}


# --- The rules in plain words -----------------------------------------------------------


def test_the_form_and_the_competition_page_state_the_rules_in_dutch(logged_in, club):
    season = factories.competition(
        club, ruleset_preset="amsterdam", ruleset_overrides={"hands_per_game": 12}
    )
    for page in (
        logged_in.get(url("competition-edit", club, pk=season.pk)),
        logged_in.get(season.get_absolute_url()),
    ):
        assert "Spelregels: Amsterdams, aangepast: spellen per partij." in page.text
        assert "Een partij is 12 spellen." in page.text
        assert "Amsterdams spelen: wie niet kan bekennen" in page.text


@pytest.mark.parametrize(
    ("preset", "overrides", "language", "sentences"),
    [
        (
            "rotterdam",
            {},
            "en",
            [
                "Rule set: Rotterdam (club standard).",
                "Rotterdam play: void in the led suit, you must trump, also over your partner, "
                "and overtrump if you can.",
                "Roem counts in the tricks, for the team that takes the trick.",
                "The playing team is nat unless its card points and roem are more than the "
                "other team's (81-81 is nat).",
                "Nat: the other team gets 162 and all roem.",
                "Pit (mars, all eight tricks): 100 extra.",
                "Verzaken: the other team gets 162, all roem of the hand and 100; "
                "the team that verzaakt gets 0.",
                "A game is a boompje of 16 hands. "
                "Equal totals at the end: extra hands until the tie breaks.",
                "If all four pass, the forehand must choose trump.",
            ],
        ),
        (
            "single-deal",
            {},
            "nl",
            [
                "Spelregels: Eén spel.",
                "Een partij is 1 spel. Gelijke stand aan het eind: de partij eindigt gelijk.",
            ],
        ),
        (
            "match-500",
            {"pit_bonus": 50},
            "nl",
            [
                "Spelregels: Partij tot 500, aangepast: bonus voor pit (mars).",
                "Het spelende team is nat met minder dan 82 kaartpunten; roem telt daarbij "
                "niet mee.",
                "Pit (mars, alle acht slagen): 50 extra.",
                "Een partij gaat tot 500: het eerste team met zoveel punten aan het eind van "
                "een spel wint; hebben beide teams dat, dan het hoogste totaal. Gelijke stand "
                "aan het eind: extra spellen tot de stand niet meer gelijk is.",
                "Spel 1 is de roefel: klaveren is troef en het team van de voorhand speelt.",
            ],
        ),
        (
            "rotterdam",
            {"low_fours": True},
            "en",
            [
                "Rule set: Rotterdam (club standard), changed: four 7s, 8s or 9s: 100 roem.",
                "Four 7s, 8s or 9s in one trick are 100 roem too.",
            ],
        ),
        (
            "rotterdam",
            {"forced_play": True},
            "en",
            [
                "Rule set: Rotterdam (club standard), changed: forced play: nobody passes.",
                "Nobody passes: the forehand always chooses trump.",
            ],
        ),
        (
            "rotterdam",
            {"verzaken_rule": "no_roem"},
            "en",
            ["Verzaken: the other team gets 162 and 100, no roem; the team that verzaakt gets 0."],
        ),
        (
            "rotterdam",
            {"verzaken_rule": "personal"},
            "en",
            [
                "Verzaken: the hand counts as played; the player who verzaakt gets -100 "
                "personally, the partner keeps the points.",
            ],
        ),
        (
            "rotterdam",
            {"verzaken_rule": "none"},
            "en",
            ["Verzaken is not punished: the hand counts as played."],
        ),
        (
            "match-1500",
            {},
            "en",
            [
                "Nat: the other team gets 162; each team keeps its own roem.",
                "Roem is declared from the hand: a run of three 20, of four 50, of five or more "
                "100, stuk 20; only the team with the highest run scores its runs.",
                "If all four pass, the dealer must choose trump.",
                "A game is played to 1500: the first team with that many points at the end of "
                "a hand wins; if both have, the higher total. "
                "Equal totals at the end: extra hands until the tie breaks.",
            ],
        ),
    ],
)
def test_describe_ruleset_states_the_rules(preset, overrides, language, sentences):
    from scoring.rules import ruleset_from

    with translation.override(language):
        words = describe_ruleset(ruleset_from(preset, overrides))
    for sentence in sentences:
        assert sentence in words
    if not ruleset_from(preset, overrides).roefel:
        assert not any("roefel" in w for w in words)


# --- The model's invariant, through the admin -------------------------------------------


def admin_data(form, formsets, **changes):
    data = {}
    rows = [row for formset in formsets for row in (formset.management_form, *formset.forms)]
    for part in [form, *rows]:
        for field in part:
            value = field.value()
            if value is None or value is False:
                continue
            data[field.html_name] = "on" if value is True else value
    data.update(changes)
    return data


def admin_change_errors(client, change, **changes):
    """Post the admin change form at ``change`` as a superuser, as shown with
    ``changes``: the form's errors, or None when the admin saved it."""
    admin = get_user_model().objects.get_or_create(
        username="beheer", defaults={"is_staff": True, "is_superuser": True}
    )[0]
    client.force_login(admin)
    page = client.get(change)
    formsets = [inline.formset for inline in page.context["inline_admin_formsets"]]
    response = client.post(change, admin_data(page.context["adminform"].form, formsets, **changes))
    if response.status_code == 302:
        return None
    assert response.status_code == 200
    return response.context["adminform"].form.errors


def test_the_admin_refuses_a_broken_rule_set_and_saves_nothing(client, club):
    admin = get_user_model().objects.create_superuser("beheer", password="pw")
    client.force_login(admin)
    season = factories.competition(club, ruleset_overrides={"pit_bonus": 50})
    change = reverse("admin:tournaments_competition_change", args=[season.pk])
    page = client.get(change)
    formsets = [inline.formset for inline in page.context["inline_admin_formsets"]]
    bad = json.dumps({"game_end": "target", "target_score": 0})
    response = client.post(
        change, admin_data(page.context["adminform"].form, formsets, ruleset_overrides=bad)
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["ruleset_overrides"]
    assert errors == [
        "Eindscore: Een partij tot een eindscore heeft een eindscore van minstens 1 punt nodig."
    ]
    season.refresh_from_db()
    assert season.ruleset_overrides == {"pit_bonus": 50}
    # A good change is saved, as the core gives it: only what differs from the preset.
    good = json.dumps({"hands_per_game": 12, "pit_bonus": 100})
    response = client.post(
        change, admin_data(page.context["adminform"].form, formsets, ruleset_overrides=good)
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.ruleset_overrides == {"hands_per_game": 12}


@pytest.mark.parametrize(
    "tie_breaks, message",
    [
        (["marsen", "marsen"], "Elke beslissingsregel maar één keer."),
        (["marsen", "luck"], "Onbekende beslissingsregel."),
        ("marsen", "Onbekende beslissingsregel."),
    ],
)
def test_the_admin_refuses_a_bad_tie_break_order_and_saves_nothing(
    client, club, tie_breaks, message
):
    season = factories.competition(club, tie_breaks=["fewer_nat"])
    change = reverse("admin:tournaments_competition_change", args=[season.pk])
    errors = admin_change_errors(client, change, tie_breaks=json.dumps(tie_breaks))
    assert errors["tie_breaks"] == [message]
    season.refresh_from_db()
    assert season.tie_breaks == ["fewer_nat"]
    good = json.dumps(["head_to_head", "marsen"])
    assert admin_change_errors(client, change, tie_breaks=good) is None
    season.refresh_from_db()
    assert season.tie_breaks == ["head_to_head", "marsen"]


def test_unknown_fields_and_bad_values_are_refused_by_the_model(club):
    from django.core.exceptions import ValidationError

    for overrides, fragment in [
        ({"colour": "red"}, "“colour” is geen onderdeel van de spelregels."),
        ({"play_rule": "utrecht"}, "Speelregel: Kies een van de mogelijkheden."),
        ({"hands_per_game": 65}, "tussen 1 en 64"),
        ([1, 2], "onderdelen met hun waarde"),
    ]:
        competition = Competition(
            club=club,
            name="X",
            start_date="2027-01-01",
            end_date="2027-02-01",
            ruleset_overrides=overrides,
        )
        with pytest.raises(ValidationError) as info:
            competition.full_clean()
        assert fragment in str(info.value.message_dict["ruleset_overrides"]), overrides


def test_hands_per_game_is_an_override_like_any_other(club):
    competition = factories.competition(club, ruleset_preset="single-deal", hands_per_game=4)
    assert competition.hands_per_game == 4
    assert competition.ruleset() == get_ruleset("single-deal").replace(hands_per_game=4)
    competition.hands_per_game = 1
    competition.full_clean()
    assert competition.ruleset_overrides == {}
