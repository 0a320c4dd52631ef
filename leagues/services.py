"""Every way a league changes: settings, divisions, teams, schedule, line-ups, confirmation.

Keyword-only, one transaction each, permission checked in the service itself;
an organiser's or captain's mistake raises a translated ``ValidationError`` and
changes nothing, a missing right raises ``PermissionDenied``.

Who may do what
---------------
- **Organisers** (:func:`can_manage`): the directors and administrators of the
  organising club (club roles), and the accounts named in ``League.organisers``
  (a federation's secretary). They set up the league, its divisions and teams,
  generate the schedule, move matches, set line-ups for any team, confirm a
  match for a captain who cannot, reopen a confirmed match and start the next
  season. Organisers of another league have no right here.
- **Captains** (``LeagueTeam.captains``): set their own team's line-up and
  confirm their own team's matches; nothing of other teams.
- **Enrolling a club's team** (:func:`can_enrol`) is for someone who may act for
  that club *and* manage the league: a director or administrator of the team's
  club who is an organiser. An organiser cannot enrol another club: a league
  between clubs works by the organising club naming the other club's director as
  an organiser (``League.organisers``), who then enrols their own club. The same
  holds for every team the next season carries over.
- **The team's club** (its directors) and the captains keep the team's player
  list, its directors name the captains; players and captains come from the
  team's own club only (its members; accounts with a role in it or linked to one
  of its members). The league's organisers do not: they may be other clubs'
  people, and the lists name the club's members and accounts.
- **Game entry** is the table's private link, as on a club evening: the match
  page shows the links to the captains and organisers, and the other team
  confirms each game at the table (``scoring.services.game_confirm``).
  Corrections are the organising club's directors', on the matchday evening's
  score pages (``scoring.services.game_enter_sheet``).

A match's life
--------------
``scheduled`` (by :func:`schedule_generate`, movable by :func:`match_move`) ->
``seated`` (the first line-up creates the rounds, tables and games, see
``leagues.models``; both line-ups fill the seats; line-ups can change
until the first hand) -> games entered and confirmed at the tables ->
``confirmed`` once both captains confirmed (:func:`match_confirm`), which needs
every game of the match confirmed. Only confirmed matches count in the table.
"""

import datetime
import random

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, ClubRole, Member
from clubs.permissions import Capability, may, require
from scoring import services as scoring_services
from scoring.models import Adjustment, Game, Hand
from scoring.results.services import evening_totals_store
from tournaments.models import Competition, Evening, Round, Seat, Table
from tournaments.services import RULE_FIELDS

from . import schedule
from . import table as league_table
from .models import (
    Division,
    League,
    LeagueLog,
    LeagueMatch,
    LeagueTeam,
    MatchTable,
    TeamPlayer,
)
from .versions import leagues_touch

FORMAT_FIELDS = (
    "tables_per_match",
    "games_per_table",
    "win_by",
    "points_rule",
    "points_win",
    "points_draw",
    "points_loss",
    "points_shared",
    "tie_breaks",
)
LEAGUE_FIELDS = ("name", "season", "is_public", *FORMAT_FIELDS)
SIDES = ("home", "away")


# --- Who may do what -----------------------------------------------------------------------


def _user_ok(user):
    return user is not None and user.is_authenticated


def can_manage(user, league) -> bool:
    """Organisers: the organising club's directors, and the league's named organisers."""
    if not _user_ok(user):
        return False
    if may(user, league.club, Capability.RUN_COMPETITIONS):
        return True
    return league.organisers.filter(pk=user.pk).exists()


def require_organiser(user, league):
    if not can_manage(user, league):
        raise PermissionDenied(_("Only the league's organisers may do this."))


def is_captain(user, team) -> bool:
    return _user_ok(user) and team.captains.filter(pk=user.pk).exists()


def can_manage_team(user, team) -> bool:
    """The team's player list: its captains and its club's directors. Not the league's
    organisers as such: they may be other clubs' people, and the player form lists
    the club's members."""
    return is_captain(user, team) or (
        _user_ok(user) and may(user, team.club, Capability.RUN_COMPETITIONS)
    )


