from django import forms
from django.utils.translation import gettext_lazy as _

from common.forms import DateInput
from common.text import MEMBER_NAME_MAX, validate_member_name
from scoring.rules import RULESETS, InvalidRuleset, ruleset_from

from .models import Competition, Evening
from .rulesets import (
    BOOLEAN_FIELDS,
    CHOICES,
    HELP,
    LABELS,
    MAX_HANDS_PER_GAME,
    RULE_FIELDS,
    ruleset_message,
)

#: The numbers of each side ranking's definition: the form's, not the model's fields.
SIDE_FIELDS = tuple(
    f"{kind}_{name}"
    for kind in Competition.SideRanking.values
    for name in ("best_of", "min_attendance")
)


def _rule_field(name):
    """The form field of one rule-set field: a choice, a number or yes/no."""
    options = {"label": LABELS[name], "help_text": HELP.get(name, ""), "required": False}
    if name in CHOICES:
        return forms.ChoiceField(choices=CHOICES[name], **options)
    if name in BOOLEAN_FIELDS:
        return forms.BooleanField(**options)
    if name == "hands_per_game":
        return forms.IntegerField(min_value=1, max_value=MAX_HANDS_PER_GAME, **options)
    return forms.IntegerField(min_value=0, **options)


class CompetitionForm(forms.ModelForm):
    """A competition's settings and its rule set: a preset and every field of it.

    The preset's values are the fields' defaults; a director changes only what the
    club plays differently, and that is stored as the overrides. ``ruleset_base``
    (hidden) is the preset the fields were shown with: a field still at that
    preset's value follows the chosen preset, so choosing another preset without
    JavaScript gives that preset's rules (static/js/ruleset-form.js does the same
    in the page). A combination the scoring core refuses is refused on its field.
    """

    tie_breaks = forms.MultipleChoiceField(
        label=_("Tie-breaks"),
        choices=Competition.TieBreak.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("In the order shown; players still equal share the rank."),
    )
    side_rankings = forms.MultipleChoiceField(
        label=_("Other rankings"),
        choices=Competition.SideRanking.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Shown beside the main standings, each ranked on its own."),
    )
    # Each side ranking's own definition (its basis follows from its kind); the
    # numbers of a ranking not ticked are not kept.
    points_best_of = forms.IntegerField(
        label=_("Puntenkampioen: best evenings counted"),
        min_value=1,
        required=False,
        help_text=_("Count only a player's best N evenings; empty counts all."),
    )
    points_min_attendance = forms.IntegerField(
        label=_("Puntenkampioen: minimum attendance"),
        min_value=0,
        required=False,
        help_text=_("Evenings a player must have played to be ranked."),
    )
    marsen_best_of = forms.IntegerField(
        label=_("Most marsen: best evenings counted"),
        min_value=1,
        required=False,
        help_text=_("Count only a player's best N evenings; empty counts all."),
    )
    marsen_min_attendance = forms.IntegerField(
        label=_("Most marsen: minimum attendance"),
        min_value=0,
        required=False,
        help_text=_("Evenings a player must have played to be ranked."),
    )
    ruleset_base = forms.ChoiceField(
        choices=Competition._meta.get_field("ruleset_preset").choices,
        required=False,
        widget=forms.HiddenInput,
    )

    class Meta:
        model = Competition
        fields = [
            "name",
            "format",
            "kind",
            "start_date",
            "end_date",
            "ruleset_preset",
            "rounds_per_evening",
            "odd_players",
            "movement",
            "substitute_strikes_lowest",
            "sitout_score",
            "sitout_mars",
            "late_score",
            "absence_policy",
            "absence_score",
            "absence_unit",
            "prize_rule",
            "prize_places",
            "ranking_basis",
            "best_of",
            "min_attendance",
            "tie_breaks",
            "side_rankings",
        ]
        widgets = {"start_date": DateInput(), "end_date": DateInput()}

    def __init__(self, *args, shown=None, locked=False, **kwargs):
        """``shown``: the rule set the fields start from on a new competition (the
        club's); an existing one shows its own. ``locked``: the rule set can no
        longer change (a hand was played)."""
        super().__init__(*args, **kwargs)
        # A league's competition is made with its league, not here.
        self.fields["format"].choices = [
            choice
            for choice in self.fields["format"].choices
            if choice[0] != Competition.Format.LEAGUE
        ]
        if self.instance.pk:
            shown = self.instance.ruleset()
        shown = shown or RULESETS[self.fields["ruleset_preset"].initial or "rotterdam"]
        self.fields["ruleset_preset"].initial = self.fields["ruleset_base"].initial = shown.name
        self.shown_ruleset = shown
        self.fields["ruleset_base"].disabled = locked
        values = shown.to_dict()
        for name in RULE_FIELDS:
            self.fields[name] = _rule_field(name)
            self.fields[name].initial = values[name]
            # The rule set is fixed once a hand is played (the service says so too).
            self.fields[name].disabled = locked
        self.fields["ruleset_preset"].disabled = locked
        # Individual competitions have no pairs to move: a form without it keeps the default.
        self.fields["movement"].required = False
        # Settings added later: a form posted without them keeps what the competition has.
        self.fields["absence_unit"].required = False
        self.fields["prize_rule"].required = False
        self.fields["ruleset_preset"].label = _("Start from")
        sides = self.instance.side_ranking_definitions()
        self.initial["side_rankings"] = [str(side.kind) for side in sides]
        for side in sides:
            self.initial[f"{side.kind}_best_of"] = side.best_of
            self.initial[f"{side.kind}_min_attendance"] = side.min_attendance
        self.order_fields([*self.Meta.fields[:6], "ruleset_base", *RULE_FIELDS])

    def rule_fields(self):
        """The bound fields of the rule set, for the template to group them."""
        return [self[name] for name in ("ruleset_preset", *RULE_FIELDS)]

    def other_fields(self):
        """The bound visible fields that are not the rule set."""
        rules = {"ruleset_preset", *RULE_FIELDS}
        return [field for field in self.visible_fields() if field.name not in rules]

    def presets_json(self):
        """Every preset's values of the rule-set fields, for static/js/ruleset-form.js."""
        return {
            name: {
                field: value for field, value in ruleset.to_dict().items() if field in RULE_FIELDS
            }
            for name, ruleset in RULESETS.items()
        }

    def _kept(self, name):
        return self.cleaned_data[name] or getattr(
            self.instance, name, Competition._meta.get_field(name).default
        )

    def clean_absence_unit(self):
        return self._kept("absence_unit")

    def clean_prize_rule(self):
        return self._kept("prize_rule")

    def clean_movement(self):
        return self.cleaned_data["movement"] or (
            self.instance.movement if self.instance.pk else Competition.Movement.ROUND_ROBIN
        )

    def clean_tie_breaks(self):
        chosen = set(self.cleaned_data["tie_breaks"])
        return [value for value in Competition.TieBreak.values if value in chosen]

    def clean(self):
        data = super().clean()
        preset = data.get("ruleset_preset")
        if preset and all(name in data for name in RULE_FIELDS):
            try:
                ruleset = ruleset_from(preset, self._chosen_values(data))
            except InvalidRuleset as exc:
                self.add_error(
                    exc.field if exc.field in RULE_FIELDS else None, ruleset_message(exc)
                )
            else:
                data["ruleset_overrides"] = ruleset.overrides()
                self.instance.ruleset_overrides = data["ruleset_overrides"]
        for name in (*RULE_FIELDS, "ruleset_base"):
            data.pop(name, None)
        if "side_rankings" in data:
            data["side_rankings"] = self._side_rankings(data)
        for name in SIDE_FIELDS:
            data.pop(name, None)
        return data

    def _side_rankings(self, data):
        """The ticked side rankings as the model stores them, each with its best N
        and minimum. A number not sent at all (a request that did not come from
        this form) keeps what the competition has."""
        kept = {str(side.kind): side for side in self.instance.side_ranking_definitions()}
        chosen = []
        for kind in Competition.SideRanking.values:
            if kind not in data["side_rankings"]:
                continue
            definition = {"kind": kind}
            for name, default in (("best_of", None), ("min_attendance", 0)):
                field = f"{kind}_{name}"
                if self.add_prefix(field) in self.data:
                    value = data.get(field)
                else:
                    value = getattr(kept[kind], name) if kind in kept else None
                definition[name] = default if value is None else value
            chosen.append(definition)
        return chosen

    def _chosen_values(self, data):
        """The rule-set fields as chosen. A field follows the chosen preset when it
        is still at the value of the preset the form was shown with
        (``ruleset_base``), or left empty, or not sent at all (a request that did
        not come from this form: no ``ruleset_base``, no tick boxes)."""
        from_form = bool(data.get("ruleset_base"))
        base = RULESETS[data.get("ruleset_base") or data["ruleset_preset"]].to_dict()
        preset = RULESETS[data["ruleset_preset"]].to_dict()
        chosen = {}
        for name in RULE_FIELDS:
            value = data[name]
            empty = value in (None, "") if name not in BOOLEAN_FIELDS else not from_form
            chosen[name] = preset[name] if empty or value == base[name] else value
        return chosen


class EveningForm(forms.ModelForm):
    class Meta:
        model = Evening
        fields = ["date", "counts_for_ranking", "note"]
        widgets = {"date": DateInput()}


class GuestForm(forms.Form):
    name = forms.CharField(
        label=_("Guest's name"), max_length=MEMBER_NAME_MAX, validators=[validate_member_name]
    )


class SwapForm(forms.Form):
    first = forms.IntegerField(widget=forms.HiddenInput)
    second = forms.IntegerField(label=_("Swap with"))


class PairForm(forms.Form):
    first = forms.ModelChoiceField(label=_("Player"), queryset=None)
    second = forms.ModelChoiceField(label=_("Partner"), queryset=None)

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        members = club.members.filter(is_active=True).order_by("name")
        self.fields["first"].queryset = members
        self.fields["second"].queryset = members


class PeriodForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    start_date = forms.DateField(label=_("First day"), widget=DateInput)
    end_date = forms.DateField(label=_("Last day"), widget=DateInput)
