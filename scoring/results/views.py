"""Results pages: evening result, live scoreboard, season standings, player page, and
a player's own results in every club ("My results").

Public when the club's results are public (``club_required()`` with no role);
they show names and numbers only, never contact details.

The result, the board, the standings and the player page change only with their
club's, competition's and evening's versions (``common.pagecache``): a poll that
brings the ETag back gets a 304, and an anonymous visitor the bytes the first one's
request rendered.
"""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from clubs.models import Member
from clubs.permissions import club_required
from clubs.selectors import my_memberships
from common.pagecache import versioned
from common.params import id_or_404, parse_id
from common.replica import replica_reads
from common.tables import configure_table
from tournaments import selectors as tournament_selectors
from tournaments.models import Competition, Evening
from tournaments.words import describe_settings

from ..exports.reports import other_evening_report
from . import standings
from .tables import (
    EveningResultTable,
    PartnersTable,
    PlayerEveningsTable,
    PlayerPeriodsTable,
    StandingsTable,
    partner_rows,
    period_cells,
    player_evening_rows,
    player_period_rows,
    player_stat_columns,
    standings_columns,
)
from .words import describe_evening


def _competition(club, pk):
    return get_object_or_404(club.competitions, pk=pk)


def _evening_urls(club):
    """evening -> its result page (a season has a few dozen evenings)."""
    return lambda evening: reverse("results:evening", kwargs={"club": club.slug, "pk": evening.pk})


def _player_urls(club, competition):
    """key -> the player's page in this competition, from one ``reverse()``."""
    prefix = reverse("results:player", kwargs={"club": club.slug, "pk": 1})
    assert prefix.endswith("/1/"), prefix
    prefix = prefix[: -len("1/")]
    return lambda key: f"{prefix}{key}/?competition={competition.pk}"


def _rows(lines, names, club, competition, *, pairs=False, periods=()):
    rows = []
    player_url = _player_urls(club, competition)
    for line in lines:
        rows.append(
            {
                "key": line.key,
                "rank": line.rank,
                "shared": line.shared,
                "name": names.get(line.key, "?"),
                "sort_name": names.get(line.key, "").lower(),
                "url": None if pairs else player_url(line.key),
                "points": line.points,
                "average": line.average,
                "evenings": line.evenings,
                "games": line.games,
                "marsen": line.marsen,
                "nat": line.nat,
                "roem": line.roem,
                **period_cells(line, periods),
            }
        )
    return rows


def _standings_version(request, club, pk):
    version = tournament_selectors.competition_version(club=club, pk=pk)
    return None if version is None else f"s{club.version}.{version}"


def _evening_version(request, club, pk):
    version = tournament_selectors.evening_version(club=club, pk=pk)
    return None if version is None else f"e{club.version}.{version}"


def _player_version(request, club, pk):
    asked = request.GET.get("competition")
    competition = None
    if asked:
        competition = parse_id(asked)
        if competition is None:
            return None  # the view says 404
    version = tournament_selectors.competition_version(club=club, pk=competition)
    return None if version is None else f"p{club.version}.{version}"


@replica_reads
@club_required()
@versioned(_standings_version)
def season_standings(request, club, pk):
    competition = _competition(club, pk)
    period = None
    if request.GET.get("period"):
        period = get_object_or_404(competition.periods, pk=id_or_404(request.GET["period"]))
    result = standings.season_standings(competition=competition, period=period)
    pairs = competition.kind == Competition.Kind.PAIRS
    columns = standings_columns(pairs=pairs, competition=competition, periods=result.periods)
    rows = _rows(result.lines, result.names, club, competition, pairs=pairs, periods=result.periods)
    table = StandingsTable(rows, columns=columns)
    configure_table(request, table)
    labels = dict(Competition.SideRanking.choices)
    sides = []
    side_columns = standings_columns(pairs=pairs, competition=competition)
    for key, side in standings.side_standings(competition=competition, period=period):
        side_table = StandingsTable(
            _rows(side.lines, side.names, club, competition, pairs=pairs),
            columns=side_columns,
            prefix=f"{key}-",
        )
        configure_table(request, side_table)
        sides.append({"key": key, "label": labels[key], "table": side_table})
    context = {
        "club": club,
        "competition": competition,
        "sides": sides,
        "period": period,
        "periods": competition.periods.all(),
        "table": table,
        "settings_words": describe_settings(competition, period),
        "evening_count": len(result.evenings),
        "totals_evenings": [e for e in result.evenings if e.from_totals],
        "below_line": len(result.unranked),
    }
    return render(request, "scoring/results/standings.html", context)


