"""The league's listed tables, each one column spec for the page and every file.

:func:`league_table_columns`, :func:`schedule_columns` and
:func:`club_ranking_columns` say once what the columns are (titles, order,
kinds, rounding); the pages' django-tables2 tables below and the spreadsheets
and PDFs of :mod:`leagues.exports` are all built from them, from the rows the
``*_rows`` functions make of the selectors' values.
"""

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from common.columns import DATE, INT, NUMBER, RANK, TEXT, Column
from common.tables import SpecTable

from .selectors import POINTS_DECIMALS

# --- The league table ------------------------------------------------------------------------


def league_table_columns():
    """A division's table: place, team, the matches' tallies, match points, points."""
    return [
        Column("place", _("Place"), RANK, 7, abbr=_("#")),
        Column("team", _("Team"), TEXT, 24),
        Column("club", _("Club"), TEXT, 24),
        Column("played", _("Played"), INT, 8, abbr=pgettext("played", "P")),
        Column("won", _("Won"), INT, 8, abbr=pgettext("won", "W")),
        Column("drawn", _("Drawn"), INT, 8, abbr=pgettext("drawn", "D")),
        Column("lost", _("Lost"), INT, 8, abbr=pgettext("lost", "L")),
        Column("match_points", _("Match points"), NUMBER, 14, POINTS_DECIMALS),
        Column("points_for", _("Points for"), INT, 12),
        Column("points_against", _("Points against"), INT, 16),
        Column("point_difference", _("Difference"), INT, 12),
        Column("game_points", _("Game points"), INT, 13),
    ]


def league_table_rows(table):
    """The rows of :func:`league_table_columns` for a ``selectors.DivisionTable``;
    ``promote``: the team goes up a division (the top division promotes nobody)."""
    division = table.division
    promote = division.promote if division.level > 1 else 0
    return [
        {
            "place": line.place,
            "shared": line.shared,
            "team": line.team.name,
            "url": line.team.get_absolute_url(),
            "club": line.team.club.name,
            "played": line.played,
            "won": line.won,
            "drawn": line.drawn,
            "lost": line.lost,
            "match_points": line.row.match_points,
            "points_for": line.points_for,
            "points_against": line.points_against,
            "point_difference": line.point_difference,
            "game_points": line.game_points_for,
            "promote": index < promote,
        }
        for index, line in enumerate(table.lines)
    ]


class LeagueTable(SpecTable):
    """A division's table on the league's pages."""

    class Meta(SpecTable.Meta):
        attrs = {"class": "league-table"}
        row_attrs = {"class": lambda record: "promote" if record.get("promote") else ""}
        empty_text = gettext_lazy("No teams yet.")

    def __init__(self, table, **kwargs):
        """``table``: a ``selectors.DivisionTable``."""
        self.division_table = table
        super().__init__(league_table_rows(table), columns=league_table_columns(), **kwargs)

    def render_team(self, value, record):
        return self.link(record["url"], value)

    def render_match_points(self, value, record):
        return format_html("<strong>{}</strong>", self.text("match_points", record))


# --- The schedule ------------------------------------------------------------------------------


def schedule_columns(*, division=True):
    """The matches by date with their scores and match points (``division``: a
    column naming each match's division, left out on a division's own page)."""
    columns = [
        Column("matchday", _("Matchday"), INT, 10),
        Column("date", _("Date"), DATE, 16),
    ]
    if division:
        columns.append(Column("division", _("Division"), TEXT, 16))
    columns += [
        Column("home", pgettext("match", "Home"), TEXT, 20),
        Column("away", pgettext("match", "Away"), TEXT, 20),
        Column("home_points", _("Points home"), INT, 12),
        Column("away_points", _("Points away"), INT, 12),
        Column("home_match_points", _("Match points home"), NUMBER, 12, POINTS_DECIMALS),
        Column("away_match_points", _("Match points away"), NUMBER, 12, POINTS_DECIMALS),
        Column("status", _("Status"), TEXT, 24),
    ]
    return columns


def schedule_status(line):
    """A match's state in words: its status, or "played, to be confirmed" for a
    match whose games are all confirmed but not yet by both captains."""
    if line.outcome is not None and not line.counted:
        return _("played, to be confirmed")
    return str(line.match.get_status_display())


