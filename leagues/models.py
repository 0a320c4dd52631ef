"""Leagues between clubs: divisions, teams, matches, and their link to the game machinery.

A league season (:class:`League`) is organised by one club (a federation is a
club record on this site too) and may name extra organiser accounts. Its teams
(:class:`LeagueTeam`, a club's team with its players and captains) play in
divisions (:class:`Division`, level 1 at the top); each division plays a
double round robin of matches (:class:`LeagueMatch`).

How a league sits on the existing game machinery
------------------------------------------------
So that table-side entry, confirmation, the audit log and the tables' private
links work unchanged, a league reuses the club models:

- each league owns a container :class:`~tournaments.models.Competition` of
  format ``league``, held by the organising club; it carries the rule set
  (preset, changes, hands per game) and the season's first and last day;
- a competition has one evening per date (the ``one_evening_per_day``
  constraint), so an :class:`~tournaments.models.Evening` is a *matchday*: the
  date on which one or more matches of the league are played;
- a match is seated (when both line-ups are in) as ``games_per_table`` rounds of
  that evening, each with ``tables_per_match`` tables, their seats and one game
  per table with the competition's rule-set snapshot, as a club round is;
  :class:`MatchTable` says, per table, which game of the match it is, which
  pairs sit there and on which side (wij or zij) the home team sits.

The match result is read from the games' stored totals (plus team
adjustments), never stored on the match: a director's correction of a game
is the match's correction too. A match counts in the league table once both
captains confirmed it (``status = confirmed``) and all its games are confirmed.

See ``leagues.schedule`` for the schedule and the seating,
``leagues.table`` for the ranking rules and
``leagues.services`` for who may change what.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from common.choices import TeamChoices, enum_values, text_choices, validate_tie_breaks
from common.pagecache import new_version

from . import table as league_table

__all__ = [
    "Division",
    "League",
    "LeagueLog",
    "LeagueMatch",
    "LeagueTeam",
    "MatchTable",
    "TeamPlayer",
]


def default_tie_breaks():
    return [str(tie_break) for tie_break in league_table.Scoring().tie_breaks]


class League(models.Model):
    WinBy = text_choices(
        league_table.WinBy,
        {
            league_table.WinBy.TOTAL: _("more points over all tables"),
            league_table.WinBy.TABLES: _("more game points (2 per table won, 1 per tie)"),
        },
        name="WinBy",
    )

    PointsRule = text_choices(
        league_table.PointsRule,
        {
            league_table.PointsRule.FIXED: _("fixed points for a win, a draw and a loss"),
            league_table.PointsRule.PROPORTIONAL: _("points shared in proportion to the score"),
        },
        name="PointsRule",
    )

    TieBreak = text_choices(
        league_table.TieBreak,
        {
            league_table.TieBreak.HEAD_TO_HEAD: _("head-to-head (match points between the teams)"),
            league_table.TieBreak.POINT_DIFFERENCE: _("point difference"),
            league_table.TieBreak.POINTS_FOR: _("more points"),
            league_table.TieBreak.GAME_POINTS: _("more game points"),
            league_table.TieBreak.WINS: _("more matches won"),
        },
        name="TieBreak",
    )

    competition = models.OneToOneField(
        "tournaments.Competition",
        on_delete=models.PROTECT,
        related_name="league",
        verbose_name=_("competition"),
        help_text=_("Holds the rule set, the season's dates and the matchdays."),
    )
    name = models.CharField(_("name"), max_length=120)
    season = models.CharField(_("season"), max_length=20, help_text=_("For example 2026-2027."))
    previous = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="next_seasons",
        verbose_name=_("previous season"),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="organised_leagues",
        verbose_name=_("organisers"),
        help_text=_(
            "Accounts that manage this league besides the organising club's directors, "
            "for example a federation's competition secretary."
        ),
    )
    tables_per_match = models.PositiveSmallIntegerField(
        _("tables per match"),
        default=2,
        help_text=_("Each team brings one pair per table."),
    )
    games_per_table = models.PositiveSmallIntegerField(
        _("games per table"), default=1, help_text=_("Boompjes each table plays in a match.")
    )
    win_by = models.CharField(
        _("a match is won by"), max_length=10, choices=WinBy.choices, default=WinBy.TOTAL
    )
    points_rule = models.CharField(
        _("match points"), max_length=12, choices=PointsRule.choices, default=PointsRule.FIXED
    )
    points_win = models.PositiveSmallIntegerField(_("points for a win"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("points for a draw"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    points_shared = models.PositiveSmallIntegerField(
        _("points shared per match"),
        default=10,
        help_text=_("With proportional match points: split in proportion to the score."),
    )
    tie_breaks = models.JSONField(
        _("tie-break order"),
        default=default_tie_breaks,
        blank=True,
        help_text=_("After match points, in this order; teams still equal share the place."),
    )
    is_public = models.BooleanField(
        _("public"),
        default=True,
        help_text=_("Anyone may read the schedule and the tables."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    version = models.BigIntegerField(
        _("version of its pages"),
        default=new_version,
        editable=False,
        help_text=_("New with every change its pages show: their ETags and cache keys."),
    )

    class Meta:
        db_table = "tournaments_league"  # the table from before leagues were their own app
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["-competition__start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(tables_per_match__gte=2) & Q(tables_per_match__lte=8),
                name="league_tables_per_match_range",
                violation_error_message=_("A match is played at 2 to 8 tables."),
            ),
            models.CheckConstraint(
                condition=Q(games_per_table__gte=1) & Q(games_per_table__lte=4),
                name="league_games_per_table_range",
                violation_error_message=_("Each table plays 1 to 4 games in a match."),
            ),
            models.CheckConstraint(
                condition=Q(points_win__gte=F("points_draw"))
                & Q(points_draw__gte=F("points_loss")),
                name="league_points_in_order",
                violation_error_message=_(
                    "A win is worth at least a draw, and a draw at least a loss."
                ),
            ),
            models.CheckConstraint(
                condition=Q(points_shared__gte=1),
                name="league_points_shared_positive",
                violation_error_message=_("Share at least one point per match."),
            ),
            models.CheckConstraint(
                condition=Q(win_by__in=enum_values(league_table.WinBy)),
                name="league_win_by_known",
            ),
            models.CheckConstraint(
                condition=Q(points_rule__in=enum_values(league_table.PointsRule)),
                name="league_points_rule_known",
            ),
        ]

    def __str__(self):
        return f"{self.name} {self.season}"

    def get_absolute_url(self):
        return reverse("leagues:league-detail", kwargs={"pk": self.pk})

    def clean(self):
        """The tie-break order names known tie-breaks, each once (the admin too)."""
        try:
            validate_tie_breaks(self.tie_breaks, self.TieBreak)
        except ValidationError as exc:
            raise ValidationError({"tie_breaks": exc}) from exc

    @property
    def club(self):
        """The organising club."""
        return self.competition.club

    def scoring(self) -> league_table.Scoring:
        """The league's match and ranking rules as a value of the pure table module."""
        return league_table.Scoring(
            win_by=self.win_by,
            points_rule=self.points_rule,
            win=self.points_win,
            draw=self.points_draw,
            loss=self.points_loss,
            shared=self.points_shared,
            tie_breaks=tuple(self.tie_breaks),
        )


