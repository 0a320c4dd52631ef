"""A competition's rules in plain words, so every player can check by hand.

The standings and evening pages (``scoring.results.views``), their files
(``scoring.exports.reports``) and the competition page state these sentences;
they depend only on the competition, so they live here, below the results.
"""

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .models import Competition

__all__ = [
    "describe_leaving",
    "describe_periods",
    "describe_prizes",
    "describe_scores",
    "describe_settings",
    "describe_side_ranking",
    "no_free_substitute",
    "no_pairs_yet",
    "table_of_three_refused",
]


def describe_settings(competition, period=None):
    """The ranking rules in plain words, so every player can check by hand."""
    words = []
    per_evening = competition.average_unit == Competition.AverageUnit.EVENING
    if competition.ranking_basis == Competition.RankingBasis.AVERAGE:
        if per_evening:
            words.append(_("Ranked by average points per evening."))
        else:
            words.append(_("Ranked by average points per game."))
    else:
        words.append(_("Ranked by total points."))
    if per_evening:
        words.append(_("The average is per evening: the points divided by the evenings counted."))
    if competition.ranks_by_periods() and period is None:
        words.extend(describe_periods(competition))
    elif competition.best_of:
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
    words.extend(describe_side_ranking(side) for side in competition.side_ranking_definitions())
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


def describe_periods(competition):
    """A season counted by periods (two-level best N) in plain words."""
    if competition.best_of:
        period = ngettext(
            "A period's result is each player's best evening in it.",
            "A period's result is the total of each player's best %(count)s evenings in it.",
            competition.best_of,
        ) % {"count": competition.best_of}
    else:
        period = _("A period's result is the total of each player's evenings in it.")
    season = ngettext(
        "The season ranking counts each player's best period result.",
        "The season ranking is the sum of each player's best %(count)s period results.",
        competition.best_periods,
    ) % {"count": competition.best_periods}
    periods = list(competition.periods.order_by("start_date"))
    if not periods:
        where = _(
            "The competition has no periods yet, so no evening counts: add the periods "
            "on the competition page."
        )
    else:
        where = _("Periods: %(names)s. Evenings outside the periods do not count.") % {
            "names": ", ".join(
                _("%(name)s (%(start)s to %(end)s)")
                % {
                    "name": p.name,
                    "start": date_format(p.start_date),
                    "end": date_format(p.end_date),
                }
                for p in periods
            )
        }
    return [period, season, where]


def describe_scores(competition):
    """Sit-out, late arrival, leaving early and absence scores in plain words. The
    sit-out score is stated only where a player can sit out (``has_sitouts``)."""
    words = []
    if not competition.has_sitouts:
        pass
    elif competition.kind == Competition.Kind.INDIVIDUAL and (
        competition.odd_players == Competition.OddPlayers.SUBSTITUTE
    ):
        words.append(
            _(
                "When a round cannot have a table of three, a player left over sits out "
                "and scores %(score)s for that round."
            )
            % {"score": competition.sitout_score}
        )
    elif competition.sitout_mars:
        words.append(
            _("Sitting out a round scores %(score)s and counts as a mars.")
            % {"score": competition.sitout_score}
        )
    else:
        words.append(
            _("Sitting out a round scores %(score)s.") % {"score": competition.sitout_score}
        )
    if competition.left_over_lowest:
        words.append(
            _(
                "When a round cannot have a table of three, a player left over who sits "
                "out gets the evening's lowest score (the lowest of those who played the "
                "whole evening) and no place on the evening."
            )
        )
    words.extend(competition.describe_draw())
    if competition.late_score is not None:
        words.append(
            _("A player who arrives late scores %(score)s for each round missed.")
            % {"score": competition.late_score}
        )
    words.append(describe_leaving(competition))
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


def describe_leaving(competition):
    """What a player who leaves early gets, in a sentence."""
    policy = competition.leaving_policy
    if policy == Competition.LeavingPolicy.FIXED:
        return _(
            "A player who leaves early scores %(score)s for each round missed and keeps a place."
        ) % {"score": competition.leaving_score}
    if policy == Competition.LeavingPolicy.LOWEST:
        return _(
            "A player who leaves early gets the evening's lowest score (the lowest of "
            "those who played the whole evening) and no place on the evening."
        )
    return _(
        "A player who leaves early keeps the points of the rounds played and a place, "
        "but not the poedelprijs."
    )


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
        _(
            "The poedelprijs goes to the lowest score of those who played the whole "
            "evening and win no other prize: when the last place already wins a prize, "
            "to the lowest place that does not (none when every place wins a prize). A player "
            "without a place never gets it."
        ),
    ]


def describe_side_ranking(side):
    """One side ranking's definition (a ``ranking_rules.SideRanking``) in a sentence."""
    label = Competition.SideRanking(side.kind).label
    if side.best_of is None and not side.min_attendance:
        return _("Also ranked: the %(ranking)s (all counting evenings, no minimum).") % {
            "ranking": label
        }
    if side.best_of:
        counted = ngettext(
            "each player's best evening",
            "each player's best %(count)s evenings",
            side.best_of,
        ) % {"count": side.best_of}
    else:
        counted = _("all counting evenings")
    if side.min_attendance:
        minimum = ngettext(
            "ranked from %(count)s evening played, others below the line",
            "ranked from %(count)s evenings played, others below the line",
            side.min_attendance,
        ) % {"count": side.min_attendance}
    else:
        minimum = _("no minimum")
    return _("Also ranked: the %(ranking)s (%(counted)s; %(minimum)s).") % {
        "ranking": label,
        "counted": counted,
        "minimum": minimum,
    }


def table_of_three_refused(plan, free):
    """Why the draw does not offer tables of three (``plan`` a ``draw.TablePlan``
    with its fallback, ``free`` the invallers there are); "" when it does."""
    if plan.fallback == plan.NO_TABLE_OF_THREE:
        return _(
            "With 5 players a table of three is not possible (two tables would need "
            "three substitutes): one player sits out."
        )
    if plan.fallback != plan.TOO_FEW_SUBSTITUTES:
        return ""
    needed = ngettext(
        "A table of three would need %(count)s substitute (invaller).",
        "Tables of three would need %(count)s substitutes (invallers).",
        plan.substitutes_needed,
    ) % {"count": plan.substitutes_needed}
    if free:
        available = ngettext(
            "Only %(count)s member of the club is free to fill in.",
            "Only %(count)s members of the club are free to fill in.",
            free,
        ) % {"count": free}
    else:
        available = _(
            "No member of the club is free to fill in: every active member is present "
            "to play, called in absent or gone home."
        )
    then = _(
        "So the players left over sit out. To draw tables of three, first add the "
        "substitutes as members of the club."
    )
    return f"{needed} {available} {then}"


def no_free_substitute(competition=None):
    """Why the invaller list of a table of three is empty (and, where a player whose
    table has finished may fill in, when the list fills)."""
    words = _(
        "No member of the club is free to fill in: every active member plays at a table "
        "in this round, called in absent or gone home. Add the substitute as a member of "
        "the club, or take back this draw and draw again with the players left over "
        "sitting out."
    )
    if competition is not None and competition.finished_may_substitute:
        words += " " + _(
            "Once a table of this round has finished (its result confirmed), its players "
            "can fill in: open this page again then."
        )
    return words


def no_pairs_yet():
    """Why a pairs competition without pairs cannot draw a round."""
    return _(
        "This pairs competition has no pairs yet: form the pairs on the competition "
        "page first, then draw the round."
    )