@replica_reads
@club_required()
@versioned(_evening_version)
def evening_result(request, club, pk):
    evening = get_object_or_404(
        Evening.objects.select_related("competition"), competition__club=club, pk=pk
    )
    competition = evening.competition
    report = other_evening_report(evening)
    if report is not None:
        return _report_page(request, club, evening, report)
    result = standings.evening_result(evening=evening)
    pairs = competition.kind == Competition.Kind.PAIRS
    rows = _rows(result.lines, result.names, club, competition, pairs=pairs)
    winners, prizes, poedel = result.winners, result.prizes, result.poedel
    for row in rows:
        row["winner"] = row["key"] in winners
        row["prize"] = row["key"] in prizes and not row["winner"]
        row["poedel"] = row["key"] in poedel
        for number in result.round_numbers:
            row[f"round_{number}"] = result.rounds.get(row["key"], {}).get(number, "")
    columns = standings_columns(
        pairs=pairs, evenings=False, round_numbers=result.round_numbers, competition=competition
    )
    table = EveningResultTable(rows, columns=columns)
    configure_table(request, table)
    board = request.GET.get("board") == "1"
    context = {
        "club": club,
        "evening": evening,
        "competition": competition,
        "table": table,
        "result": result,
        "settings_words": describe_evening(competition, result),
        "board": board,
        "refresh": board and evening.status != Evening.Status.FINISHED,
    }
    return render(request, "scoring/results/evening.html", context)


def _report_page(request, club, evening, report):
    """The result of an evening another app tells (a league's matchday: its matches)."""
    rows = [
        [{"text": column.text(row), "numeric": column.numeric} for column in report.columns]
        for row in report.rows
    ]
    context = {
        "club": club,
        "evening": evening,
        "report": report,
        "titles": [column.title for column in report.columns],
        "rows": rows,
    }
    return render(request, "scoring/results/evening_report.html", context)


@replica_reads
@club_required()
@versioned(_player_version)
def player(request, club, pk):
    member = get_object_or_404(Member, club=club, pk=pk)
    competitions = list(Competition.objects.filter(club=club).order_by("-start_date"))
    competition = None
    if request.GET.get("competition"):
        competition_id = id_or_404(request.GET["competition"])
        competition = get_object_or_404(club.competitions, pk=competition_id)
    elif competitions:
        competition = competitions[0]
    stats = standings.player_stats(member=member, competition=competition) if competition else None
    evening_url = _evening_urls(club)
    concepts = player_stat_columns(competition) if competition else {}
    context = {
        "concepts": concepts,
        "concept_notes": list(concepts.values()),
        "club": club,
        "member": member,
        "competition": competition,
        "competitions": competitions,
        "stats": stats,
        "chart": standings.chart_points(stats.evenings) if stats else None,
        "evenings_table": PlayerEveningsTable(player_evening_rows(stats.evenings, url=evening_url))
        if stats
        else None,
        "partners_table": PartnersTable(partner_rows(stats.partners)) if stats else None,
        "periods_table": PlayerPeriodsTable(player_period_rows(stats.periods))
        if stats and stats.periods
        else None,
    }
    return render(request, "scoring/results/player.html", context)


@login_required
def my_results(request):
    """A player's own results: every club where an account is linked to their record."""
    rows = []
    for member in my_memberships(user=request.user):
        competition = (
            Competition.objects.filter(club=member.club).order_by("-start_date", "-pk").first()
        )
        stats = place = None
        if competition is not None:
            stats = standings.player_stats(member=member, competition=competition)
            table = standings.season_standings(competition=competition)
            place = next((line for line in table.lines if line.key == member.pk), None)
        rows.append({"member": member, "competition": competition, "stats": stats, "place": place})
    return render(request, "scoring/results/my_results.html", {"rows": rows})
