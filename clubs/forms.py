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


class ClubCreateForm(forms.ModelForm):
    """A new club: its name, the short name in its links, and its rule set."""

    class Meta:
        model = Club
        fields = ["name", "slug", "ruleset_preset"]
        help_texts = {
            "slug": _("Follows the name; change it if you like. Letters, digits and hyphens."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False

    def clean_slug(self):
        from django.utils.text import slugify

        slug = self.cleaned_data.get("slug") or slugify(self.data.get("name", ""))[:60]
        if not slug:
            raise forms.ValidationError(_("Give the club a short name for its links."))
        if Club.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("Another club already uses this short name."))
        return slug


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=ClubRole.Role.choices)
    member = forms.ModelChoiceField(
        label=_("Player"),
        queryset=Member.objects.none(),
        required=False,
        help_text=_("For a member: the player who gets this account sees their own results."),
    )
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Optional: the site sends the link there when it can send e-mail."),
    )

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = Member.objects.filter(club=club, user__isnull=True)


class ClubDeleteForm(forms.Form):
    confirm_name = forms.CharField(
        label=_("Type the club's name to confirm"), max_length=120, strip=True
    )


class MemberForgetForm(forms.Form):
    name = forms.CharField(
        label=_("Name to show in the results instead"),
        max_length=120,
        required=False,
        help_text=_("Leave empty for “former member” and the record's number."),
    )
