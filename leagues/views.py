"""League pages: parse the request, call one service or selector, render.

Who sees what (the services decide again on every write):

- a public league's pages (tables, schedule, matches, club ranking, files) are
  everyone's; a private league's are its organisers', its captains' and the
  people (any club role) of the organising and the playing clubs; to anyone
  else it does not exist (404);
- management pages are the organisers' (``league_services.can_manage``):
  anonymous users go to the login page, others get 403;
- a match's table links (private: they let anyone enter the table's scores)
  are shown to the two teams' captains and the organisers only;
- line-ups and match confirmation: the team's captains and the organisers;
- a team's player list and captains, and the team page's lists to choose them
  from (the club's members and accounts): the team's captains and its club's
  directors only (``services.can_manage_team``, ``services.can_name_captains``);
- enrolling a team: a director of the team's club who organises the league
  (``services.can_enrol``); the form offers only those clubs.
"""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.permissions import Capability, NotVisible, club_required
from common.downloads import download, file_stem
from common.forms import apply_validation_error, error_messages
from common.pagecache import versioned

from . import exports, selectors, services
from .forms import (
    CaptainForm,
    ConfirmForm,
    DivisionForm,
    LeagueForm,
    LineupForm,
    MoveForm,
    NextSeasonForm,
    PlayerForm,
    ReasonForm,
    ScheduleForm,
    TeamForm,
)
from .models import Division, LeagueTeam, TeamPlayer
from .tables import ClubHistoryTable, ClubRankingTable, LeagueTable, ScheduleTable


def league_required(manage=False):
    """Decorator for views taking a league ``pk``: passes the League object instead."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, pk, **kwargs):
            league = selectors.league_queryset().filter(pk=pk).first()
            if league is None or not services.can_view(request.user, league):
                raise NotVisible
            request.can_manage = services.can_manage(request.user, league)
            if manage and not request.can_manage:
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                raise PermissionDenied(_("Only the league's organisers may do this."))
            return view(request, *args, league=league, **kwargs)

        return wrapper

    return decorator


def _page_version(request, league, **kwargs):
    """A league page's version: the league's (``selectors.league_page_version``) and
    whether the viewer organises it (the page then shows the organisers' links)."""
    return f"l{int(request.can_manage)}.{selectors.league_page_version(league=league)}"


def _form_page(request, league, form, *, title, action_label, back=None, status=200):
    context = {
        "league": league,
        "form": form,
        "title": title,
        "action_label": action_label,
        "back": back or league.get_absolute_url(),
    }
    return render(request, "leagues/form.html", context, status=status)


def _league_file(data, league, word, extension, *parts):
    return download(data, file_stem(league, word, *parts), extension)


# --- Leagues ---------------------------------------------------------------------------------


def league_list(request):
    leagues = selectors.visible_leagues(request.user).order_by("-competition__start_date", "name")
    return render(request, "leagues/league_list.html", {"leagues": leagues})


@club_required(Capability.RUN_COMPETITIONS)
def league_create(request, club):
    initial = {
        "ruleset_preset": club.ruleset_preset,
        "hands_per_game": 16,
        "tables_per_match": 2,
        "games_per_table": 1,
        "win_by": "total",
        "points_rule": "fixed",
        "points_win": 2,
        "points_draw": 1,
        "points_loss": 0,
        "points_shared": 10,
        "is_public": True,
        "tie_break_1": "head_to_head",
        "tie_break_2": "point_difference",
        "tie_break_3": "points_for",
    }
    form = LeagueForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.league_create(club=club, by=request.user, **form.service_fields())
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("League created."))
            return redirect(league)
    context = {"club": club, "form": form}
    return render(request, "leagues/league_form.html", context)


@league_required()
@versioned(_page_version)
def league_detail(request, league):
    context = {
        "league": league,
        "divisions": selectors.league_overview(league=league),
        "can_manage": request.can_manage,
        "match_count": league.matches.count(),
    }
    return render(request, "leagues/league_detail.html", context)


@league_required(manage=True)
def league_edit(request, league):
    form = LeagueForm(request.POST or None, league=league)
    if request.method == "POST" and form.is_valid():
        try:
            services.league_update(league=league, by=request.user, **form.service_fields())
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("League saved."))
            return redirect(league)
    context = {"league": league, "form": form, "club": league.club}
    return render(request, "leagues/league_form.html", context)


