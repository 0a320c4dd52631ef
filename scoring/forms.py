"""Forms of the score-entry pages: they parse and check the shape of the input;
the rules (what a hand can be, who may do what) are the services' and the core's.

Card points: a scorer types one team's card points; the other team's are 162
minus them. Both may be typed (a cross-check): then they must add up to 162.
The messages are the ones the rules core and the database constraints use.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.forms.utils import ErrorDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.text import validate_one_line
from tournaments.models import Seat

from . import rules
from .messages import MESSAGES, hand_message, mark_legend
from .models import Adjustment, Hand, Suit, Team
from .services import HAND_INPUTS, HandInput

MAX_SHEET_ROWS = 80
CLIENT_ID_MAX = Hand._meta.get_field("client_id").max_length

POINTS_ERRORS = {
    "min_value": MESSAGES["points_range"],
    "max_value": MESSAGES["points_range"],
    "invalid": MESSAGES["not_integer"],
}
ROEM_ERRORS = {
    "min_value": MESSAGES["roem_negative"],
    "max_value": MESSAGES["roem_too_high"],
    "invalid": MESSAGES["not_integer"],
}


class Digits(forms.TextInput):
    """A number typed on a phone's digit keyboard; checked by the server, not the browser."""

    def __init__(self, attrs=None):
        base = {"inputmode": "numeric", "autocomplete": "off", "size": 4, "class": "digits"}
        super().__init__({**base, **(attrs or {})})


class FixedChoiceMixin:
    """A choice widget whose other options can be locked: with ``fixed`` set, every
    option but that value is disabled (and marked ``data-roefel-locked`` for the
    page's script, which unlocks them when the hand changes while offline)."""

    fixed = None

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        if self.fixed is not None and str(value) != self.fixed:
            option["attrs"]["disabled"] = True
            option["attrs"]["data-roefel-locked"] = ""
        return option


class FixedRadioSelect(FixedChoiceMixin, forms.RadioSelect):
    pass


class FixedSelect(FixedChoiceMixin, forms.Select):
    pass


def team_choices(names_a=None, names_b=None):
    """(value, label) for wij and zij, with the players' names when known."""
    wij, zij = gettext("wij"), gettext("zij")
    if names_a and names_b:
        return [
            (Team.A, f"{wij} · {' & '.join(names_a)}"),
            (Team.B, f"{zij} · {' & '.join(names_b)}"),
        ]
    return [(Team.A, wij), (Team.B, zij)]


def points_field(label, field=forms.IntegerField):
    return field(
        label=label,
        required=False,
        min_value=0,
        max_value=rules.HAND_TOTAL,
        error_messages=POINTS_ERRORS,
        widget=Digits(),
    )


def roem_field(label):
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        max_value=2000,
        error_messages=ROEM_ERRORS,
        widget=Digits(),
    )


def verzaakt_help(declared, ruleset=None):
    """What to enter for a hand a team reneged (verzaakt): the phone's field and
    the grid say the same, with declared roem (match-1500) or roem totals, as the
    rule set's ``verzaken_rule`` scores it."""
    rule = ruleset.verzaken_rule if ruleset is not None else rules.VerzakenRule.ALL_ROEM
    if rule is rules.VerzakenRule.PERSONAL:
        return gettext(
            "A player reneged: enter the hand as played and choose the player; that "
            "player gets -%(bonus)s personally, the partner keeps the points."
        ) % {"bonus": ruleset.verzaken_bonus}
    if rule is rules.VerzakenRule.NONE:
        return gettext("Verzaken is not punished here: enter the hand as played.")
    if rule is rules.VerzakenRule.NO_ROEM:
        return gettext(
            "A team reneged: the hand ends, the other team gets 162 + the penalty and no "
            "roem. The card points are left empty."
        )
    if declared:
        return gettext(
            "A team reneged: the hand ends, the other team gets 162 + all roem that "
            "counts + the penalty. Enter what each team declared; the card points are "
            "left empty."
        )
    return gettext(
        "A team reneged: the hand ends, the other team gets 162 + all roem of the hand "
        "+ the penalty. Enter the roem of the hand; the card points are left empty."
    )


