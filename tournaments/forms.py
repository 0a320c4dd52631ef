from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.forms import RulesetFieldsMixin
from common.forms import DateInput
from common.text import MEMBER_NAME_MAX, validate_member_name

from .models import Competition, Evening
from .services import COMPETITION_FIELDS

#: The numbers of each side ranking's definition, each with its kind: the form's,
#: not the model's fields.
SIDE_FIELDS = {
    f"{kind}_{name}": kind
    for kind in Competition.SideRanking.values
    for name in ("best_of", "min_attendance")
}


def _best_of_field(label):
    return forms.IntegerField(
        label=label,
        min_value=1,
        required=False,
        help_text=_("Count only a player's best N evenings; empty counts all."),
    )


def _minimum_field(label):
    return forms.IntegerField(
        label=label,
        min_value=0,
        required=False,
        help_text=_("Evenings a player must have played to be ranked."),
    )


class CompetitionForm(RulesetFieldsMixin, forms.ModelForm):
    """A competition's settings and its rule set (:class:`clubs.forms.RulesetFieldsMixin`)."""

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
    points_best_of = _best_of_field(_("Puntenkampioen: best evenings counted"))
    points_min_attendance = _minimum_field(_("Puntenkampioen: minimum attendance"))
    marsen_best_of = _best_of_field(_("Most marsen: best evenings counted"))
    marsen_min_attendance = _minimum_field(_("Most marsen: minimum attendance"))

    class Meta:
        model = Competition
        # The settings the service takes; the rule set's own fields
        # (RulesetFieldsMixin) stand in for the overrides and the game's length.
        fields = [
            name
            for name in COMPETITION_FIELDS
            if name not in ("ruleset_overrides", "hands_per_game")
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
        # The rule set is fixed once a hand is played (the service says so too).
        self.add_ruleset_fields(shown=shown, locked=locked)
        # Individual competitions have no pairs to move: a form without it keeps the default.
        self.fields["movement"].required = False
        # Settings added later: a form posted without them keeps what the competition has.
        self.fields["absence_unit"].required = False
        self.fields["prize_rule"].required = False
        self.fields["left_over"].required = False
        self.fields["leaving_policy"].required = False
        self.fields["average_unit"].required = False
        sides = self.instance.side_ranking_definitions()
        self.initial["side_rankings"] = [str(side.kind) for side in sides]
        for side in sides:
            self.initial[f"{side.kind}_best_of"] = side.best_of
            self.initial[f"{side.kind}_min_attendance"] = side.min_attendance
        # The template marks each number's wrapper with its kind, so that
        # static/js/side-rankings.js shows it only while that kind is ticked.
        for name, kind in SIDE_FIELDS.items():
            self.fields[name].side_ranking = kind
        self.order_fields([*self.Meta.fields[:6], *self.ruleset_field_names()])

    def _kept(self, name):
        return self.cleaned_data[name] or getattr(
            self.instance, name, Competition._meta.get_field(name).default
        )

    def clean_absence_unit(self):
        return self._kept("absence_unit")

    def clean_prize_rule(self):
        return self._kept("prize_rule")

    def clean_left_over(self):
        return self._kept("left_over")

    def clean_leaving_policy(self):
        return self._kept("leaving_policy")

    def clean_average_unit(self):
        return self._kept("average_unit")

    def clean_movement(self):
        return self.cleaned_data["movement"] or (
            self.instance.movement if self.instance.pk else Competition.Movement.ROUND_ROBIN
        )

    def clean_tie_breaks(self):
        chosen = set(self.cleaned_data["tie_breaks"])
        return [value for value in Competition.TieBreak.values if value in chosen]

    def clean(self):
        data = super().clean()
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


class EveningForm(forms.ModelForm):
    class Meta:
        model = Evening
        fields = ["date", "counts_for_ranking", "note"]
        widgets = {"date": DateInput()}


class GuestForm(forms.Form):
    name = forms.CharField(
        label=_("Guest's name"), max_length=MEMBER_NAME_MAX, validators=[validate_member_name]
    )


class DeleteForm(forms.Form):
    """The confirmation of deleting an evening or a competition: with confirmed
    results the wedstrijdleider types ``expected`` (the date or the name); the
    service compares it."""

    typed = forms.CharField(required=False, max_length=200, strip=True)

    def __init__(self, *args, expected, needs_typing, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["typed"]
        if needs_typing:
            field.label = _("Type %(expected)s to confirm") % {"expected": expected}
            field.widget.attrs.update(autocomplete="off", spellcheck="false")
        else:
            field.widget = forms.HiddenInput()


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
