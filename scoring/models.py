"""Games and hands as entered, with the scores the rules core derived from them.

A hand stores what the table entered (who played, card points, roem, pit):
that is the truth. The banked scores of a hand and the totals of its game are
computed by ``scoring.rules`` when the hand is saved, in the same transaction,
so that pages read sums and never re-score a season.
"""

import sys
from array import array

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Member
from common.choices import TeamChoices, text_choices
from scoring import rules
from tournaments.models import Evening, Seat, Table

Team = TeamChoices

#: The core's suits (``scoring.rules.Suit``), stored by letter.
Suit = text_choices(
    rules.Suit,
    {
        rules.Suit.CLUBS: _("♣ clubs"),
        rules.Suit.DIAMONDS: _("♦ diamonds"),
        rules.Suit.HEARTS: _("♥ hearts"),
        rules.Suit.SPADES: _("♠ spades"),
    },
    name="Suit",
)


class GameQuerySet(models.QuerySet):
    def confirmed(self):
        return self.filter(status=Game.Status.CONFIRMED)

    def complete(self):
        return self.exclude(status=Game.Status.OPEN)


class Game(models.Model):
    """The game one table plays in one round: a boompje, or a match to a target."""

    class Status(models.TextChoices):
        OPEN = "open", _("in play")
        COMPLETE = "complete", _("complete, to be confirmed")
        CONFIRMED = "confirmed", _("confirmed")

    table = models.OneToOneField(
        Table, on_delete=models.PROTECT, related_name="game", verbose_name=_("table")
    )
    ruleset = models.JSONField(
        _("rule set"), help_text=_("The rule set the game is played by, fixed at its start.")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default="open")
    hands_entered = models.PositiveSmallIntegerField(_("hands entered"), default=0)
    total_a = models.IntegerField(_("total wij"), default=0)
    total_b = models.IntegerField(_("total zij"), default=0)
    winner = models.CharField(_("winner"), max_length=1, choices=Team.choices, blank=True)
    marsen_a = models.PositiveSmallIntegerField(_("marsen wij"), default=0)
    marsen_b = models.PositiveSmallIntegerField(_("marsen zij"), default=0)
    tegenpit_a = models.PositiveSmallIntegerField(
        _("tegenpit wij"),
        default=0,
        help_text=_("Hands where wij defended and took every trick (not a mars of wij)."),
    )
    tegenpit_b = models.PositiveSmallIntegerField(
        _("tegenpit zij"),
        default=0,
        help_text=_("Hands where zij defended and took every trick (not a mars of zij)."),
    )
    nat_a = models.PositiveSmallIntegerField(_("nat wij"), default=0)
    nat_b = models.PositiveSmallIntegerField(_("nat zij"), default=0)
    roem_a = models.PositiveIntegerField(_("roem wij"), default=0)
    roem_b = models.PositiveIntegerField(_("roem zij"), default=0)
    verzaken_a = models.PositiveSmallIntegerField(
        _("verzaken wij"), default=0, help_text=_("Hands that ended because wij reneged.")
    )
    verzaken_b = models.PositiveSmallIntegerField(
        _("verzaken zij"), default=0, help_text=_("Hands that ended because zij reneged.")
    )
    version = models.PositiveIntegerField(
        _("version"), default=0, help_text=_("Goes up with every change; stale forms are refused.")
    )
    scorer_team = models.CharField(
        _("team keeping score"),
        max_length=1,
        choices=Team.choices,
        blank=True,
        help_text=_(
            "Chosen at the table with the first hand; a player of the other team confirms."
        ),
    )
    confirmed_by = models.CharField(_("confirmed by"), max_length=120, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("last change"), auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["table__round__evening__date", "table__round__number", "table__number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="confirmed", confirmed_at__isnull=False)
                | (~Q(status="confirmed") & Q(confirmed_at__isnull=True)),
                name="game_confirmed_has_time",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["open", "complete", "confirmed"]),
                name="game_status_known",
            ),
            models.CheckConstraint(
                condition=Q(scorer_team__in=["", *Team.values]), name="game_scorer_team_known"
            ),
            models.CheckConstraint(
                condition=Q(winner__in=["", *Team.values]), name="game_winner_known"
            ),
        ]

    def __str__(self):
        return f"{self.table.round.evening} · {self.table.round} · {self.table}"

    @property
    def is_locked(self):
        return self.status == self.Status.CONFIRMED

    def get_ruleset(self) -> rules.Ruleset:
        """The rules core's :class:`~scoring.rules.Ruleset` the game is played by: the
        one stored with it at its start (``ruleset``, its preset's name and fields)."""
        data = dict(self.ruleset)
        return rules.ruleset_from(data.pop("name"), data)

    def declares_roem(self) -> bool:
        """Whether the game's rule set declares roem (the table enters declarations)."""
        return self.get_ruleset().roem_rule is rules.RoemRule.DECLARED