def account_tied_elsewhere(*, user, club) -> bool:
    """Whether the account acts in a league for another club than ``club``: a captain
    of another club's team, or a named organiser of another club's league. Such an
    account is not ``club``'s alone (``clubs.permissions.account_confined_to``)."""
    if LeagueTeam.objects.filter(captains=user).exclude(club=club).exists():
        return True
    return League.objects.filter(organisers=user).exclude(competition__club=club).exists()


def require_team_manager(user, team):
    if not can_manage_team(user, team):
        raise PermissionDenied(_("Only the team's captains or its club's directors may do this."))


def can_enrol(user, league, club) -> bool:
    """Whether ``user`` may enrol a team of ``club`` in ``league``: a director (or
    administrator) of that club who may also manage the league."""
    return can_manage(user, league) and may(user, club, Capability.RUN_COMPETITIONS)


def require_enroller(user, league, club):
    if not can_enrol(user, league, club):
        raise PermissionDenied(
            _("Only a director of the team's club who organises the league enrols its team.")
        )


def can_name_captains(user, team) -> bool:
    """The team's captains are named by its club's directors (the list names its accounts)."""
    return _user_ok(user) and may(user, team.club, Capability.RUN_COMPETITIONS)


def require_captain_namer(user, team):
    if not can_name_captains(user, team):
        raise PermissionDenied(_("Only the team's club's directors name its captains."))


def can_view(user, league) -> bool:
    """A public league is everyone's; otherwise its organisers' and its clubs' people."""
    if league.is_public or can_manage(user, league):
        return True
    if not _user_ok(user):
        return False
    clubs = [league.competition.club_id, *league.teams.values_list("club_id", flat=True)]
    if ClubRole.objects.filter(user=user, club_id__in=clubs).exists():
        return True
    return LeagueTeam.objects.filter(league=league, captains=user).exists()


def _clean_save(obj):
    obj.full_clean()
    obj.save()
    return obj


def _log(league, by, summary, match=None):
    LeagueLog.objects.create(
        league=league, match=match, user=by if _user_ok(by) else None, summary=summary[:300]
    )


# --- The league and its divisions ---------------------------------------------------------


def _check_settings(league, competition):
    from scoring.rules import InvalidRuleset

    league.clean()  # the tie-breaks, before the competition is saved
    try:
        competition.ruleset()
    except InvalidRuleset as exc:
        raise ValidationError({"ruleset_overrides": str(exc)}) from exc


@transaction.atomic
def league_create(
    *,
    club: Club,
    by,
    name: str,
    season: str,
    start_date: datetime.date,
    end_date: datetime.date,
    ruleset_preset: str | None = None,
    ruleset_overrides: dict | None = None,
    hands_per_game: int = 16,
    divisions: int = 1,
    **fields,
) -> League:
    """A league season organised by ``club``, with its container competition and
    ``divisions`` divisions named "Division 1", "Division 2", ..."""
    require(by, club, Capability.RUN_COMPETITIONS)
    return _league_create(
        club=club,
        by=by,
        name=name,
        season=season,
        start_date=start_date,
        end_date=end_date,
        ruleset_preset=ruleset_preset,
        ruleset_overrides=ruleset_overrides,
        hands_per_game=hands_per_game,
        divisions=divisions,
        **fields,
    )


def _league_create(
    *,
    club,
    by,
    name,
    season,
    start_date,
    end_date,
    ruleset_preset,
    ruleset_overrides,
    hands_per_game,
    divisions,
    **fields,
):
    unknown = set(fields) - set(LEAGUE_FIELDS)
    if unknown:
        raise ValueError(f"league_create does not take {sorted(unknown)}")
    competition = Competition(
        club=club,
        name=f"{name} {season}".strip()[:120],
        format=Competition.Format.LEAGUE,
        kind=Competition.Kind.PAIRS,
        start_date=start_date,
        end_date=end_date,
        ruleset_preset=ruleset_preset or club.ruleset_preset,
        ruleset_overrides=dict(
            club.ruleset_overrides if ruleset_overrides is None else ruleset_overrides
        ),
        hands_per_game=hands_per_game,
        rounds_per_evening=fields.get("games_per_table", 1),
    )
    league = League(name=name, season=season, **fields)
    _check_settings(league, competition)
    _clean_save(competition)
    league.competition = competition
    _clean_save(league)
    for level in range(1, divisions + 1):
        _clean_save(
            Division(league=league, level=level, name=_("Division %(level)s") % {"level": level})
        )
    _log(league, by, _("League created"))
    return league


