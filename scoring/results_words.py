"""The rules behind a results page in plain words, so every player can check by hand.

Used by the results pages and by the files (``scoring.exports.reports``); no view here.
"""

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Competition


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
