"""Reads for the league pages and exports, each in a fixed number of queries.

A match's score is read from its games' stored totals (``Game.total_a`` /
``total_b``, the hands' sums) plus the adjustments given to a team of a game
(verzaken's 162 + 100), each put in the home or away column by the table's
``MatchTable.home_side``. Nothing here re-scores a hand; ``leagues.table``
turns the scores into match points and tables.

A match *counts* in the league table when both captains confirmed it and all
its games are confirmed; a match whose games are all confirmed but not (yet)
the captains' is *provisional*: shown in the schedule with its score, not in
the table.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Q, Sum

from clubs.models import Club, ClubRole
from clubs.permissions import Capability, roles_with
from common.formatting import format_decimal, round_half_up
from scoring.models import Adjustment, Game
from tournaments.models import Seat

from . import schedule
from . import table as league_table
from .models import Division, League, LeagueMatch, LeagueTeam, MatchTable

#: Decimals of proportional match points, on pages and in files.
POINTS_DECIMALS = 2


def format_points(value) -> str:
    """Match points as pages and files show them: whole, or with two decimals."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return format_decimal(value, POINTS_DECIMALS)


def points_value(value):
    """Match points as a spreadsheet number: an int, or a float rounded to 2 decimals."""
    value = Fraction(value)
    if value.denominator == 1:
        return value.numerator
    return float(round_half_up(value, POINTS_DECIMALS))  # as format_points shows it


# --- Which leagues a user may see -------------------------------------------------------------


def visible_leagues(user):
    leagues = League.objects.select_related("competition__club")
    if user.is_authenticated and user.is_superuser:
        return leagues
    if not user.is_authenticated:
        return leagues.filter(is_public=True)
    clubs = ClubRole.objects.filter(user=user).values("club_id")
    return leagues.filter(
        Q(is_public=True)
        | Q(competition__club__in=clubs)
        | Q(organisers=user)
        | Q(teams__club__in=clubs)
        | Q(teams__captains=user)
    ).distinct()


def league_queryset():
    return League.objects.select_related("competition__club")


def league_page_version(*, league) -> str:
    """The version of ``league``'s pages (``leagues.versions``): its own, its
    competition's (the matchdays' results), and its clubs' (their names and their
    members'), read from ``league`` as :func:`league_queryset` loads it and one query."""
    clubs = (
        Club.objects.filter(Q(league_teams__league=league) | Q(pk=league.competition.club_id))
        .distinct()
        .order_by("pk")
        .values_list("pk", "version")
    )
    return ".".join(
        [str(league.version), str(league.competition.version)]
        + [f"{pk}:{version}" for pk, version in clubs]
    )


# --- Match scores -----------------------------------------------------------------------------


@dataclass
class MatchScore:
    """A match's games as (home points, away points), in game and table order."""

    games: list = field(default_factory=list)
    confirmed_games: int = 0
    expected: int = 0

    @property
    def complete(self):
        """Every game of the match is played and confirmed at its table."""
        return self.expected > 0 and self.confirmed_games == self.expected

    @property
    def home_points(self):
        return sum(a for a, _b in self.games)

    @property
    def away_points(self):
        return sum(b for _a, b in self.games)

    def outcome(self, scoring):
        return league_table.score_match(self.games, scoring)


def match_scores(matches) -> dict:
    """{match id: MatchScore} for the ``LeagueMatch`` queryset ``matches``. Two queries,
    whatever the number of matches."""
    ids = matches.values("pk")
    slots = (
        MatchTable.objects.filter(match__in=ids)
        .order_by("match_id", "game_number", "table_number")
        .values_list(
            "match_id",
            "home_side",
            "table__game__id",
            "table__game__total_a",
            "table__game__total_b",
            "table__game__status",
            "match__league__tables_per_match",
            "match__league__games_per_table",
        )
    )
    adjustments = defaultdict(int)
    for game_id, team, points in (
        Adjustment.objects.filter(game__table__league_slot__match__in=ids)
        .values("game_id", "team")
        .annotate(points=Sum("points"))
        .values_list("game_id", "team", "points")
        .order_by()
    ):
        adjustments[(game_id, team)] += points
    scores = {}
    for match_id, home_side, game_id, total_a, total_b, status, tables, games in slots:
        score = scores.setdefault(match_id, MatchScore(expected=tables * games))
        a = total_a + adjustments[(game_id, "A")]
        b = total_b + adjustments[(game_id, "B")]
        score.games.append((a, b) if home_side == "A" else (b, a))
        if status == Game.Status.CONFIRMED:
            score.confirmed_games += 1
    return scores


# --- League tables ------------------------------------------------------------------------------


@dataclass
class TableLine:
    """A team's line of a division table, with its team object."""

    row: league_table.TableRow
    team: LeagueTeam

    @property
    def match_points(self):
        return format_points(self.row.match_points)

    def __getattr__(self, name):
        if name in ("row", "team"):
            raise AttributeError(name)
        return getattr(self.row, name)