class Hand(models.Model):
    """One deal (spel) as entered: raw inputs, then the derived banked scores."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="hands", verbose_name=_("game")
    )
    number = models.PositiveSmallIntegerField(_("hand"))
    playing = models.CharField(_("playing team"), max_length=1, choices=Team.choices)
    trump = models.CharField(_("trump"), max_length=1, choices=Suit.choices, blank=True)
    points_a = models.PositiveSmallIntegerField(_("card points wij"))
    points_b = models.PositiveSmallIntegerField(_("card points zij"))
    roem_a = models.PositiveSmallIntegerField(_("roem wij"), default=0)
    roem_b = models.PositiveSmallIntegerField(_("roem zij"), default=0)
    # Declared roem (match-1500): what each team declared, in the written form
    # "50+20+stuk" (scoring.rules.format_declarations); roem_a/roem_b are then the
    # roem that counts. Both empty: roem_a/roem_b were entered as totals (in-trick
    # roem, a hand without declarations, or a hand stored before declarations).
    declared_a = models.CharField(
        _("declared wij"),
        max_length=40,
        blank=True,
        help_text=_("Declared roem, e.g. 50+20+stuk (run of four, run of three, stuk)."),
    )
    declared_b = models.CharField(
        _("declared zij"),
        max_length=40,
        blank=True,
        help_text=_("Declared roem, e.g. 50+20+stuk (run of four, run of three, stuk)."),
    )
    pit = models.CharField(_("pit (mars)"), max_length=1, choices=Team.choices, blank=True)
    score_a = models.PositiveIntegerField(_("banked wij"))
    score_b = models.PositiveIntegerField(_("banked zij"))
    nat = models.BooleanField(_("nat"))
    verzaakt = models.CharField(
        _("verzaakt"),
        max_length=1,
        choices=Team.choices,
        blank=True,
        help_text=_(
            "The team that reneged: the hand ended there, the other team banks 162 + all "
            "roem + the rule set's verzaken bonus."
        ),
    )
    #: Under ``VerzakenRule.PERSONAL`` the hand counts as played (``verzaakt`` empty):
    #: the seat of the player who reneged, and the -penalty adjustment this version of
    #: the hand gave that player (empty when the seat held no member of the club).
    offender = models.CharField(
        _("reneged"),
        max_length=1,
        choices=Seat.Position.choices,
        blank=True,
        help_text=_("The seat of the player who reneged, when the player gets the penalty."),
    )
    penalty = models.ForeignKey(
        "Adjustment",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("verzaken penalty"),
    )
    client_id = models.CharField(
        _("entry id"),
        max_length=64,
        null=True,
        blank=True,
        help_text=_("Made by the entering device, so a hand sent twice is stored once."),
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    entered_via = models.CharField(_("entered via"), max_length=20, default="table")
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"],
                name="hand_number_unique_per_game",
                violation_error_message=_("This hand number is already entered for this game."),
            ),
            models.UniqueConstraint(
                fields=["game", "client_id"],
                condition=Q(client_id__isnull=False),
                name="hand_client_id_unique_per_game",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=Q(
                    points_a__gte=0,
                    points_a__lte=rules.HAND_TOTAL,
                    points_b__gte=0,
                    points_b__lte=rules.HAND_TOTAL,
                ),
                name="hand_points_0_to_162",
                violation_error_message=_("Card points are between 0 and 162."),
            ),
            models.CheckConstraint(
                condition=Q(points_a=rules.HAND_TOTAL - F("points_b")),
                name="hand_points_sum_162",
                violation_error_message=_("The card points of both teams add up to 162."),
            ),
            models.CheckConstraint(
                condition=Q(playing__in=Team.values), name="hand_playing_team_known"
            ),
            models.CheckConstraint(condition=Q(pit__in=["", *Team.values]), name="hand_pit_known"),
            models.CheckConstraint(
                condition=Q(pit="")
                | Q(pit="A", points_a=rules.HAND_TOTAL)
                | Q(pit="B", points_b=rules.HAND_TOTAL),
                name="hand_pit_has_all_points",
                violation_error_message=_("Pit needs all 162 card points."),
            ),
            models.CheckConstraint(
                condition=Q(trump__in=["", *Suit.values]), name="hand_trump_known"
            ),
            models.CheckConstraint(
                condition=Q(roem_a__lte=2000, roem_b__lte=2000),
                name="hand_roem_in_range",
                violation_error_message=_("That is more roem than one hand can hold."),
            ),
            models.CheckConstraint(
                condition=Q(verzaakt__in=["", *Team.values]), name="hand_verzaakt_team_known"
            ),
            models.CheckConstraint(
                condition=Q(verzaakt="")
                | Q(verzaakt="A", points_a=0, score_a=0, pit="", nat=False)
                | Q(verzaakt="B", points_b=0, score_b=0, pit="", nat=False),
                name="hand_verzaakt_team_banks_nothing",
                violation_error_message=_(
                    "After verzaken the other team has all 162 card points, the team that "
                    "reneged banks nothing, and there is no pit."
                ),
            ),
            models.CheckConstraint(
                condition=Q(offender__in=["", *Seat.Position.values]),
                name="hand_offender_is_a_seat",
            ),
        ]

    def __str__(self):
        return _("Hand %(number)s") % {"number": self.number}

    @property
    def has_declarations(self):
        """Whether the roem of this hand was entered as declarations (match-1500)."""
        return bool(self.declared_a or self.declared_b)


def sheet_mark(hand, team, style=rules.sheet.MarkStyle.PIT_TEAM) -> str:
    """The team's mark on the club's paper score sheet (``style``, the club's
    :meth:`~clubs.models.Club.mark_style`): by default M for the playing team's pit
    (mars), TP for the defenders' pit (tegenpit); V for the team that reneged, else
    empty.

    The notation's one formatter is :func:`scoring.rules.sheet.marks`; this reads it
    for ``hand``: anything with ``playing``, ``pit`` and ``verzaakt`` (``A``, ``B``
    or empty), a stored :class:`Hand` or a row of the grid.
    """
    written = rules.sheet.marks(
        playing=hand.playing, pit=hand.pit, verzaakt=hand.verzaakt, style=style
    )
    return written.of(team)


class Adjustment(models.Model):
    """A score that is not a hand: sit-out, absence, penalty or a director's correction.

    Recorded as its own entry with a reason, never by editing hands. ``member``
    gets ``points`` personally (sit-out, absence, a -100 verzaken penalty); with
    ``game`` and ``team`` the points go to that team (a director's score beside
    the game total). A team's verzaken is recorded as the hand it ended
    (``Hand.verzaakt``), counted in the game total; ``Kind.VERZAKEN`` for a team
    is no longer offered, and older rows of it stay as they are.

    ``Kind.TOTALS`` is a player's score of an evening (or of one of its rounds,
    with ``round``) as a club's old sheet of totals has it, imported where the hands
    are not known: it counts as ``games`` games (1 for a round; an evening's total
    counts the competition's rounds per evening), and the player played.
    """

    class Kind(models.TextChoices):
        SITOUT = "sitout", _("sit-out score")
        ABSENCE = "absence", _("absence score")
        VERZAKEN = "verzaken", _("verzaken penalty")
        DIRECTOR = "director", _("director's adjustment")
        TOTALS = "totals", _("imported total")

    evening = models.ForeignKey(
        Evening, on_delete=models.PROTECT, related_name="adjustments", verbose_name=_("evening")
    )
    round = models.ForeignKey(
        "tournaments.Round",
        on_delete=models.PROTECT,
        related_name="adjustments",
        null=True,
        blank=True,
        verbose_name=_("round"),
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="adjustments",
        null=True,
        blank=True,
        verbose_name=_("player"),
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.PROTECT,
        related_name="adjustments",
        null=True,
        blank=True,
        verbose_name=_("game"),
    )
    team = models.CharField(_("team"), max_length=1, choices=Team.choices, blank=True)
    points = models.IntegerField(_("points"))
    marsen = models.PositiveSmallIntegerField(
        _("marsen"), default=0, help_text=_("A sit-out the club counts as a mars: 1.")
    )
    games = models.PositiveSmallIntegerField(
        _("games"),
        default=0,
        help_text=_("The games an imported total stands for; 0 for every other kind."),
    )
    reason = models.CharField(_("reason"), max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("adjustment")
        verbose_name_plural = _("adjustments")
        ordering = ["evening", "created_at"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(member__isnull=False) & Q(game__isnull=True) & Q(team=""))
                | (Q(member__isnull=True) & Q(game__isnull=False) & Q(team__in=Team.values)),
                name="adjustment_for_a_player_or_a_team",
                violation_error_message=_("An adjustment is for one player or for one team."),
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["sitout", "absence", "verzaken", "director", "totals"]),
                name="adjustment_kind_known",
            ),
            models.CheckConstraint(
                condition=(Q(kind="totals") & Q(games__gte=1) & Q(member__isnull=False))
                | (~Q(kind="totals") & Q(games=0)),
                name="adjustment_games_only_for_totals",
                violation_error_message=_(
                    "Only an imported total stands for games, and it is a player's."
                ),
            ),
            models.UniqueConstraint(
                fields=["evening", "member"],
                condition=Q(kind="totals", round__isnull=True),
                name="one_imported_evening_total_per_player",
                violation_error_message=_("This player already has a total for this evening."),
            ),
            models.CheckConstraint(
                condition=Q(team__in=["", *Team.values]), name="adjustment_team_known"
            ),
            models.CheckConstraint(
                condition=~Q(reason=""),
                name="adjustment_has_reason",
                violation_error_message=_("Give the reason."),
            ),
            models.UniqueConstraint(
                fields=["round", "member", "kind"],
                condition=Q(kind__in=["sitout", "absence", "totals"]),
                name="one_sitout_or_absence_score_per_round",
                violation_error_message=_("This player already has this score for this round."),
            ),
            models.CheckConstraint(
                condition=Q(points__gte=-10000, points__lte=10000),
                name="adjustment_points_in_range",
                violation_error_message=_("An adjustment is between -10000 and 10000 points."),
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.points:+d}"


class AuditEntry(models.Model):
    """Every change to a hand or game: who, when, before, after, why."""

    class Action(models.TextChoices):
        CREATE = "create", _("hand entered")
        EDIT = "edit", _("hand changed")
        DELETE = "delete", _("hand removed")
        CONFIRM = "confirm", _("game confirmed")
        CORRECT = "correct", _("correction")
        ADJUST = "adjust", _("adjustment")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="audit", verbose_name=_("game")
    )
    hand_number = models.PositiveSmallIntegerField(_("hand"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    actor = models.CharField(
        _("who"), max_length=150, help_text=_("The user, or the name given at the table.")
    )
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    action__in=["create", "edit", "delete", "confirm", "correct", "adjust"]
                ),
                name="auditentry_action_known",
            ),
        ]

    def __str__(self):
        return f"{self.get_action_display()} · {self.actor}"


class EveningTotals(models.Model):
    """Each player's tally of one finished evening, kept so the season standings read
    40 evenings, not 48,000 hands' games and seats and the adjustments, on every request
    (``scoring.results.standings.stored_evening_rows``, which only reads).

    Stored when the evening is finished and again by every change below it, inside
    the change's transaction (``scoring.results.services.evening_totals_store``, called
    by ``scoring.receivers``: a game saved, a seat, table or round saved or deleted, an
    adjustment saved or deleted, the evening itself saved, members merged); thrown
    away when the evening is no longer finished. Always summed whole, never edited,
    so it is never half right; missing, the standings sum the evening in memory.
    ``sums``: for each player the :data:`COLUMNS`, as 32-bit little-endian
    integers one after the other (read back in a blink, where JSON took longer
    than the rest of the standings).
    """

    #: A player's sums of an evening: its confirmed games with the adjustments (a
    #: sit-out counts as a game), in the order of ``scoring.results.standings.Tally``.
    SUMS = ("points", "games", "marsen", "tegenpit", "nat", "nat_defending", "roem", "verzaken")
    #: What each player's run of numbers in ``sums`` holds, in order: the rest of the
    #: tally are the personal adjustments' points and whether the player played (1 or 0).
    COLUMNS = ("member", *SUMS, "personal", "played")

    evening = models.OneToOneField(
        Evening, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    sums = models.BinaryField(default=b"")

    class Meta:
        verbose_name = _("stored evening totals")
        verbose_name_plural = _("stored evening totals")

    def __str__(self):
        return f"{self.evening_id}: {len(self.sums) // (4 * len(self.COLUMNS))}"

    @classmethod
    def pack(cls, rows) -> bytes:
        """``rows`` (each the :data:`COLUMNS` as integers) as the bytes of ``sums``."""
        numbers = array("i", (n for row in rows for n in row))
        if sys.byteorder == "big":
            numbers.byteswap()
        return numbers.tobytes()

    @classmethod
    def columns(cls, data) -> dict[str, array]:
        """The numbers packed by :meth:`pack` by column: ``{"member": [...], "points": [...]}``,
        sliced in C (a season's standings read 4,000 players' evenings)."""
        numbers, width = array("i"), len(cls.COLUMNS)
        numbers.frombytes(bytes(data))
        if sys.byteorder == "big":
            numbers.byteswap()
        if len(numbers) % width:
            raise ValueError("stored evening totals of another layout")
        return {name: numbers[index::width] for index, name in enumerate(cls.COLUMNS)}
