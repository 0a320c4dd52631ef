"""Results pages: evening result, live scoreboard, season standings, player page.

Public when the club's results are public (``club_required()`` with no role);
they show names and numbers only, never contact details.
"""

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_tables2 import RequestConfig

from clubs.models import Member
from clubs.permissions import club_required
from common.params import id_or_404
from tournaments.models import Competition, Evening

from . import standings
from .results_tables import EveningResultTable, StandingsTable, standings_columns


def _competition(club, pk):
    return get_object_or_404(Competition, club=club, pk=pk)


def _player_urls(club, competition):
    """key -> the player's page in this competition, from one ``reverse()``."""
    prefix = reverse("results:player", kwargs={"club": club.slug, "pk": 1})
    assert prefix.endswith("/1/"), prefix
    prefix = prefix[: -len("1/")]
    return lambda key: f"{prefix}{key}/?competition={competition.pk}"


def _rows(lines, names, club, competition, *, pairs=False):
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
            }
        )
    return rows


def describe_settings(competition, period=None):
    """The ranking rules in plain words, so every player can check by hand."""
    words = []
    if competition.ranking_basis == Competition.RankingBasis.AVERAGE:
        words.append(_("Ranked by average points per game."))
    else:
        words.append(_("Ranked by total points."))
    if competition.best_of:
        words.append(
            ngettext(
                "Only each player's best evening counts.",
                "Only each player's best %(count)s evenings count.",
                competition.best_of,
            )
            % {"count": competition.best_of}
        )
    if competition.min_attendance:
        words.append(
            ngettext(
                "Players need %(count)s evening to be ranked; others are listed below the line.",
                "Players need %(count)s evenings to be ranked; others are listed below the line.",
                competition.min_attendance,
            )
            % {"count": competition.min_attendance}
        )
    labels = dict(Competition.TieBreak.choices)
    if competition.tie_breaks:
        order = ", ".join(str(labels[t]) for t in competition.tie_breaks)
        words.append(
            _("Equal points: %(order)s; still equal, the place is shared.") % {"order": order}
        )
    else:
        words.append(_("Equal points share the place."))
    words.extend(describe_scores(competition))
    words.extend(describe_prizes(competition))
    side = dict(Competition.SideRanking.choices)
    for key in competition.side_rankings:
        words.append(
            _("Also ranked: the %(ranking)s (all counting evenings, no minimum).")
            % {"ranking": side[key]}
        )
    excluded = competition.evenings.filter(counts_for_ranking=False).order_by("date")
    if excluded:
        days = ", ".join(date_format(e.date) for e in excluded)
        words.append(_("Evenings that do not count: %(days)s.") % {"days": days})
    if period is not None:
        words.append(
            _("Period %(name)s: %(start)s to %(end)s.")
            % {
                "name": period.name,
                "start": date_format(period.start_date),
                "end": date_format(period.end_date),
            }
        )
    return words


def describe_scores(competition):
    """Sit-out, late arrival and absence scores in plain words."""
    words = []
    if competition.sitout_mars:
        words.append(
            _("Sitting out a round scores %(score)s and counts as a mars.")
            % {"score": competition.sitout_score}
        )
    else:
        words.append(
            _("Sitting out a round scores %(score)s.") % {"score": competition.sitout_score}
        )
    words.extend(competition.describe_draw())
    if competition.late_score is not None:
        words.append(
            _("A player who arrives late scores %(score)s for each round missed.")
            % {"score": competition.late_score}
        )
    policy = competition.absence_policy
    if policy == Competition.AbsencePolicy.LOWEST:
        words.append(
            _(
                "Players who called in get the evening's lowest score: the lowest of "
                "those who played the whole evening."
            )
        )
    elif policy == Competition.AbsencePolicy.FIXED:
        if competition.absence_unit == Competition.AbsenceUnit.EVENING:
            words.append(
                _("Players who called in get %(score)s for the evening.")
                % {"score": competition.absence_score}
            )
        else:
            words.append(
                _("Players who called in get %(score)s per round.")
                % {"score": competition.absence_score}
            )
    if policy != Competition.AbsencePolicy.NOTHING:
        words.append(
            _(
                "An absence score counts for the season, but never takes a place, a prize "
                "or the poedelprijs on the evening."
            )
        )
    return words