class Division(models.Model):
    """A division (*klasse*, *poule*) of a league; level 1 is the top, one division per level."""

    league = models.ForeignKey(
        League, on_delete=models.PROTECT, related_name="divisions", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=60)
    level = models.PositiveSmallIntegerField(_("level"), help_text=_("1 is the top division."))
    promote = models.PositiveSmallIntegerField(
        _("promoted"), default=0, help_text=_("Teams that go up a division at the season's end.")
    )
    relegate = models.PositiveSmallIntegerField(
        _("relegated"),
        default=0,
        help_text=_("Teams that go down a division at the season's end."),
    )

    class Meta:
        db_table = "tournaments_division"  # the table from before leagues were their own app
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        ordering = ["league", "level"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "level"],
                name="division_level_unique",
                violation_error_message=_("This league already has a division at this level."),
            ),
            models.UniqueConstraint(
                fields=["league", "name"],
                name="division_name_unique",
                violation_error_message=_("This league already has a division of this name."),
            ),
            models.CheckConstraint(condition=Q(level__gte=1), name="division_level_positive"),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("leagues:division-table", kwargs={"pk": self.league_id, "division": self.pk})


class LeagueTeam(models.Model):
    """A club's team in one league season, with its players and captains."""

    league = models.ForeignKey(
        League, on_delete=models.PROTECT, related_name="teams", verbose_name=_("league")
    )
    division = models.ForeignKey(
        Division, on_delete=models.PROTECT, related_name="teams", verbose_name=_("division")
    )
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        related_name="league_teams",
        verbose_name=_("club"),
    )
    name = models.CharField(_("name"), max_length=120, help_text=_("For example 'De Troef 2'."))
    captains = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="captained_teams",
        verbose_name=_("captains"),
        help_text=_("Set the line-ups and confirm the team's matches."),
    )
    previous = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="next_seasons",
        verbose_name=_("last season's team"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        db_table = "tournaments_leagueteam"  # the table from before leagues were their own app
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "name"],
                name="league_team_name_unique",
                violation_error_message=_("This league already has a team of this name."),
            ),
            models.CheckConstraint(condition=~Q(name=""), name="league_team_name_not_empty"),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("leagues:team-detail", kwargs={"pk": self.league_id, "team": self.pk})

    def clean(self):
        from django.core.exceptions import ValidationError

        if self.division_id and self.league_id and self.division.league_id != self.league_id:
            raise ValidationError({"division": _("This division is of another league.")})