@dataclass
class DivisionTable:
    division: Division
    lines: list
    counted: int = 0
    provisional: int = 0
    matches: int = 0

    @property
    def finished(self):
        return self.matches > 0 and self.counted == self.matches


def tables_for(leagues) -> dict:
    """{league id: [DivisionTable, ...]} for several leagues in five queries (divisions,
    teams, matches, and the two of :func:`match_scores`)."""
    leagues = {league.pk: league for league in leagues}
    if not leagues:
        return {}
    divisions = list(Division.objects.filter(league_id__in=leagues).order_by("league_id", "level"))
    teams = defaultdict(list)
    for team in LeagueTeam.objects.filter(league_id__in=leagues).select_related("club"):
        teams[team.division_id].append(team)
    matches = defaultdict(list)
    for match in LeagueMatch.objects.filter(league_id__in=leagues).order_by():
        matches[match.division_id].append(match)
    scores = match_scores(LeagueMatch.objects.filter(league_id__in=leagues))
    result = defaultdict(list)
    for division in divisions:
        league = leagues[division.league_id]
        by_pk = {team.pk: team for team in teams[division.pk]}
        results, provisional = [], 0
        for match in matches[division.pk]:
            score = scores.get(match.pk)
            if score is None or not score.complete:
                continue
            if match.status != LeagueMatch.Status.CONFIRMED:
                provisional += 1
                continue
            results.append(
                league_table.MatchResult(
                    home=by_pk[match.home_id], away=by_pk[match.away_id], games=tuple(score.games)
                )
            )
        rows = league_table.league_table(
            by_pk.values(), results, league.scoring(), name=lambda team: team.name
        )
        result[league.pk].append(
            DivisionTable(
                division=division,
                lines=[TableLine(row=row, team=row.team) for row in rows],
                counted=len(results),
                provisional=provisional,
                matches=len(matches[division.pk]),
            )
        )
    return result


def division_tables(*, league) -> list[DivisionTable]:
    """Every division's table of one league (divisions top first)."""
    return tables_for([league]).get(league.pk, [])


# --- Club ranking and history -------------------------------------------------------------------


@dataclass
class ClubLine:
    club: Club
    place: int
    shared: bool
    teams: list  # [(overall position, team)]


def club_ranking(*, league) -> list[ClubLine]:
    tables = division_tables(league=league)
    standings = [
        league_table.DivisionStanding(level=t.division.level, rows=[line.row for line in t.lines])
        for t in tables
    ]
    club_of = {line.team: line.team.club for t in tables for line in t.lines}
    rows = league_table.club_ranking(standings, club_of, name=lambda club: club.name)
    return [
        ClubLine(
            club=row.club,
            place=row.place,
            shared=row.shared,
            teams=list(zip(row.positions, row.teams, strict=True)),
        )
        for row in rows
    ]


@dataclass
class HistoryLine:
    league: League
    team: LeagueTeam
    division: Division
    line: TableLine
    teams_in_division: int
    finished: bool


def club_history(*, club, leagues) -> list[HistoryLine]:
    """The club's teams in every league of ``leagues`` (a queryset the user may see),
    newest season first, with their place in their division."""
    teams = list(
        LeagueTeam.objects.filter(club=club, league__in=leagues).select_related(
            "league__competition", "division"
        )
    )
    tables = tables_for({team.league for team in teams})
    lines = []
    for team in teams:
        for table in tables.get(team.league_id, []):
            if table.division.pk != team.division_id:
                continue
            line = next(line for line in table.lines if line.team.pk == team.pk)
            lines.append(
                HistoryLine(
                    league=team.league,
                    team=team,
                    division=team.division,
                    line=line,
                    teams_in_division=len(table.lines),
                    finished=table.finished,
                )
            )
    lines.sort(
        key=lambda h: (
            -h.league.competition.start_date.toordinal(),
            h.league.name,
            h.division.level,
            h.team.name,
        )
    )
    return lines


# --- Schedule -------------------------------------------------------------------------------------


@dataclass
class ScheduleLine:
    match: LeagueMatch
    score: MatchScore | None
    outcome: league_table.MatchOutcome | None

    @property
    def counted(self):
        return self.outcome is not None and self.match.status == LeagueMatch.Status.CONFIRMED


def league_schedule(*, league, division=None, team=None, evening=None) -> list[ScheduleLine]:
    """The league's matches by date with their scores (three queries); ``evening``:
    those of one matchday."""
    matches = LeagueMatch.objects.filter(league=league).select_related(
        "home__club", "away__club", "division"
    )
    if division is not None:
        matches = matches.filter(division=division)
    if team is not None:
        matches = matches.filter(Q(home=team) | Q(away=team))
    if evening is not None:
        matches = matches.filter(evening=evening)
    matches = list(matches.order_by("date", "division__level", "matchday", "pk"))
    scores = match_scores(LeagueMatch.objects.filter(league=league)) if matches else {}
    scoring = league.scoring()
    lines = []
    for match in matches:
        score = scores.get(match.pk)
        outcome = score.outcome(scoring) if score is not None and score.complete else None
        lines.append(ScheduleLine(match=match, score=score, outcome=outcome))
    return lines