def schedule_rows(lines):
    """The rows of :func:`schedule_columns` for ``selectors.ScheduleLine`` values."""
    rows = []
    for line in lines:
        match, outcome = line.match, line.outcome
        rows.append(
            {
                "matchday": match.matchday,
                "date": match.date,
                "url": match.get_absolute_url(),
                "division": match.division.name,
                "home": match.home.name,
                "away": match.away.name,
                "home_points": outcome.home_points if outcome else None,
                "away_points": outcome.away_points if outcome else None,
                "home_match_points": outcome.home_match_points if outcome else None,
                "away_match_points": outcome.away_match_points if outcome else None,
                "status": schedule_status(line),
            }
        )
    return rows


class ScheduleTable(SpecTable):
    """The schedule on the league's, a division's and a team's pages."""

    class Meta(SpecTable.Meta):
        attrs = {"class": "league-schedule"}
        empty_text = gettext_lazy("No matches yet.")

    def __init__(self, lines, *, division=True, **kwargs):
        """``lines``: ``selectors.ScheduleLine`` values."""
        super().__init__(
            schedule_rows(lines), columns=schedule_columns(division=division), **kwargs
        )

    def render_date(self, value, record):
        return self.link(record["url"], self.text("date", record))


# --- The club ranking --------------------------------------------------------------------------


def club_ranking_columns():
    """Clubs ranked by their teams' overall positions."""
    return [
        Column("place", _("Place"), RANK, 7, abbr=_("#")),
        Column("club", _("Club"), TEXT, 24),
        Column("teams", _("Teams (overall position)"), TEXT, 50),
    ]


def club_ranking_rows(lines):
    """The rows of :func:`club_ranking_columns` for ``selectors.ClubLine`` values;
    ``links``: each team's (url, name, position) for the page."""
    rows = []
    for line in lines:
        rows.append(
            {
                "place": line.place,
                "shared": line.shared,
                "club": line.club.name,
                "url": reverse("leagues:club-history", kwargs={"club": line.club.slug}),
                "teams": ", ".join(f"{team.name} ({position})" for position, team in line.teams),
                "links": [
                    (team.get_absolute_url(), team.name, position) for position, team in line.teams
                ],
            }
        )
    return rows


class ClubRankingTable(SpecTable):
    class Meta(SpecTable.Meta):
        attrs = {"class": "club-ranking"}
        empty_text = gettext_lazy("No teams yet.")

    def __init__(self, lines, **kwargs):
        """``lines``: ``selectors.ClubLine`` values."""
        super().__init__(club_ranking_rows(lines), columns=club_ranking_columns(), **kwargs)

    def render_club(self, value, record):
        return self.link(record["url"], value)

    def render_teams(self, value, record):
        return format_html_join(", ", '<a href="{}">{}</a> ({})', record["links"])


# --- A club's league history -------------------------------------------------------------------


def club_history_columns():
    """A club's teams in every league it played: where each ended (or stands)."""
    return [
        Column("season", _("Season"), TEXT, 12),
        Column("league", _("League"), TEXT, 24),
        Column("team", _("Team"), TEXT, 24),
        Column("division", _("Division"), TEXT, 16),
        Column("place", _("Place"), RANK, 7),
        Column("played", _("Played"), INT, 8),
        Column("match_points", _("Match points"), NUMBER, 14, POINTS_DECIMALS),
    ]


def club_history_rows(lines):
    """The rows of :func:`club_history_columns` for ``selectors.HistoryLine`` values,
    with the links, the division's number of teams and whether its season is over."""
    return [
        {
            "season": h.league.season,
            "league": h.league.name,
            "league_url": h.league.get_absolute_url(),
            "team": h.team.name,
            "team_url": h.team.get_absolute_url(),
            "division": h.division.name,
            "division_url": h.division.get_absolute_url(),
            "place": h.line.place,
            "shared": h.line.shared,
            "teams": h.teams_in_division,
            "finished": h.finished,
            "played": h.line.played,
            "match_points": h.line.row.match_points,
        }
        for h in lines
    ]


class ClubHistoryTable(SpecTable):
    class Meta(SpecTable.Meta):
        attrs = {"class": "club-history"}
        empty_text = gettext_lazy("This club has not played in a league yet.")

    def __init__(self, lines, **kwargs):
        """``lines``: ``selectors.HistoryLine`` values."""
        super().__init__(club_history_rows(lines), columns=club_history_columns(), **kwargs)

    def render_league(self, value, record):
        return self.link(record["league_url"], value)

    def render_team(self, value, record):
        return self.link(record["team_url"], value)

    def render_division(self, value, record):
        return self.link(record["division_url"], value)

    def render_place(self, value, record):
        """The place of the number of teams ("3= / 8"), "in play" while the season runs."""
        place = format_html("{} / {}", self.text("place", record), record["teams"])
        if record["finished"]:
            return place
        return format_html('{} <span class="badge">{}</span>', place, _("in play"))