def club_delete_check(*, club: Club) -> None:
    """Refuse to delete a club while a league of other clubs depends on it: its team
    plays in another club's league, or it organises a league with other clubs' teams
    (asked by ``clubs.services.club_delete`` through ``clubs.signals.club_deleting``)."""
    if (
        LeagueTeam.objects.filter(club=club).exclude(league__competition__club=club).exists()
        or LeagueTeam.objects.filter(league__competition__club=club).exclude(club=club).exists()
    ):
        raise ValidationError(
            _("This club plays in a league with other clubs. End its part in the league first.")
        )


def league_has_play(league) -> bool:
    return Hand.objects.filter(game__table__league_slot__match__league=league).exists()


@transaction.atomic
def league_update(*, league: League, by, **fields) -> League:
    """Change a league's settings. The rule set and the match format are fixed once a
    match is seated; the scoring of matches (points, tie-breaks) may change until the
    season ends, and the tables follow."""
    require_organiser(by, league)
    league = League.objects.select_for_update().select_related("competition").get(pk=league.pk)
    competition = league.competition
    unknown = set(fields) - {*LEAGUE_FIELDS, *RULE_FIELDS, "start_date", "end_date"}
    if unknown:
        raise ValueError(f"league_update does not take {sorted(unknown)}")
    seated = league.matches.exclude(status=LeagueMatch.Status.SCHEDULED).exists()
    fixed = ("tables_per_match", "games_per_table", *RULE_FIELDS)
    for name in fixed:
        owner = competition if name in RULE_FIELDS else league
        if name in fields and fields[name] != getattr(owner, name) and seated:
            raise ValidationError(
                {
                    name: _(
                        "Matches have been seated; the rule set and the match format are fixed now."
                    )
                }
            )
    for name, value in fields.items():
        owner = competition if name in (*RULE_FIELDS, "start_date", "end_date") else league
        setattr(owner, name, value)
    competition.name = f"{league.name} {league.season}".strip()[:120]
    competition.rounds_per_evening = league.games_per_table
    _check_settings(league, competition)
    if league.matches.filter(
        Q(date__lt=competition.start_date) | Q(date__gt=competition.end_date)
    ).exists():
        raise ValidationError(
            {"start_date": _("Some matches would fall outside the season's dates.")}
        )
    _clean_save(competition)
    _clean_save(league)
    _log(league, by, _("Settings changed"))
    return league


@transaction.atomic
def league_organiser_add(*, league: League, user, by) -> None:
    """Name an extra organiser account (the organising club's directors already are)."""
    require(by, league.club, Capability.RUN_COMPETITIONS)
    league.organisers.add(user)
    _log(league, by, _("%(user)s is an organiser now") % {"user": user.get_username()})


@transaction.atomic
def league_organiser_remove(*, league: League, user, by) -> None:
    require(by, league.club, Capability.RUN_COMPETITIONS)
    league.organisers.remove(user)
    _log(league, by, _("%(user)s is no longer an organiser") % {"user": user.get_username()})


@transaction.atomic
def division_create(
    *, league: League, by, name: str, level: int, promote: int = 0, relegate: int = 0
) -> Division:
    require_organiser(by, league)
    division = Division(league=league, name=name, level=level, promote=promote, relegate=relegate)
    _clean_save(division)
    _log(league, by, _("Division %(name)s added") % {"name": name})
    return division


@transaction.atomic
def division_update(*, division: Division, by, **fields) -> Division:
    require_organiser(by, division.league)
    unknown = set(fields) - {"name", "level", "promote", "relegate"}
    if unknown:
        raise ValueError(f"division_update does not take {sorted(unknown)}")
    for name, value in fields.items():
        setattr(division, name, value)
    return _clean_save(division)


