"""Clubs, their members, and who may do what in which club.

A site serves several clubs (a federation, or one volunteer hosting a few), so
every query of club data starts from a club the user may see; see
``clubs.permissions``.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from common.choices import text_choices
from common.pagecache import new_version
from common.rulesets import RulesetPreset, clean_ruleset
from common.text import MEMBER_NAME_MAX, validate_club_slug, validate_member_name
from scoring.rules.sheet import MarkStyle

#: The demo club's slug (``manage.py demo``): the home page does not count it as a real club.
DEMO_SLUG = "de-hoge-troef"


#: How the club's score sheets mark a pit (``scoring.rules.sheet.MarkStyle``), in its words.
SheetMarks = text_choices(
    MarkStyle,
    {
        MarkStyle.PIT_TEAM: _("M / TP in the pit team's column (M: mars, TP: tegenpit)"),
        MarkStyle.MARSEN: _("I (a tally mark) in the pit team's marsen column"),
        MarkStyle.OTHER_P: _("P in the other team's column"),
        MarkStyle.OTHER_M: _("M in the other team's column"),
    },
    name="SheetMarks",
)


#: The answer to a short name another club has, wherever it is found taken: the form's
#: check, its model's uniqueness check, the unique index at the insert.
SLUG_TAKEN = _("Another club already uses this short name.")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(
        _("short name in links"),
        max_length=60,
        unique=True,
        validators=[validate_club_slug],
        help_text=_("Used in web addresses."),
    )
    town = models.CharField(_("town"), max_length=80, blank=True)
    ruleset_preset = models.CharField(
        _("rule set"),
        max_length=20,
        choices=RulesetPreset.choices,
        default=RulesetPreset.ROTTERDAM,
        help_text=_("The default for new competitions; each competition may tune it."),
    )
    ruleset_overrides = models.JSONField(
        _("rule set changes"),
        default=dict,
        blank=True,
        help_text=_("Fields of the preset this club plays differently."),
    )
    results_public = models.BooleanField(
        _("results are public"),
        default=True,
        help_text=_("Anyone may read standings and results; otherwise only people of the club."),
    )
    confirm_with_pin = models.BooleanField(
        _("confirming a game asks for a PIN"),
        default=False,
        db_default=False,
        help_text=_(
            "A player of the other team confirms with the PIN they set, not only their name."
        ),
    )
    sheet_marks = models.CharField(
        _("marks on the score sheet"),
        max_length=10,
        choices=SheetMarks.choices,
        default=SheetMarks.PIT_TEAM,
        db_default=SheetMarks.PIT_TEAM,
        help_text=_(
            "How the club writes a pit (mars) on its score sheets: the printed and "
            "filled sheets, the sheet on the phone and the director's grid use these marks."
        ),
    )
    version = models.BigIntegerField(
        _("version of its pages"),
        default=new_version,
        editable=False,
        help_text=_("New with every change its pages show: their ETags and cache keys."),
    )
    contact_name = models.CharField(_("contact person"), max_length=120, blank=True)
    contact_email = models.EmailField(_("contact e-mail"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ruleset_preset__in=RulesetPreset.values),
                name="club_ruleset_preset_known",
            ),
            models.CheckConstraint(
                condition=Q(sheet_marks__in=SheetMarks.values),
                name="club_sheet_marks_known",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("clubs:club-detail", kwargs={"club": self.slug})

    def clean(self):
        super().clean()
        clean_ruleset(self)

    def mark_style(self) -> MarkStyle:
        """How the club's score sheets mark a pit (:attr:`sheet_marks` as the core's value)."""
        return MarkStyle(self.sheet_marks)

    def ruleset(self):
        """The club's default rule set as a scoring-core value."""
        from scoring.rules import ruleset_from

        return ruleset_from(self.ruleset_preset, self.ruleset_overrides)


class MemberQuerySet(models.QuerySet):
    def active(self):
        return self.filter(is_active=True)

    def guests(self):
        return self.filter(is_guest=True)


