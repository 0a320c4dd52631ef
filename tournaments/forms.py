from django import forms
from django.utils.translation import gettext_lazy as _

from common.text import MEMBER_NAME_MAX, validate_member_name

from .models import Competition, Evening


class DateInput(forms.DateInput):
    input_type = "date"


class CompetitionForm(forms.ModelForm):
    tie_breaks = forms.MultipleChoiceField(
        label=_("Tie-breaks"),
        choices=Competition.TieBreak.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("In the order shown; players still equal share the rank."),
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
            "hands_per_game",
            "rounds_per_evening",
            "odd_players",
            "sitout_score",
            "absence_policy",
            "absence_score",
            "ranking_basis",
            "best_of",
            "min_attendance",
            "tie_breaks",
        ]
        widgets = {"start_date": DateInput(), "end_date": DateInput()}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A league's competition is made with its league, not here.
        self.fields["format"].choices = [
            choice
            for choice in self.fields["format"].choices
            if choice[0] != Competition.Format.LEAGUE
        ]

    def clean_tie_breaks(self):
        chosen = set(self.cleaned_data["tie_breaks"])
        return [value for value in Competition.TieBreak.values if value in chosen]


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
