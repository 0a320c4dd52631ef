from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from common.rulesets import (
    BOOLEAN_FIELDS,
    CHOICES,
    HELP,
    LABELS,
    MAX_HANDS_PER_GAME,
    RULE_FIELDS,
    RulesetPreset,
    describe_ruleset,
    ruleset_message,
)
from scoring.rules import RULESETS, InvalidRuleset, ruleset_from

from .models import SLUG_TAKEN, Club, ClubRole, Member


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


class RulesetFieldsMixin:
    """A model form's rule set: its ``ruleset_preset`` and every field of the rule set.

    For the club's default rule set and a competition's own. The preset's values are
    the fields' defaults; the director changes only what the club plays
    differently, and that is stored as ``ruleset_overrides``. ``ruleset_base``
    (hidden) is the preset the fields were shown with: a field still at that
    preset's value follows the chosen preset, so choosing another preset without
    JavaScript gives that preset's rules (static/js/ruleset-form.js does the same
    in the page). A combination the scoring core refuses is refused on its field.
    The form calls :meth:`add_ruleset_fields` in its ``__init__``.
    """

    def add_ruleset_fields(self, *, shown=None, locked=False):
        """``shown``: the rule set the fields start from when the instance is new;
        ``locked``: the rule set can no longer change."""
        if self.instance.pk:
            shown = self.instance.ruleset()
        shown = shown or RULESETS[self.fields["ruleset_preset"].initial or "rotterdam"]
        self.fields["ruleset_base"] = forms.ChoiceField(
            choices=RulesetPreset.choices,
            required=False,
            widget=forms.HiddenInput,
            initial=shown.name,
            disabled=locked,
        )
        self.fields["ruleset_preset"].initial = shown.name
        self.fields["ruleset_preset"].disabled = locked
        self.fields["ruleset_preset"].label = _("Start from")
        self.shown_ruleset = shown
        values = shown.to_dict()
        for name in RULE_FIELDS:
            self.fields[name] = _rule_field(name)
            self.fields[name].initial = values[name]
            self.fields[name].disabled = locked

    @staticmethod
    def ruleset_field_names():
        """The hidden base and the rule-set fields, for ``order_fields`` after the preset."""
        return ["ruleset_base", *RULE_FIELDS]

    def rule_fields(self):
        """The bound fields of the rule set, for the template to group them."""
        return [self[name] for name in ("ruleset_preset", *RULE_FIELDS)]

    def other_fields(self):
        """The bound visible fields that are not the rule set."""
        rules = {"ruleset_preset", *RULE_FIELDS}
        return [field for field in self.visible_fields() if field.name not in rules]

    def ruleset_words(self):
        """The rule set in plain words: the one entered when the core accepts it,
        else the one the fields started from."""
        try:
            ruleset = ruleset_from(
                self.cleaned_data["ruleset_preset"], self.cleaned_data["ruleset_overrides"]
            )
        except (AttributeError, KeyError, InvalidRuleset):
            ruleset = self.shown_ruleset
        return describe_ruleset(ruleset)

    def presets_json(self):
        """Every preset's values of the rule-set fields, for static/js/ruleset-form.js."""
        return {
            name: {
                field: value for field, value in ruleset.to_dict().items() if field in RULE_FIELDS
            }
            for name, ruleset in RULESETS.items()
        }

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
        return data

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