def verzaakt_choices(blank):
    """(value, label) for "which team reneged": none, wij or zij."""
    return [
        ("", blank),
        (Team.A, gettext("wij verzaakt")),
        (Team.B, gettext("zij verzaakt")),
    ]


def declared_field(label):
    """What one team declared (match-1500), written as 50+20+stuk; the rules core reads it."""
    return forms.CharField(
        label=label,
        required=False,
        max_length=40,
        help_text=_("Runs and stuk, e.g. 50+20+stuk: run of three 20, of four 50, of five 100."),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "size": 10, "class": "declared"}
        ),
    )


class HandFieldsMixin:
    """Card points (one typed, the other derived), roem (empty is 0), pit and
    verzaken (the card points of a hand that ended in verzaken may be left empty:
    162 for the other team, 0 for the team that reneged).

    Under declared roem (match-1500) the roem is what each team declared
    (``declared_a``/``declared_b``, counted by the core); ``declared=False`` drops
    those fields, so in-trick competitions keep the form they had.
    """

    #: What a renege costs here (``rules.VerzakenRule``); set from the game's rule set.
    verzaken_rule = rules.VerzakenRule.ALL_ROEM

    def use_declared(self, declared):
        drop = ("roem_a", "roem_b") if declared else ("declared_a", "declared_b")
        for name in drop:
            self.fields.pop(name, None)

    def clean(self):
        data = super().clean()
        if any(name in self.errors for name in ("points_a", "points_b")):
            return data
        a, b = data.get("points_a"), data.get("points_b")
        pit = data.get("pit") or ""
        verzaakt = data.get("verzaakt") or ""
        if verzaakt in (Team.A, Team.B) and self.verzaken_rule.ends_hand:
            owner = rules.Team(verzaakt).other
        else:
            owner = pit or None
        points = rules.complete_points(a, b, owner=owner)
        if points is None:
            self.add_error("points_a", gettext("Enter the card points of one team."))
            return data
        data["points_a"], data["points_b"] = points
        data["roem_a"] = data.get("roem_a") or 0
        data["roem_b"] = data.get("roem_b") or 0
        data["declared_a"] = (data.get("declared_a") or "").strip()
        data["declared_b"] = (data.get("declared_b") or "").strip()
        return data

    def hand_input(self) -> HandInput:
        data = self.cleaned_data
        return HandInput(
            playing=data["playing"],
            points_a=data["points_a"],
            points_b=data["points_b"],
            roem_a=data["roem_a"],
            roem_b=data["roem_b"],
            pit=data.get("pit") or "",
            trump=data.get("trump") or "",
            declared_a=data["declared_a"],
            declared_b=data["declared_b"],
            verzaakt=data.get("verzaakt") or "",
            offender=data.get("offender") or "",
        )