# --- Teams, players, captains ---------------------------------------------------------------


@transaction.atomic
def team_create(*, league: League, division: Division, club: Club, name: str, by) -> LeagueTeam:
    """Enrol a team of ``club``: only someone who may act for that club (its director)
    and manage the league (:func:`can_enrol`)."""
    require_enroller(by, league, club)
    if division.league_id != league.pk:
        raise ValidationError({"division": _("This division is of another league.")})
    if league.matches.filter(division=division).exists():
        raise ValidationError(
            {"division": _("This division has its schedule; generate it again to add a team.")}
        )
    team = LeagueTeam(league=league, division=division, club=club, name=(name or "").strip())
    _clean_save(team)
    _log(
        league, by, _("Team %(name)s added to %(division)s") % {"name": team, "division": division}
    )
    return team


@transaction.atomic
def team_update(*, team: LeagueTeam, by, name: str | None = None, division=None) -> LeagueTeam:
    require_organiser(by, team.league)
    if name is not None:
        team.name = name.strip()
    if division is not None and division.pk != team.division_id:
        if team.home_matches.exists() or team.away_matches.exists():
            raise ValidationError(
                {"division": _("This team has matches; it stays in its division this season.")}
            )
        team.division = division
    return _clean_save(team)


@transaction.atomic
def team_player_add(*, team: LeagueTeam, member: Member, by) -> TeamPlayer:
    require_team_manager(by, team)
    if member.club_id != team.club_id:
        raise ValidationError({"member": _("This player is not of the team's club.")})
    player = TeamPlayer(team=team, league=team.league, member=member)
    _clean_save(player)
    return player


@transaction.atomic
def team_player_remove(*, player: TeamPlayer, by) -> None:
    team = player.team
    require_team_manager(by, team)
    seated = Seat.objects.filter(
        table__league_slot__match__in=_team_matches(team), member=player.member
    )
    if seated.exists():
        raise ValidationError(_("This player is in a line-up; they stay on the team."))
    player.delete()


@transaction.atomic
def team_captain_add(*, team: LeagueTeam, user, by) -> None:
    from .selectors import captain_candidates

    require_captain_namer(by, team)
    if not captain_candidates(team=team).filter(pk=user.pk).exists():
        raise ValidationError({"user": _("A captain is an account of the team's club.")})
    team.captains.add(user)
    _log(
        team.league,
        by,
        _("%(user)s is captain of %(team)s") % {"user": user.get_username(), "team": team},
    )


@transaction.atomic
def team_captain_remove(*, team: LeagueTeam, user, by) -> None:
    require_captain_namer(by, team)
    team.captains.remove(user)


def _team_matches(team):
    return LeagueMatch.objects.filter(Q(home=team) | Q(away=team))


# --- The schedule ------------------------------------------------------------------------------


def _check_in_season(league, date, field="date"):
    competition = league.competition
    if not competition.start_date <= date <= competition.end_date:
        raise ValidationError(
            {
                field: _("%(date)s is outside the season (%(start)s to %(end)s).")
                % {
                    "date": date.isoformat(),
                    "start": competition.start_date.isoformat(),
                    "end": competition.end_date.isoformat(),
                }
            }
        )