class ClubForm(RulesetFieldsMixin, forms.ModelForm):
    """The club's settings, with its default rule set for new competitions."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_ruleset_fields()
        self.fields["ruleset_preset"].help_text = _(
            "The default for new competitions; each competition may tune it."
        )
        self.fields["confirm_with_pin"].help_text = _(
            "Without a PIN anyone holding the table's phone can confirm in the name of a"
            " player of the other team; with a PIN only that player can, so a team cannot"
            " confirm its own score."
        )

    class Meta:
        model = Club
        fields = [
            "name",
            "town",
            "ruleset_preset",
            "results_public",
            "confirm_with_pin",
            "sheet_marks",
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
        if self.instance.pk is None and not self.is_bound:
            # A new member (also the next one after "save and add next"): start typing.
            self.fields["name"].widget.attrs["autofocus"] = True

    def clean_membership_number(self):
        """The club's numbers are unique (``member_number_unique_per_club``); said at
        the field here, where the constraint alone would say it above the form."""
        number = self.cleaned_data["membership_number"]
        taken = Member.objects.filter(club=self.instance.club, membership_number=number)
        if number and taken.exclude(pk=self.instance.pk).exists():
            constraint = next(
                c for c in Member._meta.constraints if c.name == "member_number_unique_per_club"
            )
            raise forms.ValidationError(constraint.violation_error_message, code="unique")
        return number


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


#: The id of the list of what each role may do (``clubs.permissions.role_sentences``).
ROLE_SENTENCES_ID = "role-sentences"


def _role_field(label):
    """A choice of role: its help points at the list of what each role may do."""
    return forms.ChoiceField(
        label=label,
        choices=ClubRole.Role.choices,
        help_text=_("What each role may do is listed under “What each role may do”."),
    )


def _describe_roles(form, name="role"):
    """Tie the role choice to its own help and to the list of role sentences."""
    field = form.fields[name]
    field.widget.attrs["aria-describedby"] = f"{form[name].auto_id}_helptext {ROLE_SENTENCES_ID}"


class RoleGrantForm(forms.Form):
    """Change the role of one of the club's people: only accounts that hold a role here.

    A new person is invited (:class:`InvitationForm`); an account is never picked by
    its username, so no club reaches an account that is not already its own.
    """

    user = forms.ModelChoiceField(label=_("Person"), queryset=get_user_model().objects.none())
    role = _role_field(_("New role"))

    def __init__(self, *args, club, **kwargs):
        # Its own ids: the roles page shows the invitation form beside it.
        kwargs.setdefault("auto_id", "id_grant_%s")
        super().__init__(*args, **kwargs)
        _describe_roles(self)
        self.fields["user"].queryset = (
            get_user_model().objects.filter(club_roles__club=club).order_by("username")
        )
        self.fields["user"].label_from_instance = lambda user: user.get_username()


class ClubCreateForm(forms.ModelForm):
    """A new club: its name, the short name in its links, and its rule set."""

    class Meta:
        model = Club
        fields = ["name", "slug", "ruleset_preset"]
        # Taken between this form's own check and the model's (a club started at once).
        error_messages = {"slug": {"unique": SLUG_TAKEN}}
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
            raise forms.ValidationError(SLUG_TAKEN)
        return slug


class InvitationForm(forms.Form):
    role = _role_field(_("Role"))
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
        # Its own ids: the roles page shows the change-a-role form beside it.
        kwargs.setdefault("auto_id", "id_invite_%s")
        super().__init__(*args, **kwargs)
        _describe_roles(self)
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
    confirm_name = forms.CharField(
        label=_("Type the member's name to confirm"),
        max_length=200,
        strip=True,
        error_messages={
            "required": _("Type the member's name to confirm; nothing was erased without it.")
        },
    )

    def __init__(self, *args, member, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["confirm_name"].help_text = _(
            "Exactly as it is written: %(name)s. Erasing cannot be undone."
        ) % {"name": member.name}


class AccountEmailForm(forms.Form):
    """One's own e-mail address on the account page, with the password again."""

    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        max_length=254,
        help_text=_(
            "Where “Forgot your password?” sends a new-password link. Leave empty to "
            "remove it; no other account may have the same address."
        ),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("To be sure it is you."),
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "id_email_%s")  # beside the delete form's password
        super().__init__(*args, **kwargs)


class InvitationAcceptForm(forms.Form):
    """Accepting as the logged-in account: nothing to fill in. The invitation's address
    is never offered to an existing account (see ``services.invitation_accept``)."""


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("To be sure it is you."),
    )
