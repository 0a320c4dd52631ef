"""The hand log: one row per hand of a competition, the format of export and import.

Columns (a header row names them, in any order):

==========  =====================================================================
date        the evening, ``YYYY-MM-DD`` (an .xlsx date cell is fine too)
round       the round of the evening, 1, 2, ...
table       the table of the round
hand        the hand of the game at that table, 1, 2, ...
north       player names as the club writes them; north and south are team A
south       (wij), east and west team B (zij)
east
west
playing     the team that named trump: ``wij`` or ``zij`` (``A``/``B`` read too)
trump       ``C``, ``D``, ``H``, ``S`` (or Dutch ``K``, ``R``, ``H``, ``S``) or empty
points_a    card points of each team, together 162
points_b
roem_a      roem of each team, written as the score sheet writes it
roem_b      (:mod:`scoring.rules.sheet`): the pit team's is the pit bonus plus its
            roem (``100`` for a pit without roem, ``120`` with 20 roem), and after
            verzaken the other team's is the penalty plus its roem; empty is 0
            (beside a pit: the bonus alone). Under declared roem (match-1500) the
            roem that counts: with declarations it is checked when filled in
declared_a  declared roem (match-1500) only: what each team declared, written
declared_b  ``50+20+stuk`` (runs by points: 20, 50, 100; ``stuk``); the importer
            counts them by the rule set, only the single highest run's team
            scoring its runs. Empty in both: ``roem_a``/``roem_b`` count as given
pit         the team that took every trick: ``wij``, ``zij`` or empty
verzaakt    the team that reneged, ending the hand (verzaken): ``wij``, ``zij`` or
            empty; its card points are then 162 for the other team and 0 for the
            team that reneged (they may be left empty), roem is all roem of the
            hand, in the other team's column with the penalty (under declared
            roem: the declarations, counted as in a played hand), and there is no
            pit
==========  =====================================================================

Optional columns the export writes as well; the importer checks them when they
are filled in (a file made under other rules than the competition's is caught):

==========  =====================================================================
nat         the team that was nat (the playing team), or empty
score_a     what each team banked for the hand
score_b
sitout      a sit-out row: the score of the player in ``north`` who sat out the
            round; ``table``, ``hand`` and the other columns stay empty
sitout_     a sit-out row only: the marsen the sit-out counts (1 where the club
marsen      gives a sit-out a mars, ``Competition.sitout_mars``); empty is 0
==========  =====================================================================

Both files (CSV and .xlsx) title the columns in the active language
(:data:`TITLES`: "Datum", "Ronde", ... in Dutch) and write the teams as the
score sheet does, ``wij`` and ``zij``; the CSV file is in the site's one
dialect (:func:`common.csvfile.dialect`). The importer reads the titles in
either language, the column names above (files written before), either
separator, and ``A``/``B`` as well as ``wij``/``zij``.

Not in the format: adjustments other than sit-out scores (a player's -100
verzaken penalty, a director's correction), attendance (who called in absent, which the absence
policy scores), whether an evening counts for the ranking, and which seats
were taken by a substitute (a substitute is written under the name the table
gave them). :func:`unportable` lists what a competition has of these, so the
export command can warn that a backup leaves them out.
"""

import heapq
from collections import defaultdict
from typing import NamedTuple

from django.utils.translation import gettext_lazy as _

from scoring import rules
from scoring.models import Adjustment, Hand
from scoring.rules.teams import Team
from scoring.services import HAND_INPUTS
from tournaments.models import Attendance, Competition, Evening, Seat

#: Every column, in the order the exports write them.
COLUMNS = (
    "date",
    "round",
    "table",
    "hand",
    "north",
    "south",
    "east",
    "west",
    *HAND_INPUTS,  # what a scorer enters for a hand, in the services' order
    "nat",
    "score_a",
    "score_b",
    "sitout",
    "sitout_marsen",
)
#: A file without one of these cannot be imported.
REQUIRED = (
    "date",
    "round",
    "table",
    "hand",
    "north",
    "south",
    "east",
    "west",
    "playing",
    "points_a",
    "points_b",
)
NAMES = ("north", "south", "east", "west")
#: Seat position of each name column.
POSITION = {"north": "N", "south": "S", "east": "E", "west": "W"}