class HandForm(HandFieldsMixin, forms.Form):
    """One hand at the table. ``client_id`` (made per page) makes a resend harmless;
    ``number`` and ``version`` make a stale form a conflict, never a wrong hand."""

    keeper = forms.ChoiceField(
        label=_("Who keeps score on this device?"),
        widget=forms.RadioSelect,
        help_text=_("Asked once: a player of the other team confirms at the end."),
    )
    playing = forms.ChoiceField(label=_("Played (named trump)"), widget=FixedRadioSelect)
    points_a = points_field(_("Card points wij"))
    points_b = points_field(_("Card points zij"))
    roem_a = roem_field(_("Roem wij"))
    roem_b = roem_field(_("Roem zij"))
    declared_a = declared_field(_("Declared wij"))
    declared_b = declared_field(_("Declared zij"))
    pit = forms.ChoiceField(label=_("Pit (mars)"), required=False, widget=forms.RadioSelect)
    trump = forms.ChoiceField(label=_("Trump (optional)"), required=False, widget=FixedSelect)
    verzaakt = forms.ChoiceField(
        label=_("Verzaakt (renege)"),
        required=False,
        widget=forms.RadioSelect,
    )
    offender = forms.ChoiceField(
        label=_("Who reneged"),
        required=False,
        widget=forms.RadioSelect,
        help_text=_("Only when the player who reneged gets the penalty personally."),
    )
    client_id = forms.CharField(
        required=False,
        max_length=CLIENT_ID_MAX,
        validators=[validate_one_line],
        widget=forms.HiddenInput,
    )
    number = forms.IntegerField(
        required=False, min_value=1, max_value=999, widget=forms.HiddenInput
    )
    version = forms.IntegerField(
        required=False, min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput
    )

    def __init__(
        self,
        *args,
        names_a=None,
        names_b=None,
        ask_keeper=False,
        declared=False,
        ruleset=None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.use_declared(declared)
        if ruleset is not None:
            self.verzaken_rule = ruleset.verzaken_rule
        teams = team_choices(names_a, names_b)
        self.fields["playing"].choices = teams
        if ask_keeper:
            self.fields["keeper"].choices = teams
        else:
            del self.fields["keeper"]
        self.fields["pit"].choices = [("", _("no pit")), *team_choices()]
        self.fields["trump"].choices = [("", "–"), *Suit.choices]
        self.fields["verzaakt"].choices = verzaakt_choices(gettext("no one"))
        self.fields["verzaakt"].help_text = verzaakt_help(declared, ruleset)
        if self.verzaken_rule is rules.VerzakenRule.PERSONAL:
            self.fields["offender"].choices = [("", "–"), *Seat.Position.choices]
        else:
            del self.fields["offender"]

    def fix_roefel(self, roefel):
        """Hand 1 is the roefel (``rules.Roefel``): the forehand's team plays with
        clubs; the other choices are shown but cannot be chosen."""
        self.roefel = roefel
        playing, trump = str(roefel.playing), roefel.trump.letter
        self.fields["playing"].widget.fixed = playing
        self.fields["trump"].widget.fixed = trump
        if not self.is_bound:
            self.initial.update(playing=playing, trump=trump)


class QueuedHandForm(HandForm):
    """A hand the phone kept while offline and sends as JSON: its entry id and the
    hand number the scorer saw are required (they make a resend harmless and a
    hand entered meanwhile on another device a conflict); no version, because a
    queue of hands is entered against the state before the first of them."""

    JSON_FIELDS = ("client_id", "number", "keeper", *HAND_INPUTS, "offender")

    def __init__(self, payload, **kwargs):
        data = {}
        for name in self.JSON_FIELDS:
            value = payload.get(name)
            # Numbers may come as numbers or as text; null, absent and nested values
            # are empty or invalid, as in a form.
            data[name] = "" if value is None else str(value)
        super().__init__(data, **kwargs)
        del self.fields["version"]
        self.fields["client_id"].required = True
        self.fields["number"].required = True


#: The grid names no player: where verzaken does not end the hand, the row is the
#: hand as played and a player's penalty is given on the evening's scores page.
SHEET_PLAYED_VERZAKEN = _(
    "Here verzaken does not end the hand: enter the hand as played and give the "
    "player's penalty on the evening's scores page."
)


class SheetPointsField(forms.IntegerField):
    """A card-points cell of the grid: a number, or ``nat`` (0) as the sheet writes
    a nat team's (:data:`rules.sheet.NAT`); the form checks that the team played."""

    def to_python(self, value):
        if isinstance(value, str) and value.strip().lower() == rules.sheet.NAT:
            return 0
        return super().to_python(value)


class SheetRowForm(HandFieldsMixin, forms.Form):
    """One row of a paper score sheet in the director's grid, read as the sheet
    writes it (:mod:`scoring.rules.sheet`): the roem column of a pit holds the pit
    bonus plus the roem (``162 | 100`` with pit is 262, ``162 | 120`` is 282), and
    after verzaken the other team's holds the penalty plus the roem of the hand; a
    nat team's card points may be written ``nat``. Under declared roem the row
    takes declarations only: a roem total cannot tell a run of 20 from a stuk.
    """

    playing = forms.ChoiceField(label=_("played"))
    points_a = points_field(_("points wij"), SheetPointsField)
    points_b = points_field(_("points zij"), SheetPointsField)
    roem_a = roem_field(_("roem wij"))
    roem_b = roem_field(_("roem zij"))
    declared_a = declared_field(_("declared wij"))
    declared_b = declared_field(_("declared zij"))
    #: The marks as the club's sheet writes them (``rules.sheet.read_marks``): the
    #: grid shows these; ``pit`` is still taken when they are blank (a posted team).
    mark_a = forms.CharField(label=_("mark wij"), required=False, max_length=3)
    mark_b = forms.CharField(label=_("mark zij"), required=False, max_length=3)
    pit = forms.ChoiceField(label=_("pit"), required=False)
    verzaakt = forms.ChoiceField(label=_("verzaakt"), required=False)

    #: The grid has no trump column (the roefel's clubs are filled in by the service).
    INPUTS = (*(name for name in HAND_INPUTS if name != "trump"), "mark_a", "mark_b")
    ROEM_TOTALS = ("roem_a", "roem_b")
    MARKS = ("mark_a", "mark_b")

    def __init__(self, *args, number, ruleset, style=rules.sheet.MarkStyle.PIT_TEAM, **kwargs):
        super().__init__(*args, **kwargs)
        self.number = number
        self.ruleset = ruleset
        self.style = rules.sheet.MarkStyle(style)
        for name in self.MARKS:
            self.fields[name].widget.attrs.update(size=2, autocomplete="off")
        self.verzaken_rule = ruleset.verzaken_rule
        self.declared = ruleset.roem_rule is rules.RoemRule.DECLARED
        self.use_declared(self.declared)
        # A hand stored before declarations (a total, no declarations) keeps its
        # counted roem until declarations are typed: the grid has no column for it.
        initial = self.initial or {}
        self.stored_totals = None
        if self.declared and not (initial.get("declared_a") or initial.get("declared_b")):
            totals = (initial.get("roem_a") or 0, initial.get("roem_b") or 0)
            self.stored_totals = totals if any(totals) else None
        self.fields["playing"].choices = [("", ""), *team_choices()]
        self.fields["pit"].choices = [("", ""), *team_choices()]
        self.fields["verzaakt"].choices = verzaakt_choices("")
        for name in self.INPUTS:
            if name not in self.fields:
                continue
            label = f"{gettext('hand')} {number}: {self.fields[name].label}"
            self.fields[name].widget.attrs["aria-label"] = label
            # The page explains the columns once; a row has no help text of its own
            # (its aria-describedby names only ids the grid renders: the errors).
            self.fields[name].help_text = ""

    def posted_totals(self):
        """The roem totals posted for a declared-roem row (the grid has no such column)."""
        return [
            name
            for name in self.ROEM_TOTALS
            if (self.data.get(self.add_prefix(name)) or "").strip()
        ]

    def clean(self):
        """Read the row as the sheet writes it (see the class). A stored row whose
        one side's card points were changed: the other side follows (162 minus), as
        it does while typing, also without JavaScript. Both sides changed is a
        cross-check, and must add up."""
        typed = {name: self.cleaned_data.get(name) for name in self.ROEM_TOTALS}
        self._read_marks(self.cleaned_data)  # before the hand's checks: V is a verzaken
        if self.cleaned_data.get("verzaakt") and not self.verzaken_rule.ends_hand:
            # The grid names no player: the hand is written as played, and a player's
            # penalty is given on the evening's scores page.
            self.add_error("verzaakt", SHEET_PLAYED_VERZAKEN)
        data = super().clean()
        self._check_nat(data)
        if self.declared:
            if self.posted_totals():
                self.add_error(None, MESSAGES["declared_not_totals"])
            elif self.stored_totals and not (data.get("declared_a") or data.get("declared_b")):
                data["roem_a"], data["roem_b"] = self.stored_totals
        else:
            self._read_roem(data, typed)
        a, b = data.get("points_a"), data.get("points_b")
        if not self.initial or a is None or b is None or a + b == rules.HAND_TOTAL:
            return data
        was_a, was_b = self.initial.get("points_a"), self.initial.get("points_b")
        if a != was_a and b == was_b:
            data["points_b"] = rules.other_points(a)
        elif b != was_b and a == was_a:
            data["points_a"] = rules.other_points(b)
        return data

    def _check_nat(self, data):
        for name, team in (("points_a", Team.A), ("points_b", Team.B)):
            if name in self.errors:
                continue
            try:
                rules.sheet.read_points(
                    self[name].data or "", team=team, playing=data.get("playing")
                )
            except rules.InvalidHand as exc:
                self.add_error(name, hand_message(exc))

    def _read_marks(self, data):
        """Pit and verzaakt from the mark cells, as the club's sheet writes them
        (``rules.sheet.read_marks``, which also takes today's M / TP where
        unambiguous). Blank marks leave a posted ``pit`` as it is; a mark that
        says otherwise than the pit or verzaakt column is refused."""
        written = [(data.get(name) or "").strip() for name in self.MARKS]
        if not any(written) or not data.get("playing"):
            return
        try:
            pit, verzaakt = rules.sheet.read_marks(
                playing=data["playing"], marks=written, style=self.style
            )
        except rules.InvalidHand as exc:
            field = "mark_b" if (exc.params or {}).get("team") == "B" else "mark_a"
            self.add_error(field, hand_message(exc))
            return
        for name, read in (("pit", pit), ("verzaakt", verzaakt)):
            if read is None:
                continue
            if data.get(name) and data[name] != read:
                message = gettext(
                    "The marks and the verzaakt column say different things. %(legend)s"
                ) % {"legend": mark_legend(self.style)}
                self.add_error(None, message)
                return
            data[name] = str(read)

    def _read_roem(self, data, typed):
        """The roem each team holds, from its roem column (``rules.sheet.read_roem``)."""
        pit, verzaakt = data.get("pit") or None, data.get("verzaakt") or None
        for name, team in (("roem_a", Team.A), ("roem_b", Team.B)):
            if name in self.errors:
                continue
            try:
                data[name] = rules.sheet.read_roem(
                    self.ruleset, team, typed[name], pit=pit, verzaakt=verzaakt
                )
            except rules.InvalidHand as exc:
                self.add_error(name, hand_message(exc))

    def is_blank(self):
        return self.is_bound and not any(
            (self.data.get(self.add_prefix(name)) or "").strip() for name in self.INPUTS
        )

    def full_clean(self):
        if self.is_blank():
            # An empty row is no hand: nothing to check (ScoreSheet finds gaps).
            self._errors = ErrorDict()
            self.cleaned_data = {}
            return
        super().full_clean()

    @staticmethod
    def initial_from(hand, ruleset, style=rules.sheet.MarkStyle.PIT_TEAM):
        """The row as the sheet writes the stored hand (``rules.sheet.write_roem``):
        a pit's roem column with the pit bonus, the other team's after verzaken
        with the penalty. Roem counted from declarations is derived: only a hand
        without them shows a total (kept, under declared roem, without a column)."""
        totals = not hand.has_declarations

        def roem(team, value):
            if not totals:
                return ""
            written = rules.sheet.write_roem(
                ruleset, team, value, pit=hand.pit, verzaakt=hand.verzaakt
            )
            return written or ""

        return {
            "playing": hand.playing,
            "points_a": hand.points_a,
            "points_b": hand.points_b,
            "roem_a": roem(Team.A, hand.roem_a),
            "roem_b": roem(Team.B, hand.roem_b),
            "declared_a": hand.declared_a,
            "declared_b": hand.declared_b,
            # The verzaakt column shows a renege: the marks show the pit only.
            "mark_a": rules.sheet.marks(playing=hand.playing, pit=hand.pit, style=style).a,
            "mark_b": rules.sheet.marks(playing=hand.playing, pit=hand.pit, style=style).b,
            "verzaakt": hand.verzaakt,
        }


class SheetForm(forms.Form):
    """The grid's own fields: how many rows it has, the version it was made from,
    the reason for a correction and whether the signed sheet confirms the game."""

    rows = forms.IntegerField(min_value=1, max_value=MAX_SHEET_ROWS, widget=forms.HiddenInput)
    version = forms.IntegerField(min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason for the correction"),
        required=False,
        max_length=300,
        help_text=_("Needed when the game already has hands."),
        widget=forms.TextInput(attrs={"class": "wide"}),
    )
    confirm = forms.BooleanField(
        label=_("The sheet is signed by both teams: confirm the game when it is complete"),
        required=False,
    )


def _add_errors(form, exc):
    """A service's ValidationError on the form, on its fields where the form has them."""
    if hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc)