@transaction.atomic
def schedule_generate(
    *,
    league: League,
    by,
    start_date: datetime.date,
    interval_days: int = 7,
    skip: tuple = (),
    seed=None,
) -> list[LeagueMatch]:
    """Every division's double round robin on common dates (``leagues.schedule``).

    Replaces the existing schedule as long as no match is seated; the teams of a
    division get their places in the schedule by lot (``seed`` makes it repeatable).
    """
    require_organiser(by, league)
    league = League.objects.select_for_update().select_related("competition").get(pk=league.pk)
    if league.matches.exclude(status=LeagueMatch.Status.SCHEDULED).exists():
        raise ValidationError(_("Matches have been seated; the schedule can no longer be redone."))
    rng = random.Random(seed)
    plans = []
    for division in league.divisions.order_by("level"):
        teams = list(division.teams.order_by("pk"))
        if not teams:
            continue
        if len(teams) < 2:
            raise ValidationError(
                _("%(division)s needs at least two teams.") % {"division": division.name}
            )
        rng.shuffle(teams)
        plans.append((division, schedule.double_round_robin(teams)))
    if not plans:
        raise ValidationError(_("Add teams to the divisions first."))
    try:
        dates = schedule.match_dates(
            start_date,
            max(len(days) for _d, days in plans),
            interval_days=interval_days,
            skip=skip,
        )
    except schedule.ScheduleError as exc:
        raise ValidationError({"interval_days": _("Matchdays are at least 7 days apart.")}) from exc
    _check_in_season(league, dates[0], "start_date")
    _check_in_season(league, dates[-1], "start_date")
    league.matches.all().delete()
    matches = [
        LeagueMatch(
            league=league,
            division=division,
            matchday=day.number,
            date=dates[day.number - 1],
            home=fixture.home,
            away=fixture.away,
        )
        for division, days in plans
        for day in days
        for fixture in day.fixtures
    ]
    LeagueMatch.objects.bulk_create(matches)
    leagues_touch([league.pk])
    _log(
        league,
        by,
        _("Schedule generated: %(count)s matches from %(start)s to %(end)s")
        % {"count": len(matches), "start": dates[0].isoformat(), "end": dates[-1].isoformat()},
    )
    return matches


def _lock_match(match):
    """The match's row, locked until the transaction ends, read afresh with its league.

    The league's row is locked first, in the order in which ``league_update`` and
    ``schedule_generate`` take them (the league, then its matches); every change of a
    match writes the league's row before its commit anyway (its page version). A
    line-up waits for those changes to commit and then reads the league's format as
    they left it, instead of seating with the format being replaced; and no two
    changes of a league and its matches wait for each other's rows (a deadlock: a
    server error for one of them). A match gone meanwhile (a schedule made again) is
    refused in words."""
    gone = ValidationError(_("This match is no longer in the schedule; open the schedule again."))
    locked = League.objects.select_for_update(of=("self",)).filter(matches=match.pk).order_by()
    if not locked.values_list("pk", flat=True):
        raise gone
    try:
        return (
            LeagueMatch.objects.select_for_update(of=("self",))
            .select_related("league__competition__club", "home", "away", "evening")
            .get(pk=match.pk)
        )
    except LeagueMatch.DoesNotExist:
        raise gone from None


def _match_has_play(match):
    return Hand.objects.filter(game__table__league_slot__match=match).exists()


def _week(date):
    return date.isocalendar()[:2]


def _check_free_week(match, date):
    teams = [match.home_id, match.away_id]
    others = (
        LeagueMatch.objects.filter(Q(home_id__in=teams) | Q(away_id__in=teams))
        .exclude(pk=match.pk)
        .values_list("date", flat=True)
    )
    for other_date in others:
        if _week(other_date) == _week(date):
            raise ValidationError(
                {
                    "date": _("A team of this match already plays in that week (%(date)s).")
                    % {"date": other_date.isoformat()}
                }
            )


def _matchday_evening(league, date):
    """The league's evening for ``date``, made when the first match of that day is seated."""
    evening = Evening.objects.filter(competition=league.competition, date=date).first()
    if evening is None:
        evening = _clean_save(Evening(competition=league.competition, date=date))
    if evening.status == Evening.Status.FINISHED:
        raise ValidationError(
            _("The matchday of %(date)s is closed; ask the organisers.") % {"date": date}
        )
    return evening


def _match_rounds(match):
    return Round.objects.filter(tables__league_slot__match=match).distinct().order_by("number")


