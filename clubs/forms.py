from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from .models import Club, ClubRole, Member


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = [
            "name",
            "town",
            "ruleset_preset",
            "results_public",
            "confirm_with_pin",
            "contact_name",
            "contact_email",
        ]


class MemberForm(forms.ModelForm):
    class Meta:
        model = Member
        fields = ["name", "membership_number", "is_active", "is_guest", "email", "phone"]

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.club = club


class MemberPinForm(forms.Form):
    pin = forms.CharField(
        label=_("PIN for confirming games"),
        required=False,
        max_length=6,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "new-password"}),
        help_text=_("4 to 6 digits; leave empty to remove the PIN."),
    )


class MemberFilterForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, max_length=100)
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("", _("all")), ("active", _("active")), ("inactive", _("inactive"))],
    )
    guests = forms.ChoiceField(
        label=_("Guests"),
        required=False,
        choices=[("", _("all")), ("members", _("members only")), ("guests", _("guests only"))],
    )


class MemberMergeForm(forms.Form):
    remove = forms.ModelChoiceField(
        label=_("Merge this record into the one above"),
        queryset=Member.objects.none(),
        help_text=_("Its results move to the kept record; then it is removed."),
    )

    def __init__(self, *args, keep, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["remove"].queryset = Member.objects.filter(club=keep.club).exclude(pk=keep.pk)


class RoleGrantForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=ClubRole.Role.choices)

    def clean_username(self):
        username = self.cleaned_data["username"]
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(_("No user with this username."))
        return user