class ScoreSheet:
    """The grid: one SheetRowForm per hand, filled in order, blank rows at the end."""

    def __init__(
        self,
        data=None,
        *,
        rows,
        ruleset,
        hands=(),
        version=0,
        confirm=True,
        style=rules.sheet.MarkStyle.PIT_TEAM,
    ):
        self.declared = ruleset.roem_rule is rules.RoemRule.DECLARED
        self.style = rules.sheet.MarkStyle(style)
        self.mark_legend = mark_legend(self.style)
        self.verzaakt_help = verzaakt_help(self.declared, ruleset)
        if not ruleset.verzaken_rule.ends_hand:
            self.verzaakt_help = SHEET_PLAYED_VERZAKEN
        if not self.declared and ruleset.verzaken_rule is rules.VerzakenRule.ALL_ROEM:
            # The grid reads the roem column as the sheet writes it (rules.sheet).
            bonus = ruleset.verzaken_bonus
            self.verzaakt_help = gettext(
                "A team reneged: the hand ends, the other team gets 162 + all roem of the "
                "hand + the penalty. Write it as the score sheet does: the card points "
                "empty, and in the other team's roem column the penalty of %(bonus)s plus "
                "all roem of the hand (%(bonus)s without roem, %(example)s with 20)."
            ) % {"bonus": bonus, "example": bonus + 20}
        self.meta = SheetForm(data, initial={"rows": rows, "version": version, "confirm": confirm})
        if data is not None and self.meta.is_valid():
            rows = self.meta.cleaned_data["rows"]
        initial = [SheetRowForm.initial_from(h, ruleset, self.style) for h in hands]
        self.forms = [
            SheetRowForm(
                data,
                number=n,
                ruleset=ruleset,
                style=self.style,
                prefix=f"h{n}",
                initial=initial[n - 1] if n <= len(initial) else None,
            )
            for n in range(1, rows + 1)
        ]
        self.non_form_errors = []

    def __iter__(self):
        return iter(self.forms)

    def is_valid(self, ruleset=None):
        """Check every row, so that all mistakes show at once: the form's checks,
        then (with ``ruleset``) the rules core's for the rows that passed them."""
        valid = self.meta.is_valid()
        blanks = [form.is_blank() for form in self.forms]
        last = max((i for i, blank in enumerate(blanks) if not blank), default=-1)
        for index, form in enumerate(self.forms):
            if blanks[index]:
                if index < last:
                    form.add_error(None, gettext("This row is empty; fill the rows in order."))
                    valid = False
                continue
            if not form.is_valid():
                valid = False
            elif ruleset is not None:
                try:
                    form.hand_input().score(ruleset, number=form.number)
                except ValidationError as exc:
                    _add_errors(form, exc)
                    valid = False
        self.filled = [form for form, blank in zip(self.forms, blanks, strict=True) if not blank]
        return valid

    def hand_inputs(self):
        return [form.hand_input() for form in self.filled]

    @property
    def has_errors(self):
        return bool(self.non_form_errors or self.meta.errors) or any(
            form.errors for form in self.forms
        )