@transaction.atomic
def match_move(*, match: LeagueMatch, date: datetime.date, by) -> LeagueMatch:
    """Move a match to another date (before its first hand); a seated match takes its
    tables along to that date's matchday evening."""
    match = _lock_match(match)
    league = match.league
    require_organiser(by, league)
    if _match_has_play(match):
        raise ValidationError(_("This match has started; it stays on its date."))
    _check_in_season(league, date)
    _check_free_week(match, date)
    old_date, old_evening = match.date, match.evening
    match.date = date
    if old_evening is not None and old_evening.date != date:
        evening = _matchday_evening(league, date)
        number = evening.rounds.aggregate(n=Max("number"))["n"] or 0
        rounds = list(_match_rounds(match))
        for round_ in rounds:
            number += 1
            round_.evening = evening
            round_.number = number
            round_.save(update_fields=["evening", "number"])
        Adjustment.objects.filter(round__in=rounds).update(evening=evening)
        match.evening = evening
        if evening.status == Evening.Status.PLANNED:
            evening.status = Evening.Status.IN_PLAY
            evening.save(update_fields=["status"])
    _clean_save(match)
    if old_evening is not None and old_evening.pk != match.evening_id:
        _drop_if_empty(old_evening)
    _log(
        league,
        by,
        _("%(match)s moved from %(old)s to %(new)s")
        % {"match": match, "old": old_date.isoformat(), "new": date.isoformat()},
        match=match,
    )
    return match


def _drop_if_empty(evening):
    if not (
        evening.rounds.exists()
        or evening.adjustments.exists()
        or evening.attendances.exists()
        or evening.league_matches.exists()
    ):
        evening.log.all().delete()
        evening.delete()


# --- Line-ups and seating -------------------------------------------------------------------


def _seat_match(match):
    """Create the match's rounds, tables and games on its matchday evening."""
    league = match.league
    evening = _matchday_evening(league, match.date)
    first = (evening.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    rounds = {
        game: Round.objects.create(evening=evening, number=first + game - 1)
        for game in range(1, league.games_per_table + 1)
    }
    links, tables = [], []
    for slot in schedule.match_seating(league.tables_per_match, league.games_per_table):
        table = Table.objects.create(round=rounds[slot.game], number=slot.table)
        tables.append(table)
        links.append(
            MatchTable(
                match=match,
                table=table,
                game_number=slot.game,
                table_number=slot.table,
                home_pair=slot.home_pair,
                away_pair=slot.away_pair,
                home_side=slot.home_side,
            )
        )
    scoring_services.games_create(tables=tables, ruleset=league.competition.ruleset())
    MatchTable.objects.bulk_create(links)
    if evening.status == Evening.Status.PLANNED:
        evening.status = Evening.Status.IN_PLAY
        evening.save(update_fields=["status"])
    match.evening = evening
    match.status = LeagueMatch.Status.SEATED
    match.save(update_fields=["evening", "status"])


@transaction.atomic
def match_lineup_set(*, match: LeagueMatch, side: str, players: list[Member], by) -> LeagueMatch:
    """Set one team's line-up: ``players`` in order, pair 1 first (two per table).

    The first line-up seats the match; a line-up can change until the first hand.
    """
    match = _lock_match(match)
    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}")
    team = match.team(side)
    league = match.league
    if not (can_manage(by, league) or is_captain(by, team)):
        raise PermissionDenied(_("Only a captain of this team or the organisers set its line-up."))
    if match.status == LeagueMatch.Status.CONFIRMED or _match_has_play(match):
        raise ValidationError(_("This match has started; its line-ups are fixed."))
    needed = 2 * league.tables_per_match
    ids = [player.pk for player in players]
    if len(ids) != needed or None in ids:
        raise ValidationError(
            {"players": _("Choose %(count)s players: two for each table.") % {"count": needed}}
        )
    if len(set(ids)) != len(ids):
        raise ValidationError({"players": _("Each player once.")})
    on_team = set(team.players.values_list("member_id", flat=True))
    strangers = [player.name for player in players if player.pk not in on_team]
    if strangers:
        raise ValidationError(
            {"players": _("Not on the team: %(names)s.") % {"names": ", ".join(sorted(strangers))}}
        )
    if match.status == LeagueMatch.Status.SCHEDULED:
        _seat_match(match)
    slots = list(match.tables.select_related("table"))
    old = Q(pk__in=[])
    seats = []
    for slot in slots:
        own_side = slot.home_side if side == "home" else slot.away_side
        pair = slot.home_pair if side == "home" else slot.away_pair
        positions = Seat.SEATS_OF[own_side]
        old |= Q(table=slot.table, position__in=positions)
        for position, member_id in zip(positions, ids[2 * pair - 2 : 2 * pair], strict=True):
            seats.append(
                Seat(
                    round_id=slot.table.round_id,
                    table=slot.table,
                    position=position,
                    member_id=member_id,
                )
            )
    Seat.objects.filter(old).delete()
    Seat.objects.bulk_create(seats)
    # the seats, deleted and inserted in bulk, send no signal: the league's pages get a
    # new version, and the matchday evening passes through the results' one writer, as
    # every change below an evening does (its tables and board name the players)
    leagues_touch([league.pk])
    evening_totals_store([match.evening_id])
    _log(
        league,
        by,
        _("Line-up of %(team)s set: %(names)s")
        % {"team": team, "names": ", ".join(player.name for player in players)},
        match=match,
    )
    return match