class Member(models.Model):
    """A player as one club knows them.

    The same person in two clubs is two records; the site never merges
    identities across clubs by itself. Within a club, ``member_merge`` joins
    two records that turn out to be one person.
    """

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="members", verbose_name=_("club")
    )
    name = models.CharField(
        _("name"),
        max_length=MEMBER_NAME_MAX,
        validators=[validate_member_name],
        help_text=_("As the club writes it on the score sheets."),
    )
    membership_number = models.CharField(_("membership number"), max_length=30, blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    is_guest = models.BooleanField(
        _("guest"), default=False, help_text=_("Plays evenings and tournaments without membership.")
    )
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    pin = models.CharField(
        _("PIN (hashed)"),
        max_length=128,
        blank=True,
        default="",
        db_default="",
        editable=False,
        help_text=_("To confirm a game when the club asks for a PIN; stored hashed."),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="memberships",
        verbose_name=_("site account"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    objects = MemberQuerySet.as_manager()

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "membership_number"],
                condition=~Q(membership_number=""),
                name="member_number_unique_per_club",
                violation_error_message=_("This club already has a member with this number."),
            ),
            models.CheckConstraint(
                condition=~Q(name=""),
                name="member_name_not_empty",
                violation_error_message=_("A member needs a name."),
            ),
        ]
        indexes = [models.Index(fields=["club", "name"])]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("clubs:member-detail", kwargs={"club": self.club.slug, "pk": self.pk})

    def clean(self):
        super().clean()
        self.name = (self.name or "").strip()


class ClubRole(models.Model):
    """A site user's role in one club: one role per account per club.

    What each role may do is a table of capabilities in one place,
    ``clubs.permissions.ROLE_CAPABILITIES`` (and docs/permissions.md); the roles
    are not a ladder. The secretary keeps the member list and the club's files
    but neither runs evenings nor gives roles.
    """

    class Role(models.TextChoices):
        MEMBER = "member", _("member")
        SCORER = "scorer", _("scorer")
        DIRECTOR = "director", _("tournament director")
        SECRETARY = "secretary", _("secretary")
        ADMIN = "admin", _("club administrator")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="roles", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("club role")
        verbose_name_plural = _("club roles")
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                name="one_role_per_user_per_club",
                violation_error_message=_("This user already has a role in this club."),
            ),
            models.CheckConstraint(
                condition=Q(role__in=["member", "scorer", "director", "secretary", "admin"]),
                name="club_role_known",
            ),
        ]

    def __str__(self):
        return f"{self.user} · {self.get_role_display()} · {self.club}"

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        RoleTrace.objects.get_or_create(user_id=self.user_id, club_id=self.club_id)


