"""Forms of the league pages: they parse input; the services decide."""

import datetime

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member
from common.forms import DateInput
from common.rulesets import RulesetPreset

from . import selectors
from .models import Division, League, TeamPlayer
from .services import LEAGUE_FIELDS

TIE_BREAK_SLOTS = len(League.TieBreak.choices)


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    season = forms.CharField(
        label=_("Season"), max_length=20, help_text=_("For example 2026-2027.")
    )
    start_date = forms.DateField(label=_("First day"), widget=DateInput)
    end_date = forms.DateField(label=_("Last day"), widget=DateInput)
    ruleset_preset = forms.ChoiceField(label=_("Rule set"), choices=RulesetPreset.choices)
    hands_per_game = forms.IntegerField(label=_("Hands per game"), min_value=1, max_value=64)
    tables_per_match = forms.IntegerField(
        label=_("Tables per match"),
        min_value=2,
        max_value=8,
        help_text=_("Each team brings one pair per table."),
    )
    games_per_table = forms.IntegerField(label=_("Games per table"), min_value=1, max_value=4)
    win_by = forms.ChoiceField(label=_("A match is won by"), choices=League.WinBy.choices)
    points_rule = forms.ChoiceField(label=_("Match points"), choices=League.PointsRule.choices)
    points_win = forms.IntegerField(label=_("Points for a win"), min_value=0, max_value=100)
    points_draw = forms.IntegerField(label=_("Points for a draw"), min_value=0, max_value=100)
    points_loss = forms.IntegerField(label=_("Points for a loss"), min_value=0, max_value=100)
    points_shared = forms.IntegerField(
        label=_("Points shared per match"),
        min_value=1,
        max_value=1000,
        help_text=_("With proportional match points."),
    )
    is_public = forms.BooleanField(label=_("Public"), required=False)

    def __init__(self, *args, league=None, **kwargs):
        if league is not None and "initial" not in kwargs:
            competition = league.competition
            initial = {name: getattr(league, name) for name in self.league_fields()}
            initial.update(
                start_date=competition.start_date,
                end_date=competition.end_date,
                ruleset_preset=competition.ruleset_preset,
                hands_per_game=competition.hands_per_game,
            )
            for index, value in enumerate(league.tie_breaks, 1):
                initial[f"tie_break_{index}"] = value
            kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        choices = [("", "---------"), *League.TieBreak.choices]
        for index in range(1, TIE_BREAK_SLOTS + 1):
            self.fields[f"tie_break_{index}"] = forms.ChoiceField(
                label=_("Tie-break %(number)s") % {"number": index},
                choices=choices,
                required=False,
            )
        if league is None:
            self.fields["divisions"] = forms.IntegerField(
                label=_("Divisions"), min_value=1, max_value=12, initial=1
            )

    @staticmethod
    def league_fields():
        """The service's league settings that are a field of this form each (the
        tie-breaks come from their slots)."""
        return [name for name in LEAGUE_FIELDS if name != "tie_breaks"]

    def clean(self):
        data = super().clean()
        order = [
            data.get(f"tie_break_{index}")
            for index in range(1, TIE_BREAK_SLOTS + 1)
            if data.get(f"tie_break_{index}")
        ]
        if len(set(order)) != len(order):
            raise forms.ValidationError(_("Each tie-break once."))
        data["tie_breaks"] = order
        return data

    def service_fields(self):
        data = self.cleaned_data
        fields = {name: data[name] for name in self.league_fields()}
        fields.update(
            tie_breaks=data["tie_breaks"],
            start_date=data["start_date"],
            end_date=data["end_date"],
            ruleset_preset=data["ruleset_preset"],
            hands_per_game=data["hands_per_game"],
        )
        if "divisions" in data:
            fields["divisions"] = data["divisions"]
        return fields