# --- Confirmation --------------------------------------------------------------------------


@transaction.atomic
def match_confirm(*, match: LeagueMatch, by, side: str | None = None) -> LeagueMatch:
    """A captain confirms the match's result for their team; both captains: confirmed.

    Organisers may confirm for a team (``side``) whose captain cannot. Every game of
    the match must be confirmed at its table first.
    """
    match = _lock_match(match)
    league = match.league
    captain_of = [s for s in SIDES if is_captain(by, match.team(s))]
    organiser = can_manage(by, league)
    if not captain_of and not organiser:
        raise PermissionDenied(_("Only a captain of one of the teams confirms a match."))
    if side is None:
        if len(captain_of) != 1 or organiser:
            raise ValidationError({"side": _("Choose the team you confirm for.")})
        side = captain_of[0]
    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}")
    if side not in captain_of and not organiser:
        raise PermissionDenied(_("Only a captain of this team confirms its matches."))
    if match.status == LeagueMatch.Status.SCHEDULED:
        raise ValidationError(_("This match has not been played yet."))
    games = Game.objects.filter(table__league_slot__match=match)
    open_games = games.exclude(status=Game.Status.CONFIRMED).count()
    if open_games:
        raise ValidationError(
            ngettext(
                "%(count)s game of this match is not confirmed at its table yet.",
                "%(count)s games of this match are not confirmed at their tables yet.",
                open_games,
            )
            % {"count": open_games}
        )
    if getattr(match, f"confirmed_{side}_at") is not None:
        raise ValidationError(_("This team has confirmed the match already."))
    setattr(match, f"confirmed_{side}_by", by)
    setattr(match, f"confirmed_{side}_at", timezone.now())
    if match.confirmed_home_at and match.confirmed_away_at:
        match.status = LeagueMatch.Status.CONFIRMED
    # Only the confirmation changes; the database holds "confirmed needs both"
    # (league_match_confirmed_by_both), so no validation queries under the lock.
    match.save(update_fields=[f"confirmed_{side}_by", f"confirmed_{side}_at", "status"])
    _log(
        league,
        by,
        _("%(match)s confirmed for %(team)s") % {"match": match, "team": match.team(side)},
        match=match,
    )
    return match


@transaction.atomic
def match_reopen(*, match: LeagueMatch, by, reason: str) -> LeagueMatch:
    """Take both captains' confirmations back (after a correction, a protest)."""
    match = _lock_match(match)
    require_organiser(by, match.league)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Give the reason.")})
    if match.confirmed_home_at is None and match.confirmed_away_at is None:
        raise ValidationError(_("This match is not confirmed."))
    match.confirmed_home_by = match.confirmed_away_by = None
    match.confirmed_home_at = match.confirmed_away_at = None
    match.status = LeagueMatch.Status.SEATED
    match.save(
        update_fields=[
            "confirmed_home_by",
            "confirmed_home_at",
            "confirmed_away_by",
            "confirmed_away_at",
            "status",
        ]
    )
    _log(
        match.league,
        by,
        _("%(match)s reopened: %(reason)s") % {"match": match, "reason": reason},
        match=match,
    )
    return match