class RoleTrace(models.Model):
    """That an account has held a role in a club, kept after the role (and the club) go.

    ``club_id`` is a plain number, not a link, so the trace outlives the club. An
    account that ever held a role in another club is not only this club's: no
    club may make a password link for it or close it (``clubs.permissions.account_confined_to``).
    Written by ``ClubRole.save``, whoever saves the role (a service, the admin).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="role_traces",
        verbose_name=_("user"),
    )
    club_id = models.PositiveBigIntegerField(_("club number"))
    created_at = models.DateTimeField(_("first role"), auto_now_add=True)

    class Meta:
        verbose_name = _("role trace")
        verbose_name_plural = _("role traces")
        constraints = [
            models.UniqueConstraint(fields=["user", "club_id"], name="one_role_trace_per_club"),
        ]

    def __str__(self):
        return f"{self.user} · {self.club_id}"


class ClubLog(models.Model):
    """What was done to a club's records and by whom: imports, merges, role changes,
    evenings and competitions deleted (their own logs go with them)."""

    class Action(models.TextChoices):
        MEMBER_IMPORT = "member_import", _("members imported")
        MEMBER_MERGE = "member_merge", _("members merged")
        ROLE_GRANT = "role_grant", _("role granted")
        ROLE_REVOKE = "role_revoke", _("role revoked")
        CLUB_CREATE = "club_create", _("club created")
        CLUB_UPDATE = "club_update", _("club settings saved")
        INVITATION_CREATE = "invite_create", _("invitation made")
        INVITATION_REVOKE = "invite_revoke", _("invitation withdrawn")
        INVITATION_ACCEPT = "invite_accept", _("invitation accepted")
        PASSWORD_LINK = "password_link", _("password link made")
        MEMBER_FORGET = "member_forget", _("member's personal data erased")
        EVENING_DELETE = "evening_delete", _("evening deleted")
        COMPETITION_DELETE = "competition_delete", _("competition deleted")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="log", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("by"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    summary = models.CharField(
        _("summary"),
        max_length=300,
        blank=True,
        help_text=_(
            "The line in the site's language when it was written; the line itself of "
            "entries written before the log stored its values."
        ),
    )
    params = models.JSONField(
        _("values"),
        null=True,
        blank=True,
        help_text=_(
            "The plain values the line is told with, in the reader's language (empty for "
            "entries written before)."
        ),
    )
    detail = models.JSONField(_("detail"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("club log entry")
        verbose_name_plural = _("club log")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    action__in=[
                        "member_import",
                        "member_merge",
                        "role_grant",
                        "role_revoke",
                        "club_create",
                        "club_update",
                        "invite_create",
                        "invite_revoke",
                        "invite_accept",
                        "password_link",
                        "member_forget",
                        "evening_delete",
                        "competition_delete",
                    ]
                ),
                name="clublog_action_known",
            ),
        ]

    def __str__(self):
        return self.text

    @property
    def text(self) -> str:
        """The line in the active language (:mod:`clubs.log`)."""
        from .log import line_text

        return line_text(self)


def invitation_token():
    """A fresh invitation code: 256 random bits, safe in a URL."""
    import secrets

    return secrets.token_urlsafe(32)


class InvitationQuerySet(models.QuerySet):
    def open(self, now=None):
        """Invitations that can still be used: not used, not withdrawn, not expired."""
        from django.utils import timezone

        now = now or timezone.now()
        return self.filter(used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now)


class Invitation(models.Model):
    """A one-time link that gives whoever opens it a role in a club.

    The code is a strong random value (like a table's link), shown to the
    club's administrators until it is used, so they can pass it on again by
    WhatsApp, on paper or by e-mail.
    """

    VALID_DAYS = 7

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("club")
    )
    role = models.CharField(_("role"), max_length=10, choices=ClubRole.Role.choices)
    member = models.ForeignKey(
        Member,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations",
        verbose_name=_("member record"),
        help_text=_("The player who gets this account: they see their own results."),
    )
    email = models.EmailField(_("e-mail"), blank=True)
    token = models.CharField(max_length=64, unique=True, default=invitation_token, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("made by"),
    )
    created_at = models.DateTimeField(_("made"), auto_now_add=True)
    expires_at = models.DateTimeField(_("valid until"))
    used_at = models.DateTimeField(_("used"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("used by"),
    )
    revoked_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(role__in=["member", "scorer", "director", "secretary", "admin"]),
                name="invitation_role_known",
            ),
        ]

    def __str__(self):
        return f"{self.get_role_display()} · {self.club}"

    def get_absolute_url(self):
        return reverse("invitation-accept", kwargs={"token": self.token})

    def is_open(self, now=None):
        from django.utils import timezone

        now = now or timezone.now()
        return self.used_at is None and self.revoked_at is None and self.expires_at > now


class PasswordLink(models.Model):
    """That a club made a one-time password link for an account: kept with the account.

    The account's owner sees it on their account page (by whom, in which club,
    when). It is the account's, not the club's: it stays when the club is
    deleted, so whoever made the link cannot wipe its trace with the club.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="password_links_received",
        verbose_name=_("account"),
    )
    club_name = models.CharField(_("club"), max_length=120)
    made_by = models.CharField(_("made by"), max_length=150)
    created_at = models.DateTimeField(_("made"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("password link made")
        verbose_name_plural = _("password links made")
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.user} · {self.club_name} · {self.made_by}"


class PendingUpload(models.Model):
    """A file uploaded for an import, kept in the database until its import is confirmed.

    In the database, not on one box's disk, so that the box that confirms need not be
    the one that showed the preview. Only its uploader reads it back, in its club
    (``clubs.services.pending_upload_take``); it goes when the import is done, when the
    same person uploads the next file; an hour after the upload it can no longer be
    taken, and the next upload or the daily ``manage.py cleanup`` drops it. It holds what
    the file holds (names of players), so it is kept no longer than that.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=20)
    filename = models.CharField(_("file name"), max_length=255, blank=True)
    data = models.BinaryField(_("content"))
    created_at = models.DateTimeField(_("uploaded"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("upload awaiting confirmation")
        verbose_name_plural = _("uploads awaiting confirmation")
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.club} · {self.user} · {self.filename}"