def describe_prizes(competition):
    """The evening prizes in plain words."""
    rule = competition.prize_rule
    if rule == Competition.PrizeRule.FIRST_N:
        prizes = ngettext(
            "The evening's winner wins a prize.",
            "The first %(count)s places of an evening win a prize.",
            competition.prize_places or 1,
        ) % {"count": competition.prize_places}
    elif rule == Competition.PrizeRule.PER_FOUR:
        prizes = _("An evening has 1 prize per 4 players (at least 1), for the first places.")
    elif rule == Competition.PrizeRule.FORMULE_VAN_4:
        prizes = _("Evening prizes by the formule van 4: places 1 to 4, then 8, 12, 16 and so on.")
    else:
        prizes = _("The evening's winner wins a prize.")
    return [
        prizes,
        _("The lowest score of the evening wins the poedelprijs (not to a prize winner)."),
    ]


def describe_evening(competition, result=None):
    """What the evening result follows, in plain words: prizes and the scores, and
    (given the ``result``) each substitute game that replaced a player's own game."""
    words = describe_prizes(competition) + describe_scores(competition)
    for (_evening, key), swaps in sorted((result.struck if result else {}).items()):
        for struck, played in swaps:
            words.append(
                _(
                    "%(name)s: the game as substitute in round %(played)s replaces "
                    "their own game of round %(struck)s (wegstrepen)."
                )
                % {"name": result.names.get(key, ""), "played": played, "struck": struck}
            )
    return words


@club_required()
def season_standings(request, club, pk):
    competition = _competition(club, pk)
    period = None
    if request.GET.get("period"):
        period = get_object_or_404(competition.periods, pk=id_or_404(request.GET["period"]))
    result = standings.season_standings(competition=competition, period=period)
    pairs = competition.kind == Competition.Kind.PAIRS
    table = StandingsTable(
        _rows(result.lines, result.names, club, competition, pairs=pairs),
        columns=standings_columns(pairs=pairs),
    )
    RequestConfig(request, paginate=False).configure(table)
    labels = dict(Competition.SideRanking.choices)
    sides = []
    for key, side in standings.side_standings(competition=competition, period=period):
        side_table = StandingsTable(
            _rows(side.lines, side.names, club, competition, pairs=pairs), prefix=f"{key}-"
        )
        if pairs:
            side_table.columns["name"].column.verbose_name = _("Pair")
        RequestConfig(request, paginate=False).configure(side_table)
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
        "below_line": len(result.unranked),
    }
    return render(request, "scoring/results/standings.html", context)


@club_required()
def evening_result(request, club, pk):
    evening = get_object_or_404(
        Evening.objects.select_related("competition"), competition__club=club, pk=pk
    )
    competition = evening.competition
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
    columns = standings_columns(pairs=pairs, evenings=False, round_numbers=result.round_numbers)
    table = EveningResultTable(rows, columns=columns)
    RequestConfig(request, paginate=False).configure(table)
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


@club_required()
def player(request, club, pk):
    member = get_object_or_404(Member, club=club, pk=pk)
    competitions = list(Competition.objects.filter(club=club).order_by("-start_date"))
    competition = None
    if request.GET.get("competition"):
        competition_id = id_or_404(request.GET["competition"])
        competition = get_object_or_404(Competition, club=club, pk=competition_id)
    elif competitions:
        competition = competitions[0]
    stats = standings.player_stats(member=member, competition=competition) if competition else None
    context = {
        "club": club,
        "member": member,
        "competition": competition,
        "competitions": competitions,
        "stats": stats,
        "chart": standings.chart_points(stats.evenings) if stats else None,
    }
    return render(request, "scoring/results/player.html", context)