# --- The next season ----------------------------------------------------------------------


@transaction.atomic
def league_next_season(
    *,
    league: League,
    by,
    season: str,
    start_date: datetime.date,
    end_date: datetime.date,
    lots: dict | None = None,
) -> League:
    """The next season of ``league``: the same settings and divisions, every team again
    (players and captains too) in its division after promotion and relegation.

    A team is carried over only when ``by`` may enrol its club (:func:`can_enrol`);
    the other clubs' directors, organisers of the new season too, enrol their teams
    again (``new.left_out``: those teams of this season, each with the division
    it would play in).

    ``lots`` orders teams that share a place across a promotion or relegation line
    ({team pk: 1, 2, ...}, decided by the organisers: a play-off or lots).
    """
    from .selectors import division_tables

    require_organiser(by, league)
    league = League.objects.select_related("competition__club").get(pk=league.pk)
    open_matches = league.matches.exclude(status=LeagueMatch.Status.CONFIRMED).count()
    if open_matches:
        raise ValidationError(
            ngettext(
                "%(count)s match of this season is not confirmed yet.",
                "%(count)s matches of this season are not confirmed yet.",
                open_matches,
            )
            % {"count": open_matches}
        )
    tables = division_tables(league=league)
    standings = [
        league_table.DivisionStanding(
            level=table.division.level,
            rows=[line.row for line in table.lines],
            promote=table.division.promote,
            relegate=table.division.relegate,
        )
        for table in tables
    ]
    by_pk = {line.team.pk: line.team for table in tables for line in table.lines}
    try:
        levels = league_table.promotion_relegation(
            standings, lots={by_pk[pk]: lot for pk, lot in (lots or {}).items() if pk in by_pk}
        )
    except league_table.LineTie as exc:
        raise ValidationError(
            _(
                "%(teams)s share a place on the %(line)s line of level %(level)s; "
                "decide their order (play-off or lots) first."
            )
            % {
                "teams": ", ".join(sorted(team.name for team in exc.teams)),
                "line": _("promotion") if exc.line == "promotion" else _("relegation"),
                "level": exc.level,
            },
            code="line_tie",
        ) from exc
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
    competition = league.competition
    fields = {name: getattr(league, name) for name in (*FORMAT_FIELDS, "is_public")}
    new = _league_create(
        club=competition.club,
        by=by,
        name=league.name,
        season=season,
        start_date=start_date,
        end_date=end_date,
        ruleset_preset=competition.ruleset_preset,
        ruleset_overrides=competition.ruleset_overrides,
        hands_per_game=competition.hands_per_game,
        divisions=0,
        **fields,
    )
    new.previous = league
    new.save(update_fields=["previous"])
    new.organisers.set(league.organisers.all())
    divisions = {}
    for division in league.divisions.order_by("level"):
        divisions[division.level] = _clean_save(
            Division(
                league=new,
                name=division.name,
                level=division.level,
                promote=division.promote,
                relegate=division.relegate,
            )
        )
    left_out = []
    for team, level in levels.items():
        if not can_enrol(by, new, team.club):
            left_out.append((team, divisions[level]))
            continue
        copy = _clean_save(
            LeagueTeam(
                league=new,
                division=divisions[level],
                club_id=team.club_id,
                name=team.name,
                previous=team,
            )
        )
        copy.captains.set(team.captains.all())
        TeamPlayer.objects.bulk_create(
            TeamPlayer(team=copy, league=new, member_id=member_id)
            for member_id in team.players.values_list("member_id", flat=True)
        )
    _log(
        league,
        by,
        _("Next season %(season)s started") % {"season": season},
    )
    if left_out:
        _log(
            new,
            by,
            _("Not carried over, their clubs enrol them again: %(teams)s")
            % {"teams": ", ".join(sorted(f"{team} ({division})" for team, division in left_out))},
        )
    new.left_out = sorted(left_out, key=lambda pair: pair[0].name)
    return new
