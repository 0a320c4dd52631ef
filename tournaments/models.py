"""A club's season: competitions of evenings, rounds, tables and their seats.

A competition (a season, or a one-off tournament) has evenings; an evening has
rounds (rondes); a round seats the present players at tables of four (the draw,
loting); each table plays one game (a boompje), kept in ``scoring``.
"""

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Member
from common.choices import enum_values, text_choices, validate_tie_breaks
from common.pagecache import new_version
from common.rulesets import RulesetPreset, clean_ruleset
from scoring import rules
from scoring.rules import ruleset_from

from . import ranking_rules
from .draw import Movement as DrawMovement
from .draw import OddMode


class Competition(models.Model):
    class Kind(models.TextChoices):
        INDIVIDUAL = "individual", _("individual (new partners every round)")
        PAIRS = "pairs", _("pairs (fixed partners)")

    class Format(models.TextChoices):
        SEASON = "season", _("season of club evenings")
        TOURNAMENT = "tournament", _("one-off tournament")
        LEAGUE = "league", _("league between clubs")

    RankingBasis = text_choices(
        ranking_rules.Basis,
        {
            ranking_rules.Basis.TOTAL: _("total points"),
            ranking_rules.Basis.AVERAGE: _("average per game"),
        },
        name="RankingBasis",
        members=ranking_rules.MAIN_BASES,
    )

    OddPlayers = text_choices(
        OddMode,
        {
            OddMode.SITOUT: _("players left over sit out with the sit-out score"),
            OddMode.SUBSTITUTE: _("a table of three plays with a substitute"),
        },
        name="OddPlayers",
    )

    Movement = text_choices(
        DrawMovement,
        {
            DrawMovement.ROUND_ROBIN: _("every pair meets every other pair (round robin)"),
            DrawMovement.EVEN_STAY: _("even pairs stay, odd pairs move up one table each round"),
            DrawMovement.ODD_STAY: _("odd pairs stay, even pairs move up one table each round"),
        },
        name="Movement",
    )

    class AbsencePolicy(models.TextChoices):
        NOTHING = "nothing", _("absent players get no score")
        LOWEST = "lowest", _("players who called in get the evening's lowest score")
        FIXED = "fixed", _("players who called in get the absence score")

    class LeavingPolicy(models.TextChoices):
        KEEP = "keep", _("a player who leaves early keeps the points of the rounds played")
        FIXED = "fixed", _("each round missed scores the leaving score")
        LOWEST = "lowest", _("a player who leaves early gets the evening's lowest score, no place")

    class LeftOverPolicy(models.TextChoices):
        SITOUT_SCORE = "sitout_score", _("the sit-out score for the round, with a place")
        LOWEST = "lowest", _("the evening's lowest score, no place")

    class AbsenceUnit(models.TextChoices):
        ROUND = "round", _("per round")
        EVENING = "evening", _("per evening, whatever the number of rounds")

    PrizeRule = text_choices(
        ranking_rules.PrizeRule,
        {
            ranking_rules.PrizeRule.WINNER: _("the evening's winner"),
            ranking_rules.PrizeRule.FIRST_N: _("the first N places"),
            ranking_rules.PrizeRule.PER_FOUR: _("1 prize per 4 players"),
            ranking_rules.PrizeRule.FORMULE_VAN_4: _(
                "formule van 4 (places 1-4, then 8, 12, 16, ...)"
            ),
        },
        name="PrizeRule",
    )

    #: Rankings shown beside the main standings; each is a definition of its own
    #: (``side_rankings``: the kind fixes the basis, the club the best N and minimum).
    SideRanking = text_choices(
        ranking_rules.Side,
        {
            ranking_rules.Side.POINTS: _("puntenkampioen: most total points"),
            ranking_rules.Side.MARSEN: _("most marsen"),
        },
        name="SideRanking",
    )

    AverageUnit = text_choices(
        ranking_rules.AverageUnit,
        {
            ranking_rules.AverageUnit.GAME: _("per game (boompje)"),
            ranking_rules.AverageUnit.EVENING: _("per evening"),
        },
        name="AverageUnit",
    )

    TieBreak = text_choices(
        ranking_rules.TieBreak,
        {
            ranking_rules.TieBreak.MARSEN: _("more marsen"),
            ranking_rules.TieBreak.FEWER_NAT: _("fewer nat"),
            ranking_rules.TieBreak.ROEM: _("more roem"),
            ranking_rules.TieBreak.AVERAGE: _("better average"),
            ranking_rules.TieBreak.HEAD_TO_HEAD: _("head-to-head"),
        },
        name="TieBreak",
    )

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="competitions", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    format = models.CharField(
        _("format"), max_length=12, choices=Format.choices, default=Format.SEASON
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.INDIVIDUAL)
    start_date = models.DateField(_("first day"))
    end_date = models.DateField(_("last day"))
    ruleset_preset = models.CharField(
        _("rule set"), max_length=20, choices=RulesetPreset.choices, default=RulesetPreset.ROTTERDAM
    )
    ruleset_overrides = models.JSONField(
        _("rule set changes"),
        default=dict,
        blank=True,
        help_text=_("Fields of the preset this competition plays differently."),
    )
    rounds_per_evening = models.PositiveSmallIntegerField(_("rounds per evening"), default=3)
    odd_players = models.CharField(
        _("players left over"), max_length=12, choices=OddPlayers.choices, default=OddPlayers.SITOUT
    )
    movement = models.CharField(
        _("pairs movement"),
        max_length=12,
        choices=Movement.choices,
        default=Movement.ROUND_ROBIN,
        help_text=_(
            "Pairs competitions: whom a pair meets each round. Moving up: in round 1 "
            "pairs 1 and 2 sit at table 1, pairs 3 and 4 at table 2, and so on."
        ),
    )
    sitout_score = models.PositiveIntegerField(
        _("sit-out score"),
        default=1600,
        help_text=_("Points for a player who sits out a round (uitloter)."),
    )
    absence_policy = models.CharField(
        _("absence"), max_length=10, choices=AbsencePolicy.choices, default=AbsencePolicy.NOTHING
    )
    absence_score = models.PositiveIntegerField(
        _("absence score"), default=0, help_text=_("With the fixed absence policy.")
    )
    absence_unit = models.CharField(
        _("absence score counts"),
        max_length=10,
        choices=AbsenceUnit.choices,
        default=AbsenceUnit.ROUND,
        help_text=_("The fixed absence score per round, or once for the whole evening."),
    )
    substitute_strikes_lowest = models.BooleanField(
        _("a substitute may strike their lowest game"),
        default=False,
        help_text=_(
            "Invallers mogen hun laagste eigen partij wegstrepen: a member who plays as a "
            "substitute at a table of three may have that game replace their lowest own "
            "game of the evening (marsen included). Off: a substitute's game does not "
            "count for the substitute."
        ),
    )
    finished_may_substitute = models.BooleanField(
        _("a player whose table has finished may substitute"),
        default=False,
        help_text=_(
            "A player whose own table in the round has finished (its result confirmed) "
            "may fill in as the substitute at a table of three in the same round. What "
            "that game counts for follows the setting above. Off: a player with a seat "
            "at a table in the round cannot be the substitute."
        ),
    )
    sitout_mars = models.BooleanField(
        _("a sit-out counts as a mars"),
        default=False,
        help_text=_(
            "For clubs that give the sit-out score plus a mars: each round sat out counts "
            "one mars in the marsen column and the tie-breaks. It adds no points: the "
            "player scores the sit-out score, nothing more."
        ),
    )
    left_over = models.CharField(
        _("the player left over"),
        max_length=14,
        choices=LeftOverPolicy.choices,
        default=LeftOverPolicy.SITOUT_SCORE,
        help_text=_(
            "With tables of three: when a round cannot have one (5 players, or too few "
            "substitutes), what a player who sits out gets for the evening."
        ),
    )
    late_score = models.PositiveIntegerField(
        _("late arrival score"),
        null=True,
        blank=True,
        help_text=_(
            "Points per round a player who arrives late missed; empty: no score for those rounds."
        ),
    )
    leaving_policy = models.CharField(
        _("leaving early"),
        max_length=10,
        choices=LeavingPolicy.choices,
        default=LeavingPolicy.KEEP,
        help_text=_(
            "A player the wedstrijdleider marks as left after a round. The poedelprijs "
            "never goes to a player who left early with the points of the rounds played, "
            "nor to one without a place."
        ),
    )
    leaving_score = models.PositiveIntegerField(
        _("leaving score"),
        null=True,
        blank=True,
        help_text=_("Points per round missed by a player who left early, e.g. 1450."),
    )
    prize_rule = models.CharField(
        _("evening prizes"),
        max_length=14,
        choices=PrizeRule.choices,
        default=PrizeRule.WINNER,
        help_text=_("The poedelprijs goes besides to the lowest score without another prize."),
    )
    prize_places = models.PositiveSmallIntegerField(
        _("prize places"),
        null=True,
        blank=True,
        help_text=_('With "the first N places": N.'),
    )
    ranking_basis = models.CharField(
        _("ranking by"), max_length=10, choices=RankingBasis.choices, default=RankingBasis.TOTAL
    )
    best_of = models.PositiveSmallIntegerField(
        _("best evenings counted"),
        null=True,
        blank=True,
        help_text=_(
            "Count only a player's best N evenings; empty counts all. With best "
            "periods counted: a player's best N evenings of each period."
        ),
    )
    best_periods = models.PositiveSmallIntegerField(
        _("best periods counted"),
        null=True,
        blank=True,
        help_text=_(
            "A season of periods: a period's result is a player's best evenings in it "
            "(the best evenings counted), and the season ranking is the sum of each "
            "player's best M period results. Empty: the season counts its evenings, "
            "not its periods."
        ),
    )
    average_unit = models.CharField(
        _("average"),
        max_length=10,
        choices=AverageUnit.choices,
        default=AverageUnit.GAME,
        help_text=_(
            "What the average (gemiddelde) divides the points by: the games (boompjes) "
            "or the evenings counted. The standings' average column, ranking by "
            "average and the average tie-break use it."
        ),
    )
    min_attendance = models.PositiveSmallIntegerField(
        _("minimum attendance"),
        default=0,
        help_text=_("Evenings a player must have played to be ranked."),
    )
    tie_breaks = models.JSONField(
        _("tie-break order"),
        default=list,
        blank=True,
        help_text=_("Applied in this order; players still equal share the rank."),
    )
    side_rankings = models.JSONField(
        _("other rankings"),
        default=list,
        blank=True,
        help_text=_(
            "Shown beside the main standings, each its own definition: "
            '[{"kind": "points", "best_of": null, "min_attendance": 0}]; kind "points" '
            '(puntenkampioen) or "marsen", best_of empty for every evening.'
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    version = models.BigIntegerField(
        _("version of its pages"),
        default=new_version,
        editable=False,
        help_text=_("New with every change its pages show: their ETags and cache keys."),
    )

    class Meta:
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")),
                name="competition_dates_in_order",
                violation_error_message=_("The last day cannot be before the first day."),
            ),
            models.CheckConstraint(
                condition=Q(rounds_per_evening__gte=1) & Q(rounds_per_evening__lte=12),
                name="competition_rounds_range",
                violation_error_message=_("An evening has between 1 and 12 rounds."),
            ),
            models.CheckConstraint(
                condition=Q(format__in=["season", "tournament", "league"]),
                name="competition_format_known",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["individual", "pairs"]), name="competition_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(ruleset_preset__in=RulesetPreset.values),
                name="competition_ruleset_preset_known",
            ),
            models.CheckConstraint(
                condition=Q(odd_players__in=enum_values(OddMode)),
                name="competition_odd_players_known",
            ),
            models.CheckConstraint(
                condition=Q(absence_policy__in=["nothing", "lowest", "fixed"]),
                name="competition_absence_policy_known",
            ),
            models.CheckConstraint(
                condition=Q(movement__in=enum_values(DrawMovement)),
                name="competition_movement_known",
            ),
            models.CheckConstraint(
                condition=Q(ranking_basis__in=enum_values(ranking_rules.MAIN_BASES)),
                name="competition_ranking_basis_known",
            ),
            models.CheckConstraint(
                condition=Q(leaving_policy__in=["keep", "fixed", "lowest"]),
                name="competition_leaving_policy_known",
            ),
            models.CheckConstraint(
                condition=~Q(leaving_policy="fixed") | Q(leaving_score__isnull=False),
                name="competition_leaving_score_given",
                violation_error_message=_("Say how many points a round missed scores."),
            ),
            models.CheckConstraint(
                condition=Q(left_over__in=["sitout_score", "lowest"]),
                name="competition_left_over_known",
            ),
            models.CheckConstraint(
                condition=Q(absence_unit__in=["round", "evening"]),
                name="competition_absence_unit_known",
            ),
            models.CheckConstraint(
                condition=Q(prize_rule__in=enum_values(ranking_rules.PrizeRule)),
                name="competition_prize_rule_known",
            ),
            models.CheckConstraint(
                condition=Q(average_unit__in=enum_values(ranking_rules.AverageUnit)),
                name="competition_average_unit_known",
            ),
            models.CheckConstraint(
                condition=Q(best_periods__isnull=True)
                | (Q(best_periods__gte=1) & ~Q(format="tournament")),
                name="competition_best_periods_of_a_season",
                violation_error_message=_(
                    "Best periods counted: a whole number of at least 1, for a season "
                    "(a one-off tournament has no periods)."
                ),
            ),
            models.CheckConstraint(
                condition=~Q(prize_rule="first_n") | Q(prize_places__gte=1),
                name="competition_prize_places_given",
                violation_error_message=_("Say how many places win a prize."),
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse(
            "tournaments:competition-detail", kwargs={"club": self.club.slug, "pk": self.pk}
        )

    def describe_draw(self):
        """The draw's settings in plain sentences: the pairs movement, players left over."""
        if self.kind == self.Kind.PAIRS:
            if self.movement == self.Movement.ROUND_ROBIN:
                return [
                    _("Pairs: every pair meets every other pair once (round robin)."),
                    _("With an odd number of pairs one pair sits out each round, each in turn."),
                ]
            if self.movement == self.Movement.EVEN_STAY:
                moves = _(
                    "Pairs: the even pairs stay at their table, the odd pairs move up one "
                    "table each round (from the last table to table 1)."
                )
            else:
                moves = _(
                    "Pairs: the odd pairs stay at their table, the even pairs move up one "
                    "table each round (from the last table to table 1)."
                )
            return [
                moves,
                _(
                    "With an odd number of pairs the moving pair that reaches the last table "
                    "sits out that round; the pairs that sat out least this season are the "
                    "ones that move."
                ),
            ]
        if self.odd_players == self.OddPlayers.SUBSTITUTE:
            return [
                _(
                    "Players left over play at a table of three with a substitute; who sits "
                    "there goes by turns over the season."
                ),
                self.describe_substitutes(),
                *self.describe_finished_substitutes(),
            ]
        return [
            _("Players left over sit out, by turns over the season."),
            *self.describe_finished_substitutes(),
        ]

    def describe_finished_substitutes(self):
        """Whether a player whose table has finished may fill in, as a sentence (or none)."""
        if not self.finished_may_substitute:
            return []
        return [
            _(
                "A player whose own table has finished the round (its result confirmed) "
                "may fill in as the substitute at a table of three in that round."
            )
        ]

    def describe_substitutes(self):
        """What a substitute's (invaller's) game counts for, in one sentence."""
        if self.substitute_strikes_lowest:
            return _(
                "A substitute's game replaces the substitute's lowest own game of the "
                "evening (marsen included) when it scored more (wegstrepen)."
            )
        return _("A substitute's game does not count for the substitute.")

    def clean(self):
        """The tie-break order names known tie-breaks, each once; the side rankings
        are known ones, each once, with a best N of at least 1 (or none) and a
        minimum of 0 or more; a "first N" prize rule says N; best periods counted is
        at least 1, and only for a season; the rule set is the
        preset with the overrides, checked by the scoring core (the overrides are
        stored as the core gives them: only what differs)."""
        errors = {}
        checks = (
            self._clean_tie_breaks,
            self._clean_side_rankings,
            self._clean_prizes,
            self._clean_leaving,
            self._clean_best_periods,
            self._clean_ruleset,
        )
        for check in checks:
            try:
                check()
            except ValidationError as exc:
                errors.update(exc.error_dict)
        if errors:
            raise ValidationError(errors)

    def _clean_tie_breaks(self):
        try:
            validate_tie_breaks(self.tie_breaks, self.TieBreak)
        except ValidationError as exc:
            raise ValidationError({"tie_breaks": exc}) from exc

    def _clean_side_rankings(self):
        """Each side ranking a ``{"kind", "best_of", "min_attendance"}`` object,
        stored in full and in the order of the choices."""

        def refuse(message, code):
            return ValidationError({"side_rankings": ValidationError(message, code=code)})

        value = self.side_rankings
        if not isinstance(value, list):
            raise refuse(_("Unknown ranking."), "unknown")
        found = {}
        for item in value:
            if (
                not isinstance(item, dict)
                or item.get("kind") not in self.SideRanking.values
                or set(item) - {"kind", "best_of", "min_attendance"}
            ):
                raise refuse(_("Unknown ranking."), "unknown")
            label = self.SideRanking(item["kind"]).label
            if item["kind"] in found:
                raise refuse(_("Each ranking once."), "ranking_twice")
            best_of = item.get("best_of")
            if best_of is not None and not _whole(best_of, least=1):
                message = _(
                    "%(ranking)s: the best evenings counted is a whole number of at "
                    "least 1, or empty to count every evening."
                )
                raise refuse(message % {"ranking": label}, "side_best_of")
            if not _whole(item.get("min_attendance", 0), least=0):
                message = _("%(ranking)s: the minimum attendance is a whole number, 0 or more.")
                raise refuse(message % {"ranking": label}, "side_min_attendance")
            found[item["kind"]] = ranking_rules.SideRanking.from_json(item).to_json()
        self.side_rankings = [found[kind] for kind in self.SideRanking.values if kind in found]

    def side_ranking_definitions(self) -> list[ranking_rules.SideRanking]:
        """The side rankings as ranking definitions, in the order they are shown."""
        return [ranking_rules.SideRanking.from_json(item) for item in self.side_rankings]

    def _clean_prizes(self):
        if self.prize_rule == self.PrizeRule.FIRST_N and not self.prize_places:
            raise ValidationError({"prize_places": _("Say how many places win a prize.")})

    def _clean_leaving(self):
        if self.leaving_policy == self.LeavingPolicy.FIXED and self.leaving_score is None:
            raise ValidationError(
                {"leaving_score": _("Say how many points a round missed scores.")}
            )

    @property
    def has_sitouts(self):
        """Whether a player can sit out a round and score the sit-out score: by the
        rota, as a pair with an odd number of pairs, or as the player left over when
        a table of three cannot be made (unless that player gets the evening's
        lowest score instead). A league's evenings follow its matches: nobody sits out."""
        if self.format == self.Format.LEAGUE:
            return False
        if self.kind == self.Kind.PAIRS or self.odd_players == self.OddPlayers.SITOUT:
            return True
        return self.left_over == self.LeftOverPolicy.SITOUT_SCORE

    @property
    def left_over_lowest(self):
        """Whether a player left over (sitting out where tables of three are the
        rule) gets the evening's lowest score and no place."""
        return (
            self.kind == self.Kind.INDIVIDUAL
            and self.odd_players == self.OddPlayers.SUBSTITUTE
            and self.left_over == self.LeftOverPolicy.LOWEST
        )

    def _clean_best_periods(self):
        if self.best_periods is None:
            return
        if self.best_periods < 1:
            raise ValidationError(
                {"best_periods": _("Count at least 1 period, or leave it empty.")}
            )
        if self.format == self.Format.TOURNAMENT:
            raise ValidationError(
                {
                    "best_periods": _(
                        "A one-off tournament has no periods: leave the best periods empty."
                    )
                }
            )

    def ranks_by_periods(self):
        """The season ranking is the sum of each player's best period results."""
        return self.best_periods is not None

    def _clean_ruleset(self):
        clean_ruleset(self)

    def ruleset(self):
        """The rule set this competition plays, as a scoring-core value: the preset
        with the overrides. Raises InvalidRuleset for a combination the core refuses."""
        return ruleset_from(self.ruleset_preset, self.ruleset_overrides)

    @property
    def hands_per_game(self):
        """Hands in a game when games end after a number of hands (the rule set's)."""
        return self.ruleset().hands_per_game

    @hands_per_game.setter
    def hands_per_game(self, value):
        # An override like any other (``Competition(hands_per_game=12)`` works);
        # clean() drops it again when it equals the preset's.
        self.ruleset_overrides = {**(self.ruleset_overrides or {}), "hands_per_game": value}


def _whole(value, *, least):
    """``value`` is a whole number (not a yes/no) of at least ``least``."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


class Period(models.Model):
    """Part of a season with its own standings and prizes (e.g. autumn, spring)."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="periods", verbose_name=_("competition")
    )
    name = models.CharField(_("name"), max_length=60)
    start_date = models.DateField(_("first day"))
    end_date = models.DateField(_("last day"))

    class Meta:
        verbose_name = _("period")
        verbose_name_plural = _("periods")
        ordering = ["start_date"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")),
                name="period_dates_in_order",
                violation_error_message=_("The last day cannot be before the first day."),
            ),
        ]

    def __str__(self):
        return self.name