class DivisionForm(forms.ModelForm):
    class Meta:
        model = Division
        fields = ["name", "level", "promote", "relegate"]


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=Club.objects.none(),
        help_text=_(
            "The clubs you direct. Another club's team is enrolled by that club's "
            "director, named as an organiser of the league."
        ),
    )
    division = forms.ModelChoiceField(label=_("Division"), queryset=Division.objects.none())

    def __init__(self, *args, league, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = selectors.enrolable_clubs(user=user)
        self.fields["division"].queryset = league.divisions.order_by("level")


class PlayerForm(forms.Form):
    member = forms.ModelChoiceField(label=_("Player"), queryset=Member.objects.none())

    def __init__(self, *args, team, **kwargs):
        super().__init__(*args, **kwargs)
        taken = TeamPlayer.objects.filter(league_id=team.league_id).values("member_id")
        self.fields["member"].queryset = (
            Member.objects.filter(club=team.club, is_active=True)
            .exclude(pk__in=taken)
            .order_by("name")
        )


class CaptainForm(forms.Form):
    user = forms.ModelChoiceField(label=_("Captain"), queryset=None)

    def __init__(self, *args, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["user"].queryset = candidates


class ScheduleForm(forms.Form):
    start_date = forms.DateField(label=_("First matchday"), widget=DateInput)
    interval_days = forms.IntegerField(
        label=_("Days between matchdays"), min_value=7, max_value=60, initial=7
    )
    skip = forms.CharField(
        label=_("Dates without matches"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One date a line (YYYY-MM-DD), e.g. the Christmas holidays."),
    )

    def clean_skip(self):
        dates = []
        for text in self.cleaned_data["skip"].replace(",", "\n").split():
            try:
                dates.append(datetime.date.fromisoformat(text.strip()))
            except ValueError as exc:
                raise forms.ValidationError(
                    _("%(text)s is not a date (YYYY-MM-DD).") % {"text": text}
                ) from exc
        return tuple(dates)


class MoveForm(forms.Form):
    date = forms.DateField(label=_("New date"), widget=DateInput)


class LineupForm(forms.Form):
    """Two players per pair, pair 1 first; pair ``n`` plays at table ``n``."""

    def __init__(self, *args, team, tables, current=(), **kwargs):
        super().__init__(*args, **kwargs)
        players = Member.objects.filter(league_places__team=team).order_by("name")
        current = list(current)
        self.tables = tables
        for pair in range(1, tables + 1):
            for seat in (1, 2):
                index = 2 * pair - 2 + seat - 1
                name = f"pair_{pair}_{seat}"
                self.fields[name] = forms.ModelChoiceField(
                    label=_("Pair %(pair)s, player %(seat)s") % {"pair": pair, "seat": seat},
                    queryset=players,
                    initial=current[index] if index < len(current) else None,
                )

    def players(self):
        return [
            self.cleaned_data[f"pair_{pair}_{seat}"]
            for pair in range(1, self.tables + 1)
            for seat in (1, 2)
        ]


class ConfirmForm(forms.Form):
    side = forms.ChoiceField(
        label=_("Confirm for"),
        choices=[("home", _("home team")), ("away", _("away team"))],
        required=False,
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200)


class NextSeasonForm(forms.Form):
    season = forms.CharField(label=_("Season"), max_length=20)
    start_date = forms.DateField(label=_("First day"), widget=DateInput)
    end_date = forms.DateField(label=_("Last day"), widget=DateInput)

    def __init__(self, *args, tied_teams=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.tied = list(tied_teams)
        for team in self.tied:
            self.fields[f"lot_{team.pk}"] = forms.IntegerField(
                label=_("Order of %(team)s among the teams sharing its place") % {"team": team},
                min_value=1,
                required=False,
            )

    def lots(self):
        return {
            team.pk: self.cleaned_data[f"lot_{team.pk}"]
            for team in self.tied
            if self.cleaned_data.get(f"lot_{team.pk}") is not None
        }