class ConfirmForm(forms.Form):
    name = forms.ChoiceField(label=_("Who confirms?"), widget=forms.RadioSelect)
    version = forms.IntegerField(
        required=False, min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput
    )

    pin = forms.CharField(
        label=_("Your PIN"),
        required=False,
        max_length=6,
        widget=forms.PasswordInput(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "off",
                "pattern": "[0-9]*",
                "aria-describedby": "id_pin-help",
            }
        ),
        help_text=_("The PIN you set for confirming games (4 to 6 digits)."),
    )

    def __init__(self, *args, names, with_pin=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].choices = [(name, name) for name in names]
        self.with_pin = with_pin
        if with_pin:
            self.fields["pin"].required = True
        else:
            del self.fields["pin"]


class VersionForm(forms.Form):
    """Undo: the version the page showed, so an undo after someone else's hand is refused."""

    version = forms.IntegerField(min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)


class AdjustmentForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Kind"),
        # An imported total comes only from a results import (a sheet of totals).
        choices=[c for c in Adjustment.Kind.choices if c[0] != Adjustment.Kind.TOTALS],
        initial=Adjustment.Kind.VERZAKEN,
    )
    target = forms.ChoiceField(label=_("For"))
    round = forms.ChoiceField(
        label=_("Round"),
        required=False,
        help_text=_("For a player's sit-out or absence score; a team's round is its game's."),
    )
    points = forms.IntegerField(
        label=_("Points"),
        min_value=-10000,
        max_value=10000,
        error_messages={
            "min_value": _("An adjustment is between -10000 and 10000 points."),
            "max_value": _("An adjustment is between -10000 and 10000 points."),
        },
        help_text=_(
            "Verzaken by a player: -100 to the player. A team's verzaken is entered as the "
            "hand on the score sheet (verzaakt), not here."
        ),
        widget=forms.NumberInput(attrs={"step": 1}),
    )
    reason = forms.CharField(label=_("Reason"), max_length=300)

    def __init__(self, *args, progress, **kwargs):
        super().__init__(*args, **kwargs)
        self.members = {f"m{m.pk}": m for m in progress.members}
        self.games, teams = {}, []
        for round_progress in progress.rounds:
            for table in round_progress.tables:
                if table.game is None:
                    continue
                for team, names in ((Team.A, table.names_a), (Team.B, table.names_b)):
                    key = f"g{table.game.pk}{team}"
                    self.games[key] = (table.game, team)
                    label = gettext("Round %(round)s, table %(table)s, %(side)s: %(names)s") % {
                        "round": round_progress.round.number,
                        "table": table.table.number,
                        "side": gettext("wij") if team == Team.A else gettext("zij"),
                        "names": " & ".join(names),
                    }
                    teams.append((key, label))
        self.fields["target"].choices = [
            ("", "–"),
            (gettext("Players"), [(key, m.name) for key, m in self.members.items()]),
            (gettext("Teams"), teams),
        ]
        self.rounds = {str(r.round.pk): r.round for r in progress.rounds}
        self.fields["round"].choices = [("", "–")] + [
            (key, str(round_)) for key, round_ in self.rounds.items()
        ]

    def service_kwargs(self):
        data = self.cleaned_data
        kwargs = {
            "kind": data["kind"],
            "points": data["points"],
            "reason": data["reason"],
            "round": self.rounds.get(data.get("round") or ""),
        }
        target = data["target"]
        if target in self.games:
            kwargs["game"], kwargs["team"] = self.games[target]
        else:
            kwargs["member"] = self.members[target]
        return kwargs