class Pair(models.Model):
    """A fixed pair (koppel) of a pairs competition."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="pairs", verbose_name=_("competition")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    first = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    second = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("partner")
    )

    class Meta:
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="pair_number_unique"),
            models.UniqueConstraint(fields=["competition", "first"], name="pair_first_once"),
            models.UniqueConstraint(fields=["competition", "second"], name="pair_second_once"),
            models.CheckConstraint(
                condition=~Q(first=F("second")),
                name="pair_two_players",
                violation_error_message=_("A pair is two different players."),
            ),
        ]

    def __str__(self):
        return f"{self.number}. {self.first} & {self.second}"


class EveningQuerySet(models.QuerySet):
    def counted(self):
        return self.filter(counts_for_ranking=True)


class Evening(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        IN_PLAY = "in_play", _("in play")
        FINISHED = "finished", _("finished")

    competition = models.ForeignKey(
        Competition,
        on_delete=models.PROTECT,
        related_name="evenings",
        verbose_name=_("competition"),
    )
    date = models.DateField(_("date"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )
    counts_for_ranking = models.BooleanField(
        _("counts for the ranking"),
        default=True,
        help_text=_("Off for an opening or closing night that does not count."),
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    version = models.BigIntegerField(
        _("version of its pages"),
        default=new_version,
        editable=False,
        help_text=_("New with every change its pages show: their ETags and cache keys."),
    )

    objects = EveningQuerySet.as_manager()

    class Meta:
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        ordering = ["date", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "date"],
                name="one_evening_per_day",
                violation_error_message=_("This competition already has an evening on this day."),
            ),
            models.CheckConstraint(
                condition=Q(status__in=["planned", "in_play", "finished"]),
                name="evening_status_known",
            ),
        ]

    def __str__(self):
        return f"{self.competition} · {date_format(self.date)}"

    def get_absolute_url(self):
        return reverse(
            "tournaments:evening-detail",
            kwargs={"club": self.competition.club.slug, "pk": self.pk},
        )

    @property
    def is_open(self):
        return self.status != self.Status.FINISHED


class Attendance(models.Model):
    """Who came to an evening (checked in at the door), or called in absent."""

    class Status(models.TextChoices):
        PRESENT = "present", _("present")
        LEFT = "left", _("left early")
        LATE = "late", _("arrives late")
        EXCUSED = "excused", _("called in absent")

    evening = models.ForeignKey(
        Evening, on_delete=models.CASCADE, related_name="attendances", verbose_name=_("evening")
    )
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="attendances", verbose_name=_("player")
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PRESENT
    )
    left_after = models.PositiveSmallIntegerField(
        _("left after round"),
        null=True,
        blank=True,
        help_text=_("The last round a player who left early played (0: before round 1)."),
    )
    checked_in_at = models.DateTimeField(_("checked in"), auto_now_add=True)

    class Meta:
        verbose_name = _("attendance")
        verbose_name_plural = _("attendance")
        ordering = ["member__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "member"], name="attendance_once_per_evening"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["present", "left", "late", "excused"]),
                name="attendance_status_known",
            ),
            models.CheckConstraint(
                condition=Q(left_after__isnull=True) | Q(status="left"),
                name="attendance_left_after_only_when_left",
                violation_error_message=_("Only a player who left has a round they left after."),
            ),
        ]

    def __str__(self):
        return f"{self.member} · {self.get_status_display()}"


class Round(models.Model):
    evening = models.ForeignKey(
        Evening, on_delete=models.PROTECT, related_name="rounds", verbose_name=_("evening")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    drawn_at = models.DateTimeField(_("drawn"), auto_now_add=True)
    partner_repeats = models.PositiveSmallIntegerField(
        _("repeated partners"), default=0, help_text=_("Partners who already sat together.")
    )
    opponent_repeats = models.PositiveSmallIntegerField(_("repeated opponents"), default=0)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["evening", "number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        return _("Round %(number)s") % {"number": self.number}

    def get_absolute_url(self):
        return reverse(
            "tournaments:round-detail",
            kwargs={"club": self.evening.competition.club.slug, "pk": self.pk},
        )


def new_table_token():
    return secrets.token_urlsafe(18)


class Table(models.Model):
    """One table of one round; it plays one game. Its token is the private link."""

    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("table"))
    token = models.CharField(
        _("link code"), max_length=40, unique=True, default=new_table_token, editable=False
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self):
        return _("Table %(number)s") % {"number": self.number}


SEAT_LETTERS = enum_values(rules.Seat, value=lambda seat: seat.letter)


class Seat(models.Model):
    """A player's place in a round: at a table (N, E, S, W) or sitting out.

    N and S are team A (wij), E and W team B (zij). A seat without a member is
    taken by a substitute (invaller): a member of the club (or a guest's member
    record) in ``substitute_member`` once the wedstrijdleider chose one, with
    ``substitute`` holding the name shown. The database
    holds that a member has one place per round and a table one player per seat.
    """

    #: The core's seats (``scoring.rules.Seat``), stored by letter.
    Position = text_choices(
        rules.Seat,
        {
            rules.Seat.NORTH: _("North"),
            rules.Seat.EAST: _("East"),
            rules.Seat.SOUTH: _("South"),
            rules.Seat.WEST: _("West"),
        },
        value=lambda seat: seat.letter,
        name="Position",
    )

    TEAM_OF = {seat.letter: str(seat.team) for seat in rules.Seat}
    SEATS_OF = {str(team): tuple(seat.letter for seat in team.seats) for team in rules.Team}
    PARTNER_OF = {seat.letter: seat.partner.letter for seat in rules.Seat}
    ORDER = SEAT_LETTERS

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        related_name="seats",
        null=True,
        blank=True,
        verbose_name=_("table"),
    )
    position = models.CharField(
        _("seat"), max_length=1, choices=Position.choices, null=True, blank=True
    )
    member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="seats",
        null=True,
        blank=True,
        verbose_name=_("player"),
    )
    substitute = models.CharField(_("substitute"), max_length=120, blank=True)
    substitute_member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="substitute_seats",
        null=True,
        blank=True,
        verbose_name=_("substitute (member)"),
        help_text=_("The member who plays this empty seat of a table of three (invaller)."),
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["round", "table__number", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "member"],
                condition=Q(member__isnull=False),
                name="one_place_per_round",
                violation_error_message=_("This player already has a place in this round."),
            ),
            models.UniqueConstraint(
                fields=["table", "position"],
                condition=Q(table__isnull=False),
                name="one_player_per_seat",
            ),
            models.CheckConstraint(
                condition=(
                    Q(table__isnull=True) & Q(position__isnull=True) & Q(member__isnull=False)
                )
                | (Q(table__isnull=False) & Q(position__in=SEAT_LETTERS)),
                name="seat_at_table_or_sitting_out",
            ),
            models.CheckConstraint(
                condition=Q(position__isnull=True) | Q(position__in=SEAT_LETTERS),
                name="seat_position_known",
            ),
            models.CheckConstraint(
                condition=Q(member__isnull=False) | ~Q(substitute=""),
                name="seat_has_player_or_substitute",
            ),
            models.CheckConstraint(
                condition=Q(substitute_member__isnull=True)
                | (Q(member__isnull=True) & Q(table__isnull=False)),
                name="seat_substitute_only_in_empty_table_seat",
            ),
        ]

    def __str__(self):
        who = self.member.name if self.member_id else self.substitute
        return f"{self.position or '-'} {who}"

    @property
    def is_sitout(self):
        return self.table_id is None

    @property
    def team(self):
        return self.TEAM_OF.get(self.position)

    @property
    def player_name(self):
        return self.member.name if self.member_id else self.substitute


class EveningLog(models.Model):
    """What the wedstrijdleider did to an evening: draws, swaps, status changes."""

    evening = models.ForeignKey(
        Evening, on_delete=models.CASCADE, related_name="log", verbose_name=_("evening")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, verbose_name=_("by")
    )
    summary = models.CharField(_("summary"), max_length=300)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("evening log entry")
        verbose_name_plural = _("evening log")
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return self.summary