class TeamPlayer(models.Model):
    """A player of a team; a player plays for one team per league (the database holds it)."""

    team = models.ForeignKey(
        LeagueTeam, on_delete=models.CASCADE, related_name="players", verbose_name=_("team")
    )
    league = models.ForeignKey(
        League, on_delete=models.PROTECT, related_name="+", verbose_name=_("league")
    )
    member = models.ForeignKey(
        "clubs.Member",
        on_delete=models.PROTECT,
        related_name="league_places",
        verbose_name=_("player"),
    )

    class Meta:
        db_table = "tournaments_teamplayer"  # the table from before leagues were their own app
        verbose_name = _("team player")
        verbose_name_plural = _("team players")
        ordering = ["member__name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "member"],
                name="team_player_one_team_per_league",
                violation_error_message=_("This player already plays for a team in this league."),
            ),
        ]

    def __str__(self):
        return f"{self.member} · {self.team}"


class LeagueMatch(models.Model):
    """One match of the schedule: ``home`` hosts ``away`` on ``date``."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        SEATED = "seated", _("tables ready")
        CONFIRMED = "confirmed", _("confirmed by both captains")

    league = models.ForeignKey(
        League, on_delete=models.PROTECT, related_name="matches", verbose_name=_("league")
    )
    division = models.ForeignKey(
        Division, on_delete=models.PROTECT, related_name="matches", verbose_name=_("division")
    )
    matchday = models.PositiveSmallIntegerField(_("matchday"))
    date = models.DateField(_("date"))
    home = models.ForeignKey(
        LeagueTeam,
        on_delete=models.PROTECT,
        related_name="home_matches",
        verbose_name=pgettext_lazy("match", "home"),
    )
    away = models.ForeignKey(
        LeagueTeam,
        on_delete=models.PROTECT,
        related_name="away_matches",
        verbose_name=pgettext_lazy("match", "away"),
    )
    evening = models.ForeignKey(
        "tournaments.Evening",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="league_matches",
        verbose_name=_("matchday evening"),
        help_text=_("Set when the match is seated: its tables are rounds of this evening."),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED
    )
    confirmed_home_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed for the home team by"),
    )
    confirmed_home_at = models.DateTimeField(_("home team confirmed at"), null=True, blank=True)
    confirmed_away_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed for the away team by"),
    )
    confirmed_away_at = models.DateTimeField(_("away team confirmed at"), null=True, blank=True)

    class Meta:
        db_table = "tournaments_leaguematch"  # the table from before leagues were their own app
        verbose_name = _("league match")
        verbose_name_plural = _("league matches")
        ordering = ["date", "division__level", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(home=F("away")),
                name="league_match_two_teams",
                violation_error_message=_("A team cannot play itself."),
            ),
            models.UniqueConstraint(
                fields=["division", "home", "away"],
                name="league_match_once_per_venue",
                violation_error_message=_("These teams already meet at this venue."),
            ),
            models.CheckConstraint(
                condition=Q(matchday__gte=1), name="league_match_matchday_positive"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["scheduled", "seated", "confirmed"]),
                name="league_match_status_known",
            ),
            models.CheckConstraint(
                condition=Q(status="scheduled", evening__isnull=True)
                | Q(status__in=["seated", "confirmed"], evening__isnull=False),
                name="league_match_seated_has_evening",
            ),
            models.CheckConstraint(
                condition=~Q(status="confirmed")
                | Q(confirmed_home_at__isnull=False, confirmed_away_at__isnull=False),
                name="league_match_confirmed_by_both",
            ),
        ]

    def __str__(self):
        return f"{self.home} – {self.away}"

    def get_absolute_url(self):
        return reverse("leagues:match-detail", kwargs={"pk": self.league_id, "match": self.pk})

    def team(self, side):
        return self.home if side == "home" else self.away


class MatchTable(models.Model):
    """One table of one game of a match: which pairs sit there, and the home team's side."""

    Side = TeamChoices

    match = models.ForeignKey(
        LeagueMatch, on_delete=models.PROTECT, related_name="tables", verbose_name=_("match")
    )
    table = models.OneToOneField(
        "tournaments.Table",
        on_delete=models.PROTECT,
        related_name="league_slot",
        verbose_name=_("table"),
    )
    game_number = models.PositiveSmallIntegerField(_("game"))
    table_number = models.PositiveSmallIntegerField(_("table"))
    home_pair = models.PositiveSmallIntegerField(_("home pair"))
    away_pair = models.PositiveSmallIntegerField(_("away pair"))
    home_side = models.CharField(_("home team sits"), max_length=1, choices=Side.choices)

    class Meta:
        db_table = "tournaments_matchtable"  # the table from before leagues were their own app
        verbose_name = _("match table")
        verbose_name_plural = _("match tables")
        ordering = ["match", "game_number", "table_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "game_number", "table_number"], name="match_table_unique"
            ),
            models.CheckConstraint(
                condition=Q(home_side__in=TeamChoices.values), name="match_table_home_side_known"
            ),
            models.CheckConstraint(
                condition=Q(game_number__gte=1, table_number__gte=1, home_pair__gte=1)
                & Q(away_pair__gte=1),
                name="match_table_numbers_positive",
            ),
        ]

    def __str__(self):
        return _("%(match)s · game %(game)s · table %(table)s") % {
            "match": self.match,
            "game": self.game_number,
            "table": self.table_number,
        }

    @property
    def away_side(self):
        return "B" if self.home_side == "A" else "A"


class LeagueLog(models.Model):
    """What the organisers and captains did: schedule, moves, line-ups, confirmations."""

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="log", verbose_name=_("league")
    )
    match = models.ForeignKey(
        LeagueMatch,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="log",
        verbose_name=_("match"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    summary = models.CharField(_("summary"), max_length=300)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        db_table = "tournaments_leaguelog"  # the table from before leagues were their own app
        verbose_name = _("league log entry")
        verbose_name_plural = _("league log")
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return self.summary