# --- One match --------------------------------------------------------------------------------


@dataclass
class SheetTable:
    """One table of one game of a match, as the match page and the match form show it."""

    game_number: int
    table_number: int
    home_pair: int
    away_pair: int
    home_side: str
    home_names: list
    away_names: list
    table: object = None
    game: object = None
    home_points: int | None = None
    away_points: int | None = None

    @property
    def away_side(self):
        return "B" if self.home_side == "A" else "A"


@dataclass
class MatchSheet:
    match: LeagueMatch
    tables: list
    lineups: dict  # {"home": [Member | None, ...], "away": [...]}
    score: MatchScore | None
    outcome: league_table.MatchOutcome | None

    @property
    def games(self):
        """The tables grouped by game: [(game number, [SheetTable, ...]), ...]."""
        grouped = defaultdict(list)
        for table in self.tables:
            grouped[table.game_number].append(table)
        return sorted(grouped.items())


def match_queryset():
    return LeagueMatch.objects.select_related(
        "league__competition__club",
        "division",
        "home__club",
        "away__club",
        "evening",
        "confirmed_home_by",
        "confirmed_away_by",
    )


def match_sheet(*, match) -> MatchSheet:
    """A match's tables with seats, games and scores; a match that is not seated yet
    shows the seating plan with empty names. Three queries once seated."""
    league = match.league
    tables_per_match = league.tables_per_match
    lineups = {"home": [None] * 2 * tables_per_match, "away": [None] * 2 * tables_per_match}
    tables = []
    score, outcome = None, None
    if match.status == LeagueMatch.Status.SCHEDULED:
        for slot in schedule.match_seating(tables_per_match, league.games_per_table):
            tables.append(
                SheetTable(
                    game_number=slot.game,
                    table_number=slot.table,
                    home_pair=slot.home_pair,
                    away_pair=slot.away_pair,
                    home_side=slot.home_side,
                    home_names=["", ""],
                    away_names=["", ""],
                )
            )
        return MatchSheet(match=match, tables=tables, lineups=lineups, score=None, outcome=None)
    slots = list(
        MatchTable.objects.filter(match=match)
        .select_related("table__game")
        .order_by("game_number", "table_number")
    )
    seats = defaultdict(dict)
    for seat in Seat.objects.filter(table__league_slot__match=match).select_related("member"):
        seats[seat.table_id][seat.position] = seat
    score = match_scores(LeagueMatch.objects.filter(pk=match.pk)).get(match.pk)
    for index, slot in enumerate(slots):
        by_position = seats[slot.table_id]
        names = {}
        for side, pair, own in (
            ("home", slot.home_pair, slot.home_side),
            ("away", slot.away_pair, slot.away_side),
        ):
            pair_seats = [by_position.get(p) for p in ("NS" if own == "A" else "EW")]
            names[side] = [s.player_name if s is not None else "" for s in pair_seats]
            for offset, seat in enumerate(pair_seats):
                if seat is not None and seat.member_id is not None:
                    lineups[side][2 * pair - 2 + offset] = seat.member
        game_score = score.games[index] if score is not None else (None, None)
        tables.append(
            SheetTable(
                game_number=slot.game_number,
                table_number=slot.table_number,
                home_pair=slot.home_pair,
                away_pair=slot.away_pair,
                home_side=slot.home_side,
                home_names=names["home"],
                away_names=names["away"],
                table=slot.table,
                game=slot.table.game,
                home_points=game_score[0],
                away_points=game_score[1],
            )
        )
    if score is not None and score.complete:
        outcome = score.outcome(league.scoring())
    return MatchSheet(match=match, tables=tables, lineups=lineups, score=score, outcome=outcome)


def league_overview(*, league):
    """The league page: divisions with their teams (two queries)."""
    divisions = list(league.divisions.order_by("level"))
    teams = defaultdict(list)
    for team in league.teams.select_related("club").order_by("name"):
        teams[team.division_id].append(team)
    return [(division, teams[division.pk]) for division in divisions]


def team_page(*, team):
    """A team's players and captains."""
    players = list(team.players.select_related("member").order_by("member__name"))
    captains = list(team.captains.order_by("username"))
    return players, captains


def enrolable_clubs(*, user):
    """The clubs whose team ``user``, an organiser of the league, may enrol in it
    (``services.can_enrol``): those in which they are a director or administrator;
    every club for a site operator. Only the organisers' page asks (the view lets
    organisers alone in, and ``services.team_create`` checks ``can_enrol`` itself):
    a selector asks no service."""
    if user.is_superuser:
        return Club.objects.order_by("name")
    roles = roles_with(Capability.RUN_COMPETITIONS)
    return Club.objects.filter(roles__user=user, roles__role__in=roles).distinct().order_by("name")


def captain_candidates(*, team):
    """Accounts that may become captain: linked to a member of the team's club, or
    holding a role in it."""
    from django.contrib.auth import get_user_model

    return (
        get_user_model()
        .objects.filter(Q(memberships__club=team.club) | Q(club_roles__club=team.club))
        .distinct()
        .order_by("username")
    )