TITLES = {
    "date": _("Date"),
    "round": _("Round"),
    "table": _("Table"),
    "hand": _("Hand"),
    "north": _("North"),
    "south": _("South"),
    "east": _("East"),
    "west": _("West"),
    "playing": _("Playing team"),
    "trump": _("Trump"),
    "points_a": _("Points wij"),
    "points_b": _("Points zij"),
    "roem_a": _("Roem wij"),
    "roem_b": _("Roem zij"),
    "declared_a": _("Declared wij"),
    "declared_b": _("Declared zij"),
    "pit": _("Pit"),
    "verzaakt": _("Verzaakt"),
    "nat": _("Nat"),
    "score_a": _("Score wij"),
    "score_b": _("Score zij"),
    "sitout": _("Sit-out score"),
    "sitout_marsen": _("Sit-out marsen"),
}

#: Titles a club's own spreadsheet may use, besides the column names and TITLES.
ALIASES = {
    "date": ("datum", "avond", "speelavond"),
    "round": ("ronde", "boom", "boompje"),
    "table": ("tafel",),
    "hand": ("spel", "spelnummer", "deal"),
    "north": ("noord", "n"),
    "south": ("zuid", "z", "s"),
    "east": ("oost", "o", "e"),
    "west": ("west", "w"),
    "playing": ("speelt", "spelend", "gespeeld door", "playing team", "team"),
    "trump": ("troef",),
    "points_a": ("punten wij", "punten a", "points wij", "wij"),
    "points_b": ("punten zij", "punten b", "points zij", "zij"),
    "roem_a": ("roem wij", "roem a"),
    "roem_b": ("roem zij", "roem b"),
    "declared_a": ("gemeld wij", "gemeld a", "declared a", "roem gemeld wij"),
    "declared_b": ("gemeld zij", "gemeld b", "declared b", "roem gemeld zij"),
    "pit": ("mars", "pit mars"),
    "verzaakt": ("verzaken", "renege", "reneged"),
    "nat": (),
    "score_a": ("totaal wij", "score wij", "banked wij"),
    "score_b": ("totaal zij", "score zij", "banked zij"),
    "sitout": ("uitloter", "stilzitten", "sit out", "sitout score"),
    "sitout_marsen": ("marsen uitloter", "uitloter marsen", "sit out marsen", "sitout mars"),
}


def titles() -> list[str]:
    """The column titles in the active language, in the order of :data:`COLUMNS`."""
    return [str(TITLES[key]) for key in COLUMNS]


def team_word(team) -> str | None:
    """``wij`` or ``zij`` for a stored team (``A``/``B``), as the score sheet writes it."""
    return Team(team).column if team else None


class HandLogRow(NamedTuple):
    """One row of the hand log, as the exports write it (``None`` is an empty cell)."""

    date: object
    round: int
    table: int | None
    hand: int | None
    north: str
    south: str | None
    east: str | None
    west: str | None
    playing: str | None
    trump: str | None
    points_a: int | None
    points_b: int | None
    roem_a: int | None
    roem_b: int | None
    declared_a: str | None
    declared_b: str | None
    pit: str | None
    verzaakt: str | None
    nat: str | None
    score_a: int | None
    score_b: int | None
    sitout: int | None
    sitout_marsen: int | None


def seat_names(competition):
    """{table_id: {position: name}} for every table of the competition, in one query."""
    names = defaultdict(dict)
    seats = Seat.objects.filter(
        round__evening__competition=competition, table__isnull=False
    ).values_list("table_id", "position", "member__name", "substitute")
    for table_id, position, name, substitute in seats:
        names[table_id][position] = name or substitute
    return names