# --- Divisions and teams -----------------------------------------------------------------------


@league_required(manage=True)
def division_create(request, league):
    next_level = (
        league.divisions.order_by("-level").values_list("level", flat=True).first() or 0
    ) + 1
    form = DivisionForm(
        request.POST or None,
        initial={"level": next_level, "name": _("Division %(level)s") % {"level": next_level}},
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.division_create(league=league, by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Division added."))
            return redirect(league)
    return _form_page(request, league, form, title=_("New division"), action_label=_("Add"))


@league_required(manage=True)
def division_edit(request, league, division):
    division = get_object_or_404(Division, league=league, pk=division)
    form = DivisionForm(request.POST or None, instance=division)
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in DivisionForm.Meta.fields}
        division = Division.objects.get(pk=division.pk)
        try:
            services.division_update(division=division, by=request.user, **fields)
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Division saved."))
            return redirect(league)
    return _form_page(request, league, form, title=division.name, action_label=_("Save"))


@league_required(manage=True)
def team_create(request, league):
    form = TeamForm(request.POST or None, league=league, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            team = services.team_create(league=league, by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Team added."))
            return redirect(team)
    return _form_page(request, league, form, title=_("New team"), action_label=_("Add"))


def _team(league, pk):
    return get_object_or_404(
        LeagueTeam.objects.select_related("club", "division"), league=league, pk=pk
    )


def _team_and_rights(request, league, pk):
    """The team and what the viewer may do on its page (keep its player list, name its
    captains), read once a request (its version and its page both ask)."""
    if getattr(request, "league_team", None) is None:
        team = _team(league, pk)
        request.league_team = (
            team,
            services.can_manage_team(request.user, team),
            services.can_name_captains(request.user, team),
        )
    return request.league_team


def _team_page_version(request, league, team, **kwargs):
    """A team page's version: the league's, and whether the viewer keeps its player
    list (a captain); none for its club's directors, whose page lists the club's
    members and accounts to choose from (a role given changes no version)."""
    _, can_edit, can_name_captains = _team_and_rights(request, league, team)
    if can_name_captains:
        return None
    return f"t{int(can_edit)}.{_page_version(request, league)}"


@league_required()
@versioned(_team_page_version)
def team_detail(request, league, team):
    team, can_edit, can_name_captains = _team_and_rights(request, league, team)
    players, captains = selectors.team_page(team=team)
    # The candidate lists name the club's members and accounts: its managers' only.
    context = {
        "league": league,
        "team": team,
        "players": players,
        "captains": captains,
        "can_edit": can_edit,
        "can_name_captains": can_name_captains,
        "player_form": PlayerForm(team=team) if can_edit else None,
        "captain_form": CaptainForm(candidates=selectors.captain_candidates(team=team))
        if can_name_captains
        else None,
        "schedule": ScheduleTable(selectors.league_schedule(league=league, team=team)),
    }
    return render(request, "leagues/team_detail.html", context)


@require_POST
@league_required()
def team_player_add(request, league, team):
    team = _team(league, team)
    services.require_team_manager(request.user, team)  # before the form is read
    form = PlayerForm(request.POST, team=team)
    if form.is_valid():
        try:
            services.team_player_add(team=team, member=form.cleaned_data["member"], by=request.user)
        except ValidationError as exc:
            error_messages(request, exc)
    else:
        messages.error(request, _("Choose a player of the team's club."))
    return redirect(team)


@require_POST
@league_required()
def team_player_remove(request, league, team, player):
    team = _team(league, team)
    services.require_team_manager(request.user, team)  # before the form is read
    player = get_object_or_404(TeamPlayer, team=team, pk=player)
    try:
        services.team_player_remove(player=player, by=request.user)
    except ValidationError as exc:
        error_messages(request, exc)
    return redirect(team)


@require_POST
@league_required()
def team_captain_add(request, league, team):
    team = _team(league, team)
    services.require_captain_namer(request.user, team)  # before the form is read
    form = CaptainForm(request.POST, candidates=selectors.captain_candidates(team=team))
    if form.is_valid():
        try:
            services.team_captain_add(team=team, user=form.cleaned_data["user"], by=request.user)
        except ValidationError as exc:
            error_messages(request, exc)
    else:
        messages.error(request, _("Choose an account of the team's club."))
    return redirect(team)


@require_POST
@league_required()
def team_captain_remove(request, league, team, user):
    team = _team(league, team)
    services.require_captain_namer(request.user, team)  # before the form is read
    captain = get_object_or_404(team.captains, pk=user)
    services.team_captain_remove(team=team, user=captain, by=request.user)
    return redirect(team)


# --- Schedule and tables -------------------------------------------------------------------------


@league_required()
@versioned(_page_version)
def schedule_view(request, league):
    context = {
        "league": league,
        "schedule": ScheduleTable(selectors.league_schedule(league=league)),
        "can_manage": request.can_manage,
    }
    return render(request, "leagues/schedule.html", context)


@league_required(manage=True)
def schedule_generate(request, league):
    form = ScheduleForm(request.POST or None, initial={"start_date": league.competition.start_date})
    if request.method == "POST" and form.is_valid():
        try:
            matches = services.schedule_generate(
                league=league, by=request.user, **form.cleaned_data
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(
                request, _("Schedule made: %(count)s matches.") % {"count": len(matches)}
            )
            return redirect("leagues:schedule", pk=league.pk)
    return _form_page(
        request, league, form, title=_("Generate the schedule"), action_label=_("Generate")
    )


@league_required()
@versioned(_page_version)
def league_tables(request, league):
    context = {
        "league": league,
        "tables": [LeagueTable(table) for table in selectors.division_tables(league=league)],
        "can_manage": request.can_manage,
    }
    return render(request, "leagues/tables.html", context)


@league_required()
@versioned(_page_version)
def division_table(request, league, division):
    division = get_object_or_404(Division, league=league, pk=division)
    tables = [t for t in selectors.division_tables(league=league) if t.division.pk == division.pk]
    context = {
        "league": league,
        "division": division,
        "table": LeagueTable(tables[0]),
        "schedule": ScheduleTable(
            selectors.league_schedule(league=league, division=division), division=False
        ),
    }
    return render(request, "leagues/division_table.html", context)


@league_required()
@versioned(_page_version)
def club_ranking(request, league):
    context = {"league": league, "table": ClubRankingTable(selectors.club_ranking(league=league))}
    return render(request, "leagues/club_ranking.html", context)


@club_required()
def club_history(request, club):
    leagues = selectors.visible_leagues(request.user)
    lines = selectors.club_history(club=club, leagues=leagues)
    context = {"club": club, "table": ClubHistoryTable(lines)}
    return render(request, "leagues/club_history.html", context)


@league_required()
def tables_xlsx(request, league):
    data = exports.league_table_xlsx(league=league, tables=selectors.division_tables(league=league))
    return _league_file(data, league, "standings", "xlsx")


@league_required()
def tables_pdf(request, league):
    data = exports.league_table_pdf(league=league, tables=selectors.division_tables(league=league))
    return _league_file(data, league, "standings", "pdf")


@league_required()
def schedule_xlsx(request, league):
    data = exports.schedule_xlsx(league=league, lines=selectors.league_schedule(league=league))
    return _league_file(data, league, "schedule", "xlsx")


@league_required()
def schedule_pdf(request, league):
    data = exports.schedule_pdf(league=league, lines=selectors.league_schedule(league=league))
    return _league_file(data, league, "schedule", "pdf")


# --- Matches -----------------------------------------------------------------------------------


def _match(league, pk):
    return get_object_or_404(selectors.match_queryset(), league=league, pk=pk)


def _captain_sides(user, match):
    return [side for side in services.SIDES if services.is_captain(user, match.team(side))]


def _match_and_sides(request, league, pk):
    """The match and the sides the viewer captains, read once a request (its version
    and its page both ask)."""
    if getattr(request, "league_match", None) is None:
        match = _match(league, pk)
        request.league_match = match, _captain_sides(request.user, match)
    return request.league_match


def _match_page_version(request, league, match, **kwargs):
    """A match page's version: the league's, and the sides the viewer captains (their
    line-up and confirmation forms)."""
    sides = "".join(_match_and_sides(request, league, match)[1])
    return f"m{sides}.{_page_version(request, league)}"


@league_required()
@versioned(_match_page_version)
def match_detail(request, league, match):
    match, captain_of = _match_and_sides(request, league, match)
    sheet = selectors.match_sheet(match=match)
    insider = request.can_manage or bool(captain_of)
    confirmable = [
        side
        for side in services.SIDES
        if (side in captain_of or request.can_manage)
        and getattr(match, f"confirmed_{side}_at") is None
    ]
    context = {
        "league": league,
        "match": match,
        "sheet": sheet,
        "can_manage": request.can_manage,
        "captain_of": captain_of,
        "show_links": insider,
        "lineup_sides": [s for s in services.SIDES if request.can_manage or s in captain_of],
        "confirmable": confirmable if sheet.score and sheet.score.complete else [],
        "move_form": MoveForm(initial={"date": match.date}) if request.can_manage else None,
        "reopen_form": ReasonForm() if request.can_manage else None,
        "log": match.log.select_related("user")[:20] if insider else [],
        "home_match_points": selectors.format_points(sheet.outcome.home_match_points)
        if sheet.outcome
        else "",
        "away_match_points": selectors.format_points(sheet.outcome.away_match_points)
        if sheet.outcome
        else "",
    }
    return render(request, "leagues/match_detail.html", context)


@league_required()
def match_lineup(request, league, match, side):
    match = _match(league, match)
    if side not in services.SIDES:
        raise Http404
    team = match.team(side)
    if not (request.can_manage or services.is_captain(request.user, team)):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(_("Only a captain of this team or the organisers set its line-up."))
    current = selectors.match_sheet(match=match).lineups[side]
    form = LineupForm(
        request.POST or None, team=team, tables=league.tables_per_match, current=current
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.match_lineup_set(
                match=match, side=side, players=form.players(), by=request.user
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Line-up of %(team)s saved.") % {"team": team})
            return redirect(match)
    context = {"league": league, "match": match, "team": team, "form": form, "side": side}
    return render(request, "leagues/match_lineup.html", context)


@require_POST
@league_required()
def match_confirm(request, league, match):
    match = _match(league, match)
    form = ConfirmForm(request.POST)
    side = (form.cleaned_data["side"] or None) if form.is_valid() else None
    try:
        services.match_confirm(match=match, by=request.user, side=side)
    except ValidationError as exc:
        error_messages(request, exc)
    else:
        messages.success(request, _("Match confirmed."))
    return redirect(match)


@require_POST
@league_required(manage=True)
def match_move(request, league, match):
    match = _match(league, match)
    form = MoveForm(request.POST)
    if form.is_valid():
        try:
            services.match_move(match=match, date=form.cleaned_data["date"], by=request.user)
        except ValidationError as exc:
            error_messages(request, exc)
        else:
            messages.success(request, _("Match moved."))
    else:
        messages.error(request, _("Give the new date."))
    return redirect(match)


@require_POST
@league_required(manage=True)
def match_reopen(request, league, match):
    match = _match(league, match)
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        services.match_reopen(match=match, by=request.user, reason=reason)
    except ValidationError as exc:
        error_messages(request, exc)
    else:
        messages.success(request, _("The captains' confirmations are taken back."))
    return redirect(match)


@league_required()
def match_form_pdf(request, league, match):
    match = _match(league, match)
    data = exports.match_forms_pdf(sheets=[selectors.match_sheet(match=match)])
    parts = (match.date.isoformat(), match.home.name, match.away.name)
    return _league_file(data, league, "match_form", "pdf", *parts)


# --- The next season -----------------------------------------------------------------------------


@league_required(manage=True)
def next_season(request, league):
    tables = selectors.division_tables(league=league)
    tied = [line.team for table in tables for line in table.lines if line.row.shared]
    form = NextSeasonForm(request.POST or None, tied_teams=tied)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            new = services.league_next_season(
                league=league,
                by=request.user,
                season=data["season"],
                start_date=data["start_date"],
                end_date=data["end_date"],
                lots=form.lots(),
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Next season created."))
            if new.left_out:
                messages.warning(
                    request,
                    _(
                        "Not carried over, because you do not direct their clubs: %(teams)s. "
                        "Their clubs' directors, organisers of the new season too, enrol them "
                        "again."
                    )
                    % {
                        "teams": ", ".join(
                            f"{team} ({division})" for team, division in new.left_out
                        )
                    },
                )
            return redirect(new)
    back = reverse("leagues:tables", kwargs={"pk": league.pk})
    return _form_page(
        request,
        league,
        form,
        title=_("Next season"),
        action_label=_("Create the next season"),
        back=back,
    )