def hand_log_rows(competition: Competition, *, names=None):
    """Every hand of the competition (and every sit-out score), in order.

    Ordered by date, round, table and hand; a round's sit-outs follow its
    tables. Three queries whatever the size (two with ``names`` from
    :func:`seat_names`); the hands are streamed.
    """
    if names is None:
        names = seat_names(competition)
    # The roem columns as the sheet writes them, with the bonuses of the rule set
    # the importer reads them by (rules.sheet.write_roem).
    ruleset = competition.ruleset()
    write_roem = rules.sheet.write_roem
    hands = (
        Hand.objects.filter(game__table__round__evening__competition=competition)
        .order_by(
            "game__table__round__evening__date",
            "game__table__round__number",
            "game__table__number",
            "number",
        )
        .values_list(
            "game__table_id",
            "game__table__round__evening__date",
            "game__table__round__number",
            "game__table__number",
            "number",
            *HAND_INPUTS,
            "nat",
            "score_a",
            "score_b",
        )
    )

    def hand_rows():
        for (
            table_id,
            date,
            round_number,
            table_number,
            number,
            playing,
            trump,
            points_a,
            points_b,
            roem_a,
            roem_b,
            declared_a,
            declared_b,
            pit,
            verzaakt,
            nat,
            score_a,
            score_b,
        ) in hands.iterator(chunk_size=4000):
            seats = names.get(table_id, {})
            yield (
                (date, round_number, 0, table_number, number),
                HandLogRow(
                    date,
                    round_number,
                    table_number,
                    number,
                    seats.get("N", ""),
                    seats.get("S", ""),
                    seats.get("E", ""),
                    seats.get("W", ""),
                    team_word(playing),
                    trump or None,
                    points_a,
                    points_b,
                    write_roem(ruleset, Team.A, roem_a, pit=pit, verzaakt=verzaakt),
                    write_roem(ruleset, Team.B, roem_b, pit=pit, verzaakt=verzaakt),
                    declared_a or None,
                    declared_b or None,
                    team_word(pit),
                    team_word(verzaakt),
                    team_word(playing) if nat else None,
                    score_a,
                    score_b,
                    None,
                    None,
                ),
            )

    sitouts = (
        Adjustment.objects.filter(
            evening__competition=competition, kind=Adjustment.Kind.SITOUT, round__isnull=False
        )
        .order_by("evening__date", "round__number", "member__name", "pk")
        .values_list("evening__date", "round__number", "member__name", "points", "marsen")
    )

    def sitout_rows():
        for date, round_number, name, points, marsen in sitouts:
            yield (
                (date, round_number, 1, 0, 0),
                HandLogRow(
                    date, round_number, *(None,) * 2, name, *(None,) * 16, points, marsen or None
                ),
            )

    for _key, row in heapq.merge(hand_rows(), sitout_rows(), key=lambda item: item[0]):
        yield row


def name_width(names) -> int:
    """The longest player name in :func:`seat_names` (for column widths)."""
    return max((len(name) for seats in names.values() for name in seats.values()), default=0)


def unportable(competition: Competition) -> list[str]:
    """What the competition holds that the hand-log format leaves out, in words."""
    notes = []
    others = Adjustment.objects.filter(evening__competition=competition).exclude(
        kind=Adjustment.Kind.SITOUT
    )
    if others.exists():
        notes.append(
            _("%(count)s adjustments other than sit-out scores (penalties, corrections).")
            % {"count": others.count()}
        )
    if competition.absence_policy != Competition.AbsencePolicy.NOTHING:
        excused = Attendance.objects.filter(
            evening__competition=competition, status=Attendance.Status.EXCUSED
        ).count()
        if excused:
            notes.append(
                _("%(count)s absences that the absence policy scores.") % {"count": excused}
            )
    not_counted = Evening.objects.filter(competition=competition, counts_for_ranking=False)
    if not_counted.exists():
        notes.append(
            _("%(count)s evenings that do not count for the ranking.")
            % {"count": not_counted.count()}
        )
    substitutes = Seat.objects.filter(
        round__evening__competition=competition, member__isnull=True
    ).count()
    if substitutes:
        notes.append(
            _("%(count)s seats taken by a substitute (written under the substitute's name).")
            % {"count": substitutes}
        )
    return notes
