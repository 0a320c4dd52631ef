"""Past results in: a hand log, or a sheet of evening totals, into a competition, all or nothing.

Bytes in, checked plan out, then one service that writes it; nothing here
knows about requests. The format is the hand log of :mod:`.handlog`, so the
hand-log export of any competition imports back (the backup and restore), or
a sheet of evening totals per player (:mod:`.totalsheet`), as clubs keep their
history.

1. :func:`results_import_preview` reads the file and checks every row against
   the club and the competition as they are, writing nothing. Its
   :class:`ResultsPreview` lists the evenings, games and hands that will be
   added, the players that will be added as members, the evenings that are
   already there, and every problem as (row, column, what is wrong).
2. :func:`results_import_apply` (the service) does the same checks again
   inside one transaction, with the club locked, and stores everything or
   nothing: one bad row rejects the file with :class:`ImportRejected`.

Decisions
---------
Rows
    The first row names the columns, in any order: the column names of
    :mod:`.handlog` (``date``, ``round``, ... ``pit``), the titles of our own
    .xlsx export in either language, or the Dutch words a club writes (datum,
    ronde, tafel, spel, noord, zuid, oost, west, troef, ...). Row numbers in a
    report are the spreadsheet's (the header is row 1). Empty rows are
    skipped; a column the importer does not know is left out with a warning.
    ``trump``, ``roem_a``, ``roem_b``, ``pit`` and ``verzaakt`` may be left
    out (no trump recorded, no roem, no pit, no verzaken). A hand with
    ``verzaakt`` may leave its card points empty (162 for the other team, 0 for
    the team that reneged).
Scoring
    Every hand is scored by the rules core under the competition's rule set
    (``competition.ruleset()``); whatever the core refuses (card points that
    do not add up to 162, roem 30, a pit without all the points) is a problem
    of that row. When the file has ``nat``, ``score_a`` or ``score_b`` filled
    in, they must agree with the core: a file made under other rules is caught
    rather than silently re-scored. Hand 1 of a game under a rule set with the
    roefel must be played by the forehand's team with clubs (the core's
    ``check_roefel``, as on the entry page and in the grid); its empty trump
    is stored as clubs.
Games
    Rows with the same date, round and table are one game; its four names must
    be the same on every row, four different players, each at one table per
    round. Its hands are numbered 1, 2, 3 ... without gaps or doubles, and no
    hand may come after the end of the game by the rule set. A game that stops
    before its end (15 hands of a boompje, a tie not played out) is imported as
    the paper has it, with a warning: the club's old records are what counted.
Evenings
    Rows with the same date are one evening, stored as finished, its games as
    confirmed (``confirmed_by`` "import") with their totals, marsen, nat and
    roem computed like ``scoring.services`` does, and the rule set's snapshot.
    Each game gets one audit entry, each evening one log line.
Sit-outs
    A row with the ``sitout`` column filled in is a player who sat out the
    round: the player's name in ``north``, the score in ``sitout``, ``table``
    and ``hand`` empty. It becomes a sit-out seat and a sit-out score, as the
    draw makes them. Other adjustments, absences and whether an evening counts
    are not part of the format (see :mod:`.handlog`).
Names
    A name is a member of the club with exactly that name, or else the one
    member whose name matches ignoring case and spacing. Two members matching
    is an error (tell them apart in the club first); an unknown name is an
    error unless new players are to be added as members (``--create-members``,
    the box on the upload page), once per name. An unknown name close to a
    member's (``common.text.names_close``: Renee beside Renée, Jansen beside
    Janssen) never becomes a member on its own: the preview asks, per name,
    whether it is that member or a new one, and applying needs the answers. So
    is a new name close to a new name on an earlier row (Renee and Renée, neither
    a member): the same new member, or another. An answer that makes one member
    two rows of an evening (or round, or the same game) is a problem of the
    later row, and the page keeps the file to answer again.
Twice
    Importing the same file twice adds nothing: an evening that already exists
    with the same games, hands and sit-outs is skipped. Players are compared by
    member, so a close name answered as a member is that member again; the
    preview, not answered yet, takes the evening as the same when one answer
    makes it so. An existing evening
    with other results is an error (remove it, or the rows, first); an
    existing evening without rounds (planned) gets the imported rounds.
Files
    Read by the site's one reader, :mod:`common.tabular`: CSV (UTF-8, UTF-16
    with a byte-order mark, or Windows-1252 with a warning; separated by ``,``,
    ``;`` or tabs), .xlsx and LibreOffice .ods, the first sheet, streaming. A
    formula or an error cell is a problem ("paste values"); ``=TRUE()`` reads
    as its value; the formula guard of our CSV export (a leading apostrophe
    before ``= + - @``) is dropped. When no column title is found, the report
    says which separator the first row has. A refused first row lists the
    titles both kinds of file need, in the user's language.
Sheets of totals
    A first row with a name and points and no seat (``naam``, ``punten``; see
    :mod:`.totalsheet`) is a sheet of totals: a row per player per evening, or
    per round with a ``round`` column. Each row is stored as an adjustment of
    kind ``totals`` (``Adjustment.Kind.TOTALS``, with its marsen) on an evening
    stored as finished, with the sheet's rounds, and every player on it marked
    present. A round's row counts as one game, an evening's as the
    competition's rounds per evening, so averages, best N, attendance and the
    marsen count them as the sheet has them; nat and roem are not known (0).
    Why adjustments: a score that is not a hand already lives there (a
    sit-out), so the standings, the evening's stored totals, merging members,
    forgetting a member, deleting an evening and the club archive handle them
    with no new path. A place, where the sheet has one (evening rows only), is
    checked against the points (ties may share it either way) and not stored.
    A player twice on one evening (or round) is an error.
Blame
    A game's four players are the names most of its rows have, seat by seat;
    a row with another name is that row's mistake. A row whose table, round or
    date differs from the other rows of its four players, and whose hand fills
    exactly their game's gap, is blamed alone (its game is not checked further),
    and a game that a row with an unreadable date, round or table could belong
    to is not checked for the hand it misses: one misspelt cell, one problem.
Limits
    :data:`LIMITS` (the command ``import_results``): files up to 20 MB,
    workbooks that unpack to at most 150 MB, and at most 50,000 rows: the
    largest season we know (100 players every week, the benchmark) has 48,000
    hands, and a file is one competition. :data:`PAGE_LIMITS` (the upload
    page): 20,000 rows and 64 MB unpacked, what a request reads, checks and
    stores within about 20 s (measured by ``make bench``); the page says so and
    points to the command for more. More rows is refused while reading, before
    anything is checked, asking to split the file. A report lists at most 500
    problems and says how many more there are.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import lru_cache, partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, Member
from clubs.permissions import Capability, require
from common.params import parse_id
from common.tabular import (
    Bad,
    ImportRejected,
    Limits,
    Problem,
    Rejected,
    column_letter,
    is_empty,
    normalise_title,
    read_table,
)
from common.text import names_close
from scoring import rules
from scoring.messages import hand_message
from scoring.models import Adjustment, AuditEntry, Game, Hand
from scoring.services import HAND_INPUTS, game_counts
from tournaments.models import Attendance, Competition, Evening, EveningLog, Round, Seat, Table

from . import totalsheet
from .handlog import ALIASES, COLUMNS, NAMES, POSITION, REQUIRED, TITLES

__all__ = [
    "MAX_ROWS",
    "MAX_UPLOAD_BYTES",
    "ImportRejected",
    "ImportResult",
    "Problem",
    "ResultsPreview",
    "results_import_apply",
    "results_import_preview",
]

LIMITS = Limits(max_bytes=20 * 1024 * 1024, max_rows=50_000, max_unpacked_bytes=150 * 1024 * 1024)
# What one web request reads, checks and stores within ~20 s (the worker's
# timeout is 30 s) on a club laptop: measured by ``make bench``
# (bench.imports). Larger files: manage.py import_results.
PAGE_LIMITS = Limits(
    max_bytes=20 * 1024 * 1024, max_rows=20_000, max_unpacked_bytes=64 * 1024 * 1024
)
MAX_UPLOAD_BYTES = LIMITS.max_bytes
MAX_ROWS = LIMITS.max_rows
MAX_PROBLEMS = 500
NAME_MAX = Member._meta.get_field("name").max_length

_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")
_TEAMS = {"a": "A", "b": "B", "wij": "A", "zij": "B", "w": "A", "z": "B"}
_SUITS = {
    "c": "C",
    "d": "D",
    "h": "H",
    "s": "S",
    "k": "C",  # klaveren
    "r": "D",  # ruiten
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
}


# ---------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand as read from the file, checked and scored."""

    row: int
    date: date
    round: int
    table: int
    hand: int
    names: tuple[str, str, str, str]  # north, south, east, west as written
    playing: str
    trump: str
    points_a: int
    points_b: int
    roem_a: int
    roem_b: int
    pit: str
    score_a: int
    score_b: int
    nat: bool
    # Declared roem: what each team declared (written form); roem_a/roem_b count.
    declared_a: str = ""
    declared_b: str = ""
    verzaakt: str = ""

    @property
    def game_key(self):
        return (self.date, self.round, self.table)

    def inputs(self):
        return (
            self.hand,
            self.playing,
            self.trump,
            self.points_a,
            self.points_b,
            self.roem_a,
            self.roem_b,
            self.declared_a,
            self.declared_b,
            self.pit,
            self.verzaakt,
        )


@dataclass(frozen=True, slots=True)
class SitoutEntry:
    row: int
    date: date
    round: int
    name: str
    points: int
    marsen: int = 0


@dataclass(frozen=True, slots=True)
class TotalEntry:
    """One row of a sheet of totals: a player's evening, or round with ``round``."""

    row: int
    date: date
    round: int | None
    name: str
    points: int
    marsen: int = 0


@dataclass(frozen=True)
class NearName:
    """A name of the file that is not a member but close to members' names: the
    wedstrijdleider says whether it is one of them or a new member."""

    name: str
    row: int
    column: str
    members: tuple  # ((member id, name), ...)
    #: Names on earlier rows, not members, to be added as new members: ((answer, name), ...).
    others: tuple = ()

    @property
    def field(self):
        return "near-" + _name_hash(self.name)

    @property
    def names(self):
        """The names it may be: the members', then the file's."""
        return [name for _pk, name in self.members] + [name for _value, name in self.others]


def _name_hash(name):
    return hashlib.sha256(name_key(name).encode()).hexdigest()[:16]


def _same_as(name):
    """The answer that a close name is ``name``, a new player of the same file."""
    return "same-" + _name_hash(name)


@dataclass
class GamePlan:
    date: date
    round: int
    table: int
    names: tuple[str, str, str, str]  # north, south, east, west
    hands: list[HandEntry]
    result: rules.GameResult | None = None

    @property
    def first_row(self):
        return min(hand.row for hand in self.hands)


@dataclass
class EveningPlan:
    date: date
    games: list[GamePlan] = field(default_factory=list)
    sitouts: list[SitoutEntry] = field(default_factory=list)
    totals: list[TotalEntry] = field(default_factory=list)
    existing: Evening | None = None  # a planned evening without rounds, to fill

    @property
    def rounds(self):
        return sorted(
            {g.round for g in self.games}
            | {s.round for s in self.sitouts}
            | {t.round for t in self.totals if t.round is not None}
        )

    @property
    def players(self):
        return len({name_key(t.name) for t in self.totals})

    @property
    def hand_count(self):
        return sum(len(game.hands) for game in self.games)


@dataclass
class ResultsPreview:
    """What importing a file would do; ``problems`` empty means it can be applied."""

    filename: str
    columns: dict[str, str] = field(default_factory=dict)  # key -> the file's title
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    evenings: list[EveningPlan] = field(default_factory=list)  # to add
    skipped: list[date] = field(default_factory=list)  # already imported
    new_members: list[str] = field(default_factory=list)
    #: Unknown names close to members' names, each asked on the preview.
    near: list[NearName] = field(default_factory=list)
    #: "hands" (a hand log) or "totals" (a sheet of evening totals per player).
    kind: str = "hands"
    rows: int = 0
    more_problems: int = 0
    first_date: date | None = None
    last_date: date | None = None
    _members: dict = field(default_factory=dict, repr=False)  # name key -> member id
    #: Close names not answered yet (the preview): name key -> the members it may be.
    _pending: dict = field(default_factory=dict, repr=False)
    #: A new name answered as another new name of the file: name key -> that name's key.
    _aliases: dict = field(default_factory=dict, repr=False)
    _places: dict = field(default_factory=dict, repr=False)  # TotalEntry -> its place

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def can_apply(self) -> bool:
        return self.ok and bool(self.evenings)

    @property
    def games(self) -> int:
        return sum(len(evening.games) for evening in self.evenings)

    @property
    def hands(self) -> int:
        return sum(evening.hand_count for evening in self.evenings)

    @property
    def sitouts(self) -> int:
        return sum(len(evening.sitouts) for evening in self.evenings)

    @property
    def totals(self) -> int:
        return sum(len(evening.totals) for evening in self.evenings)

    def add(self, problem: Problem):
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        else:
            self.more_problems += 1

    def finish(self):
        self.problems.sort(key=lambda p: (p.row is not None, p.row or 0))
        if self.more_problems:
            self.problems.append(
                Problem(
                    ngettext(
                        "… and %(count)s more problem.",
                        "… and %(count)s more problems.",
                        self.more_problems,
                    )
                    % {"count": self.more_problems}
                )
            )
        return self


@dataclass(frozen=True)
class ImportResult:
    competition: Competition
    evenings: list[Evening]
    games: int
    hands: int
    sitouts: int
    new_members: list[Member]
    skipped: list[date]
    totals: int = 0


# ---------------------------------------------------------------- reading


def _aliases() -> dict[str, str]:
    """Normalised column title -> column key: names, Dutch words, our titles in each language."""
    aliases = {}
    for key in COLUMNS:
        aliases[normalise_title(key)] = key
    for key, words in ALIASES.items():
        for word in words:
            aliases.setdefault(normalise_title(word), key)
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            for key in COLUMNS:
                aliases.setdefault(normalise_title(TITLES[key]), key)
    return aliases


def _total_aliases() -> dict[str, str]:
    """As :func:`_aliases`, for a sheet of evening totals (:mod:`.totalsheet`)."""
    aliases = {}
    for key in totalsheet.COLUMNS:
        aliases[normalise_title(key)] = key
    for key, words in totalsheet.ALIASES.items():
        for word in words:
            aliases.setdefault(normalise_title(word), key)
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            for key in totalsheet.COLUMNS:
                aliases.setdefault(normalise_title(totalsheet.TITLES[key]), key)
    return aliases


def _is_totals_header(titles) -> bool:
    """True when the first row names a sheet of totals (a name or points) and not a
    hand log (no seat of a player)."""
    hand, total = _aliases(), _total_aliases()
    keys = {normalise_title(t) for t in titles if isinstance(t, str)}
    found = {total[k] for k in keys if k in total}
    return bool({"name", "points"} & found) and not any(hand.get(k) in NAMES for k in keys)


def accepted_columns() -> str:
    """The column titles the import accepts, in the active language, for a refusal."""
    hands = ", ".join(str(TITLES[key]) for key in REQUIRED)
    totals = ", ".join(str(totalsheet.TITLES[key]) for key in totalsheet.REQUIRED)
    optional = ", ".join(
        str(totalsheet.TITLES[key]) for key in totalsheet.COLUMNS if key not in totalsheet.REQUIRED
    )
    return _(
        "A hand log needs the columns %(hands)s. A sheet of evening totals needs "
        "%(totals)s, and may have %(optional)s."
    ) % {"hands": hands, "totals": totals, "optional": optional}


def size_problem(size, limits: Limits | None = None) -> Problem:
    return (limits or LIMITS).size_problem(size)


# ---------------------------------------------------------------- cells


_is_empty = is_empty


class _CellError(Exception):
    pass


def _as_int(value, *, low, high, what):
    if isinstance(value, bool):
        raise _CellError(_("“%(value)s” is not a whole number.") % {"value": value})
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    elif isinstance(value, str):
        text = value.strip()
        if text.lstrip("-").isdigit() and text.isascii():
            value = int(text)
        else:
            raise _CellError(_("“%(value)s” is not a whole number.") % {"value": text})
    if not isinstance(value, int):
        raise _CellError(_("“%(value)s” is not a whole number.") % {"value": value})
    if not low <= value <= high:
        raise _CellError(
            _("%(what)s must be between %(low)s and %(high)s, not %(value)s.")
            % {"what": what, "low": low, "high": high, "value": value}
        )
    return value


def _as_date(value):
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = str(value).strip()
    if _DATE_RE.match(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    raise _CellError(
        _("“%(value)s” is not a date; write it as YYYY-MM-DD (2026-10-06).") % {"value": text}
    )


def _as_name(value):
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    if not text:
        raise _CellError(_("the name is empty."))
    if len(text) > NAME_MAX:
        raise _CellError(_("the name is longer than %(max)s characters.") % {"max": NAME_MAX})
    return text


def _as_team(value, *, empty_ok):
    text = str(value).strip().casefold() if value is not None else ""
    if not text and empty_ok:
        return ""
    team = _TEAMS.get(text)
    if team is None:
        if empty_ok:
            raise _CellError(
                _("“%(value)s” is not a team; write A (wij), B (zij) or leave it empty.")
                % {"value": str(value).strip()}
            )
        raise _CellError(
            _("“%(value)s” is not a team; write A (wij) or B (zij).")
            % {"value": str(value).strip() if value is not None else ""}
        )
    return team


def _as_trump(value):
    text = str(value).strip().casefold() if value is not None else ""
    if not text:
        return ""
    suit = _SUITS.get(text)
    if suit is None:
        raise _CellError(
            _("“%(value)s” is not a trump suit; write C, D, H, S or leave it empty.")
            % {"value": str(value).strip()}
        )
    return suit


@lru_cache(maxsize=8192)
def name_key(name: str) -> str:
    """A name compared ignoring case, accents' composition and spacing."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


# ---------------------------------------------------------------- rows


def _header(number, titles, preview, table, *, totals=False):
    """Map the header's titles to column keys: {index: key} (of a hand log, or of a
    sheet of totals with ``totals``)."""
    aliases = _total_aliases() if totals else _aliases()
    required = totalsheet.REQUIRED if totals else REQUIRED
    names = totalsheet.TITLES if totals else TITLES
    fields, unknown = {}, []
    for index, title in enumerate(titles):
        if isinstance(title, Bad):
            preview.add(Problem(title.message, row=number, column=column_letter(index)))
            continue
        if _is_empty(title):
            continue
        text = str(title).strip()
        key = aliases.get(normalise_title(text))
        if key is None:
            unknown.append(text)
        elif key in preview.columns:
            preview.add(
                Problem(
                    _("means the same as column “%(other)s”; keep one of them.")
                    % {"other": preview.columns[key]},
                    row=number,
                    column=text,
                )
            )
        else:
            preview.columns[key] = text
            fields[index] = key
    missing = [key for key in required if key not in preview.columns]
    if missing:
        if fields:
            message = _(
                "The first row must name the columns; these are missing: %(columns)s. "
                "%(accepted)s See the list of columns below."
            ) % {
                "columns": ", ".join(str(names[key]) for key in missing),
                "accepted": accepted_columns(),
            }
        else:
            message = _(
                "The first row must name the columns; it names none that this import "
                "knows. %(accepted)s See the list of columns below."
            ) % {"accepted": accepted_columns()}
        preview.add(Problem(message, row=number))
        hint = table.header_hint() if not fields else ""
        if hint:
            preview.add(Problem(hint, row=number))
        return None
    if unknown:
        preview.warnings.append(
            _("These columns are not imported: %(columns)s.")
            % {"columns": ", ".join(f"“{title}”" for title in unknown)}
        )
    return fields


_ROUND = {"low": 1, "high": 99}
_TABLE = {"low": 1, "high": 999}
_HAND = {"low": 1, "high": 99}
_POINTS = {"low": 0, "high": 162}
_ROEM = {"low": 0, "high": 2000}
_SCORE = {"low": 0, "high": 10000}
_SITOUT = {"low": -10000, "high": 10000}
_SITOUT_MARSEN = {"low": 0, "high": 99}
_SITOUT_EMPTY = (
    "table",
    "hand",
    "south",
    "east",
    "west",
    "playing",
    "points_a",
    "points_b",
    "verzaakt",
)


class _Row:
    """One row's cells, converted one column at a time; problems are collected."""

    __slots__ = ("number", "problems", "titles", "values")

    def __init__(self, number, values, titles):
        self.number = number
        self.values = values
        self.titles = titles
        self.problems = []

    def problem(self, message, key=None):
        column = self.titles.get(key, key) if key else None
        self.problems.append(Problem(message, row=self.number, column=column))

    def get(self, key, convert, *, required=True, default=None):
        value = self.values.get(key)
        if isinstance(value, Bad):
            self.problem(value.message, key)
            return None
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                self.problem(_("this cell is empty."), key)
            return default
        try:
            return convert(value)
        except _CellError as exc:
            self.problem(str(exc), key)
            return None

    def number_in(self, key, limits, what, *, required=True, default=None):
        value = self.values.get(key)
        if type(value) is str and value.isdigit() and value.isascii():
            number = int(value)  # the common case, fast
            if limits["low"] <= number <= limits["high"]:
                return number
        elif type(value) is int and limits["low"] <= value <= limits["high"]:
            return value
        return self.get(
            key,
            lambda value: _as_int(value, what=what, **limits),
            required=required,
            default=default,
        )


class _Cells:
    """One row's cells by column key, without a dict per row (a season has 50,000 rows)."""

    __slots__ = ("cells", "index_of")

    def __init__(self, cells, index_of):
        self.cells = cells
        self.index_of = index_of

    def get(self, key, default=None):
        index = self.index_of.get(key)
        if index is None or index >= len(self.cells):
            return default
        return self.cells[index]


def _collect(records, index_of):
    """The rows that are not empty in the columns read, as (number, :class:`_Cells`).

    Only the columns read are kept (a remarks column is let go at once).
    Read to the end before anything is checked, so a file over the reader's
    row limit is refused fast.
    """
    columns = sorted(set(index_of.values()))
    position = {key: columns.index(index) for key, index in index_of.items()}
    rows = []
    for number, cells in records:
        width = len(cells)
        values = [cells[i] if i < width else None for i in columns]
        if all(_is_empty(value) for value in values):
            continue
        rows.append((number, _Cells(values, position)))
    return rows


def _read_rows(records, fields, preview, ruleset):
    """Parse and score every row: (hands, sitouts, games with a bad row).

    Problems go to the preview; a game with a bad row is not checked as a game
    (its "missing" hand would only repeat the row's problem).
    """
    hands, sitouts, bad_games = [], [], set()
    count = 0
    titles = preview.columns
    index_of = {key: index for index, key in fields.items()}
    as_name = _as_name
    as_team = partial(_as_team, empty_ok=False)
    as_side = partial(_as_team, empty_ok=True)
    what = {
        "round": _("A round number"),
        "table": _("A table number"),
        "hand": _("A hand number"),
        "points": _("Card points"),
        "roem": _("Roem"),
        "score": _("A score"),
        "sitout": _("A sit-out score"),
        "sitout_marsen": _("A sit-out's marsen"),
    }
    core = _("by the rule set (%(rules)s)") % {"rules": ruleset.label}
    sitout_only = _(
        "a sit-out row has only a date, a round, the player in “%(north)s” and the "
        "score; leave this cell empty."
    ) % {"north": titles["north"]}
    for number, values in _collect(records, index_of):
        count += 1
        row = _Row(number, values, titles)
        when = row.get("date", _as_date)
        round_number = row.number_in("round", _ROUND, what["round"])
        if not _is_empty(values.get("sitout")):
            for key in _SITOUT_EMPTY:
                if not _is_empty(values.get(key)):
                    row.problem(sitout_only, key)
            name = row.get("north", as_name)
            points = row.number_in("sitout", _SITOUT, what["sitout"])
            marsen = row.number_in(
                "sitout_marsen", _SITOUT_MARSEN, what["sitout_marsen"], required=False, default=0
            )
            if row.problems:
                for problem in row.problems:
                    preview.add(problem)
            else:
                sitouts.append(SitoutEntry(number, when, round_number, name, points, marsen))
            continue
        if not _is_empty(values.get("sitout_marsen")):
            row.problem(
                _("only a sit-out row has marsen in this column; leave this cell empty."),
                "sitout_marsen",
            )
        table = row.number_in("table", _TABLE, what["table"])
        hand = row.number_in("hand", _HAND, what["hand"])
        names = tuple(row.get(key, as_name) for key in NAMES)
        playing = row.get("playing", as_team)
        trump = row.get("trump", _as_trump, required=False, default="")
        verzaakt = row.get("verzaakt", as_side, required=False, default="")
        # After verzaken the card points follow from who reneged: they may be empty.
        points_needed = not verzaakt or not (
            _is_empty(values.get("points_a")) and _is_empty(values.get("points_b"))
        )
        points_a = row.number_in("points_a", _POINTS, what["points"], required=points_needed)
        points_b = row.number_in("points_b", _POINTS, what["points"], required=points_needed)
        if not points_needed:
            points_a, points_b = (0, rules.HAND_TOTAL) if verzaakt == "A" else (rules.HAND_TOTAL, 0)
        roem_a = row.number_in("roem_a", _ROEM, what["roem"], required=False, default=0)
        roem_b = row.number_in("roem_b", _ROEM, what["roem"], required=False, default=0)
        declared = _read_declarations(row, ruleset)
        pit = row.get("pit", as_side, required=False, default="")
        if not declared and not row.problems:
            roem_a, roem_b = _read_roem(row, ruleset, (roem_a, roem_b), pit, verzaakt)
        nat = row.get("nat", as_side, required=False)
        given_a = row.number_in("score_a", _SCORE, what["score"], required=False)
        given_b = row.number_in("score_b", _SCORE, what["score"], required=False)
        if not row.problems:
            seen = {}
            for key, name in zip(NAMES, names, strict=True):
                other = seen.setdefault(name_key(name), key)
                if other != key:
                    row.problem(
                        _("%(name)s is also in column “%(other)s”: four players sit at a table.")
                        % {"name": name, "other": titles[other]},
                        key,
                    )
        result = None
        if not row.problems:
            try:
                if rules.check_roefel(ruleset, hand, playing=playing, trump=trump) and not trump:
                    trump = "C"  # the roefel: clubs are trumps
                result = rules.score_hand(
                    ruleset,
                    playing=playing,
                    points=(points_a, points_b),
                    roem=declared or (roem_a, roem_b),
                    pit=pit or None,
                    verzaakt=verzaakt or None,
                )
            except rules.InvalidHand as exc:
                row.problems.append(_hand_problem(exc, number, titles, declared=bool(declared)))
        if result is not None and declared:
            _check_counted_roem(row, result, core, ruleset)
        if result is not None:
            scores = result.scores
            nat_team = playing if result.nat else ""
            for key, given, expected in (
                ("nat", nat, nat_team),
                ("score_a", given_a, scores[0]),
                ("score_b", given_b, scores[1]),
            ):
                if given is not None and given != expected:
                    row.problem(
                        _("the file says %(given)s, but %(core)s it is %(expected)s.")
                        % {"given": given or "–", "core": core, "expected": expected or "–"},
                        key,
                    )
        if row.problems:
            for problem in row.problems:
                preview.add(problem)
            bad_games.add((when, round_number, table))
            continue
        hands.append(
            HandEntry(
                row=number,
                date=when,
                round=round_number,
                table=table,
                hand=hand,
                names=names,
                playing=playing,
                trump=trump,
                points_a=points_a,
                points_b=points_b,
                roem_a=result.roem[0],
                roem_b=result.roem[1],
                pit=pit,
                score_a=scores[0],
                score_b=scores[1],
                nat=result.nat,
                declared_a=rules.format_declarations(declared[0]) if declared else "",
                declared_b=rules.format_declarations(declared[1]) if declared else "",
                verzaakt=verzaakt,
            )
        )
    preview.rows = count
    return hands, sitouts, bad_games


_TOTAL = {"low": -10000, "high": 10000}  # as an adjustment's points
_TOTAL_MARSEN = {"low": 0, "high": 99}
_PLACE = {"low": 1, "high": 999}


def _read_totals(records, fields, preview):
    """Parse every row of a sheet of totals: [TotalEntry]; problems go to the preview.

    The place, where the sheet has one, is checked against the points of the
    evening (:func:`_check_totals`) and not stored: the standings rank again.
    """
    entries = []
    count = 0
    titles = preview.columns
    index_of = {key: index for index, key in fields.items()}
    with_rounds = "round" in titles
    what = {
        "round": _("A round number"),
        "points": _("Points"),
        "marsen": _("Marsen"),
        "place": _("A place"),
    }
    places = {}
    for number, values in _collect(records, index_of):
        count += 1
        row = _Row(number, values, titles)
        when = row.get("date", _as_date)
        round_number = row.number_in("round", _ROUND, what["round"]) if with_rounds else None
        name = row.get("name", _as_name)
        points = row.number_in("points", _TOTAL, what["points"])
        marsen = row.number_in("marsen", _TOTAL_MARSEN, what["marsen"], required=False, default=0)
        place = row.number_in("place", _PLACE, what["place"], required=False)
        if row.problems:
            for problem in row.problems:
                preview.add(problem)
            continue
        entry = TotalEntry(number, when, round_number, name, points, marsen)
        entries.append(entry)
        if place is not None:
            places[entry] = place
    preview.rows = count
    preview._places = places
    if with_rounds and places:
        preview.warnings.append(
            _(
                "The sheet has rounds, so its column “%(place)s” is not checked: the "
                "standings rank the evenings again."
            )
            % {"place": titles["place"]}
        )
        preview._places = {}
    return entries


def _check_totals(totals, preview):
    """Each player once per evening (or round); a place that the points contradict."""
    title = preview.columns
    seen = {}
    for entry in totals:
        key = (entry.date, entry.round, name_key(entry.name))
        other = seen.setdefault(key, entry.row)
        if other != entry.row:
            preview.add(
                Problem(
                    _("%(name)s already has a total for this evening on row %(other)s.")
                    % {"name": entry.name, "other": other}
                    if entry.round is None
                    else _("%(name)s already has a total for this round on row %(other)s.")
                    % {"name": entry.name, "other": other},
                    row=entry.row,
                    column=title["name"],
                )
            )
    places = preview._places
    by_date = defaultdict(list)
    for entry in totals:
        by_date[entry.date].append(entry.points)
    for entry, place in places.items():
        points = by_date[entry.date]
        best = 1 + sum(1 for p in points if p > entry.points)  # places ahead, then ties
        worst = sum(1 for p in points if p >= entry.points)
        if not best <= place <= worst:
            preview.add(
                Problem(
                    _(
                        "place %(place)s, but with %(points)s points the player is "
                        "number %(best)s of the evening."
                    )
                    % {"place": place, "points": entry.points, "best": best}
                    if best == worst
                    else _(
                        "place %(place)s, but with %(points)s points the player shares "
                        "places %(best)s to %(worst)s of the evening."
                    )
                    % {"place": place, "points": entry.points, "best": best, "worst": worst},
                    row=entry.row,
                    column=title["place"],
                )
            )


def _as_declared(value):
    """A declarations cell as text: a spreadsheet may make "50" the number 50."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _read_declarations(row, ruleset):
    """Both teams' declarations (checked, as the core keeps them), or None when the
    row has none (or the rule set finds roem in tricks: then they must be empty)."""
    keys = ("declared_a", "declared_b")
    texts = [row.get(key, _as_declared, required=False, default="") or "" for key in keys]
    if not any(texts):
        return None
    if ruleset.roem_rule is not rules.RoemRule.DECLARED:
        key = "declared_a" if texts[0] else "declared_b"
        row.problem(
            _("this competition finds roem in the tricks: write the roem, not declarations."),
            key,
        )
        return None
    try:
        return rules.check_declarations(texts)
    except rules.InvalidHand as exc:
        row.problems.append(_hand_problem(exc, row.number, row.titles, declared=True))
        return None


def _read_roem(row, ruleset, columns, pit, verzaakt):
    """The roem each team holds, from its column as the score sheet writes it
    (``rules.sheet.read_roem``: a pit's column holds the pit bonus too)."""
    held = []
    for team, column in zip(rules.Team, columns, strict=True):
        try:
            held.append(
                rules.sheet.read_roem(
                    ruleset, team, column, pit=pit or None, verzaakt=verzaakt or None
                )
            )
        except rules.InvalidHand as exc:
            row.problems.append(_hand_problem(exc, row.number, row.titles))
            held.append(0)
    return tuple(held)


def _check_counted_roem(row, result, core, ruleset):
    """With declarations, a roem column filled in is the roem that counts, written
    as the score sheet writes it (a pit's with the bonus): checked."""
    verzaakt = result.verzaakt
    for key, team in (("roem_a", rules.Team.A), ("roem_b", rules.Team.B)):
        counted = rules.sheet.write_roem(
            ruleset, team, result.roem.of(team), pit=result.pit, verzaakt=verzaakt
        )
        value = row.values.get(key)
        if _is_empty(value) or isinstance(value, Bad):
            continue
        given = row.number_in(key, _ROEM, _("Roem"), required=False)
        if given is not None and given != counted:
            row.problem(
                _("the file says %(given)s, but %(core)s it is %(expected)s.")
                % {"given": given, "core": core, "expected": counted},
                key,
            )


def _hand_problem(exc, row, title, *, declared=False):
    message = str(hand_message(exc, declared=declared))
    team = str((exc.params or {}).get("team", "A"))
    roem = ("declared_b", "declared_a") if declared else ("roem_b", "roem_a")
    column = {
        "playing": title.get("playing"),
        "trump": title.get("trump"),
        "verzaakt": title.get("verzaakt"),
        "points": title.get("points_a") + ", " + title.get("points_b"),
        "roem": title.get(roem[0] if team == "B" else roem[1], title.get("points_a")),
        "pit": title.get("pit"),
    }.get(exc.field)
    if exc.code == "verzaken_points":
        column = title.get("points_a") + ", " + title.get("points_b")
    return Problem(message, row=row, column=column)


# ---------------------------------------------------------------- checking


def _where(game_or_key):
    when, round_number, table = (
        game_or_key
        if isinstance(game_or_key, tuple)
        else (game_or_key.date, game_or_key.round, game_or_key.table)
    )
    return _("%(date)s, round %(round)s, table %(table)s") % {
        "date": when.isoformat(),
        "round": round_number,
        "table": table,
    }


def _games(hands, preview, ruleset):
    """Group hands into games and check each game; returns {key: GamePlan}."""
    title = preview.columns
    games = {}
    for hand in hands:
        game = games.get(hand.game_key)
        if game is None:
            games[hand.game_key] = GamePlan(hand.date, hand.round, hand.table, hand.names, [hand])
            continue
        game.hands.append(hand)
    good = {}
    for key, game in games.items():
        bad = False
        game.names = _most_written(game.hands)
        for hand in game.hands:
            for column, name, expected in zip(NAMES, hand.names, game.names, strict=True):
                if name_key(name) != name_key(expected):
                    bad = True
                    preview.add(
                        Problem(
                            _(
                                "%(name)s, but the other rows of this game (%(where)s) "
                                "have %(expected)s here; a game keeps its four players."
                            )
                            % {"name": name, "where": _where(key), "expected": expected},
                            row=hand.row,
                            column=title[column],
                        )
                    )
        seen = {}
        for hand in sorted(game.hands, key=lambda h: h.row):
            other = seen.setdefault(hand.hand, hand.row)
            if other != hand.row:
                bad = True
                preview.add(
                    Problem(
                        _("hand %(hand)s of this game (%(where)s) is also on row %(other)s.")
                        % {"hand": hand.hand, "where": _where(key), "other": other},
                        row=hand.row,
                        column=title["hand"],
                    )
                )
        if bad:
            continue
        game.hands.sort(key=lambda h: h.hand)
        for expected, hand in enumerate(game.hands, 1):
            if hand.hand != expected:
                bad = True
                preview.add(
                    Problem(
                        _("hand %(missing)s of this game (%(where)s) is missing.")
                        % {"missing": expected, "where": _where(key)},
                        row=hand.row,
                        column=title["hand"],
                    )
                )
                break
        if bad:
            continue
        state = rules.game_state(ruleset, totals=(0, 0), hands_played=0)
        totals = [0, 0]
        for hand in game.hands:
            if state.complete:
                bad = True
                preview.add(
                    Problem(
                        _(
                            "the game (%(where)s) was over after hand %(hands)s "
                            "(%(a)s–%(b)s); this hand comes after its end."
                        )
                        % {
                            "where": _where(key),
                            "hands": state.hands_played,
                            "a": state.totals[0],
                            "b": state.totals[1],
                        },
                        row=hand.row,
                        column=title["hand"],
                    )
                )
                break
            totals[0] += hand.score_a
            totals[1] += hand.score_b
            state = rules.game_state(ruleset, totals=totals, hands_played=hand.hand)
        if bad:
            continue
        game.result = state
        good[key] = game
    return good


def _is_bad_game(key, bad_games):
    """Whether a game has a bad row: one with its date, round and table, or one whose
    unreadable date, round or table (None) could be this game's (its missing hand
    would only repeat that row's problem)."""
    if key in bad_games:
        return True
    return any(
        None in bad and all(b is None or b == k for b, k in zip(bad, key, strict=True))
        for bad in bad_games
    )


def _misplaced(hands, preview):
    """Rows whose date, round or table is not their game's: (their row numbers, the
    keys of the games they belong to).

    A row is taken for a mistake of its own when the other rows with the same four
    players and the same other two of date, round and table are more, and its hand
    numbers fill exactly the gaps of their game; that row alone is blamed, and its
    game is not checked further (it would only miss the hand).
    """
    title = preview.columns
    strays, covered = set(), set()
    for column, index in (("table", 2), ("round", 1), ("date", 0)):
        groups = defaultdict(lambda: defaultdict(list))
        for hand in hands:
            if hand.row in strays:
                continue
            key = hand.game_key
            rest = key[:index] + key[index + 1 :]
            groups[(rest, tuple(name_key(n) for n in hand.names))][key[index]].append(hand)
        for by_value in groups.values():
            if len(by_value) < 2:
                continue
            value, main = max(by_value.items(), key=lambda item: len(item[1]))
            numbers = {h.hand for h in main}
            for other, rows in by_value.items():
                found = {h.hand for h in rows}
                if (
                    other == value
                    or len(rows) >= len(main)
                    or found & numbers
                    or len(found) != len(rows)
                    or numbers | found != set(range(1, max(numbers | found) + 1))
                ):
                    continue  # another game of the same four players
                where = main[0].game_key
                for hand in rows:
                    strays.add(hand.row)
                    preview.add(
                        Problem(
                            _(
                                "%(value)s, but the other rows of this game (%(where)s) "
                                "have %(expected)s here."
                            )
                            % {
                                "value": _shown(other),
                                "where": _where(where),
                                "expected": _shown(value),
                            },
                            row=hand.row,
                            column=title[column],
                        )
                    )
                covered.add(where)
    return strays, covered


def _shown(value):
    return value.isoformat() if isinstance(value, date) else str(value)


def _most_written(hands):
    """The four names most rows of a game have, seat by seat (on a tie, the first
    row's): a name misspelt on one row is that row's mistake, not the others'."""
    first = min(hands, key=lambda h: h.row)
    names = []
    for seat, expected in enumerate(first.names):
        counts = defaultdict(int)
        for hand in hands:
            counts[name_key(hand.names[seat])] += 1
        most = max(counts.values())
        if counts[name_key(expected)] == most:
            names.append(expected)
            continue
        written = min(
            (h for h in hands if counts[name_key(h.names[seat])] == most), key=lambda h: h.row
        )
        names.append(written.names[seat])
    return tuple(names)


def _check_places(games, sitouts, preview):
    """Each player at one place per round: one table, or sitting out once."""
    title = preview.columns
    places = {}
    ok = True
    for game in sorted(games.values(), key=lambda g: g.first_row):
        for column, name in zip(NAMES, game.names, strict=True):
            where = (game.date, game.round, name_key(name))
            other = places.setdefault(where, (game.table, game.first_row))
            if other[0] != game.table:
                ok = False
                preview.add(
                    Problem(
                        _(
                            "%(name)s also plays at table %(table)s in this round "
                            "(row %(other)s); a player has one place per round."
                        )
                        % {"name": name, "table": other[0], "other": other[1]},
                        row=game.first_row,
                        column=title[column],
                    )
                )
    for sitout in sitouts:
        where = (sitout.date, sitout.round, name_key(sitout.name))
        other = places.setdefault(where, (None, sitout.row))
        if other[1] != sitout.row:
            ok = False
            preview.add(
                Problem(
                    _("%(name)s already has a place in this round (row %(other)s).")
                    % {"name": sitout.name, "other": other[1]},
                    row=sitout.row,
                    column=title["north"],
                )
            )
    return ok


def _resolve_names(first_seen, preview, club, create_members, *, choices=None):
    """Name key -> member id (or None for a member to add); problems for the rest.

    ``first_seen``: (name, row, column key) of every row that could be read, also
    those of a game with a bad row, so an unknown name is reported in the same
    report. An unknown name close to members' names (:func:`common.text.names_close`:
    Renee beside Renée) is not added on its own: it is asked on the preview
    (``preview.near``, with ``choices`` None), and ``choices`` ({:attr:`NearName.field`:
    member id, or "new"}) holds the answers when applying: a name without one is refused.
    """
    title = preview.columns
    asking, choices = choices is None, choices or {}
    exact, by_key, names = {}, defaultdict(list), {}
    if club is not None:
        for pk, name in Member.objects.filter(club=club).values_list("pk", "name"):
            exact.setdefault(name, []).append(pk)
            by_key[name_key(name)].append(pk)
            names[pk] = name
    first = {}  # name key -> (name, row, column key)
    for name, row, column in first_seen:
        first.setdefault(name_key(name), (name, row, column))
    members, new, aliases = {}, [], {}
    for key, (name, row, column) in sorted(first.items(), key=lambda item: item[1][1]):
        if len(exact.get(name, [])) == 1:
            members[key] = exact[name][0]
        elif len(by_key.get(key, [])) == 1:
            members[key] = by_key[key][0]
        elif len(by_key.get(key, [])) > 1:
            preview.add(
                Problem(
                    _(
                        "%(count)s members of the club are called %(name)s; give them "
                        "different names in the club first."
                    )
                    % {"count": len(by_key[key]), "name": name},
                    row=row,
                    column=title[column],
                )
            )
        elif close := tuple(
            sorted(
                ((pk, other) for pk, other in names.items() if names_close(name, other)),
                key=lambda item: item[1],
            )
        ):
            near = NearName(name, row, title[column], close)
            preview.near.append(near)
            answer = str(choices.get(near.field, ""))
            if answer == "new":
                members[key] = None
                new.append(name)
            elif parse_id(answer) in dict(close):
                members[key] = parse_id(answer)
            elif not asking:
                preview.add(
                    Problem(
                        _(
                            "%(name)s is not a member, but the club has %(members)s: say "
                            "whether it is one of them or a new member."
                        )
                        % {"name": name, "members": ", ".join(n for _pk, n in close)},
                        row=row,
                        column=title[column],
                    )
                )
            else:
                members[key] = None  # asked on the preview; applying needs the answer
                preview._pending[key] = tuple(pk for pk, _name in close)
        elif others := tuple(
            (_same_as(other), other) for other in new if names_close(name, other, typos=False)
        ):
            # Renee and Renée, neither a member: one may be the other. Not one letter
            # apart: a file of new players has Speler 721 and Speler 722.
            near = NearName(name, row, title[column], (), others)
            preview.near.append(near)
            answer = str(choices.get(near.field, ""))
            same = dict(others).get(answer)
            members[key] = None
            if answer == "new":
                new.append(name)
            elif same is not None:
                aliases[key] = name_key(same)
            elif not asking:
                preview.add(
                    Problem(
                        _(
                            "%(name)s is not a member, and neither is %(names)s on an earlier "
                            "row, to be added: say whether it is the same player or another "
                            "new member."
                        )
                        % {"name": name, "names": ", ".join(n for _value, n in others)},
                        row=row,
                        column=title[column],
                    )
                )
        elif create_members:
            members[key] = None
            new.append(name)
        else:
            preview.add(
                Problem(
                    _(
                        "%(name)s is not a member of the club. Add them first, or import "
                        "with new players added as members."
                    )
                    % {"name": name},
                    row=row,
                    column=title[column],
                )
            )
    preview.new_members = new
    preview._aliases = aliases
    return members


def _check_members_once(games, sitouts, totals, preview):
    """Each member once per evening (or round) after the names are resolved: a close
    name answered as a member who is on the same evening already (Jansen is Janssen,
    and Janssen has a row too) is a problem of its row. Names are checked before
    (:func:`_check_places`, :func:`_check_totals`); this finds only the answers."""
    title, members = preview.columns, preview._members
    seen = {}  # (date, round, member id) -> (name key, name, row) of its first row

    def once(when, round_number, name, row, column):
        key = name_key(name)
        if key not in members:
            return  # not resolved: a problem already
        member = members[key]
        if member is None:  # a new member, perhaps the same as another name
            member = ("name", preview._aliases.get(key, key))
        other_key, other, other_row = seen.setdefault(
            (when, round_number, member), (key, name, row)
        )
        if other_key == key:
            return
        if round_number is None:
            message = _(
                "%(name)s is %(member)s, as you answered, who already has a total for this "
                "evening on row %(other)s."
            )
        else:
            message = _(
                "%(name)s is %(member)s, as you answered, who already has a place in this round "
                "on row %(other)s."
            )
        preview.add(
            Problem(
                message % {"name": name, "member": other, "other": other_row},
                row=row,
                column=title[column],
            )
        )

    for game in sorted(games.values(), key=lambda g: g.first_row):
        for column, name in zip(NAMES, game.names, strict=True):
            once(game.date, game.round, name, game.first_row, column)
    for sitout in sitouts:
        once(sitout.date, sitout.round, sitout.name, sitout.row, "north")
    for total in sorted(totals, key=lambda t: t.row):
        once(total.date, total.round, total.name, total.row, "name")


def _evening_fingerprint(games, sitouts, totals, *, marsen, who):
    """What an evening holds, comparable between the file and the database; without
    ``marsen`` (a file without the sit-out marsen column, as exported before it
    was added) a sit-out's marsen are left out of the comparison. ``who`` names a
    player: a member by id (:func:`_who`), so a close name answered as a member is
    that member, not the name the club has for them."""
    return (
        frozenset((t.round, who(t.name), t.points, t.marsen) for t in totals),
        frozenset(
            (
                game.round,
                game.table,
                tuple(who(n) for n in game.names),
                tuple(hand.inputs() for hand in game.hands),
            )
            for game in games
        ),
        frozenset((s.round, who(s.name), s.points, s.marsen if marsen else None) for s in sitouts),
    )


def _who(members, guess=None):
    """A player of the file as the database knows them: the member's id, else the
    name (a substitute, or a member still to be added). ``guess`` (name key ->
    member id) stands in for close names the preview has not had answered."""
    guess = guess or {}

    def who(name):
        key = name_key(name)
        member = members.get(key) or guess.get(key)
        return member if member is not None else ("name", key)

    return who


def _same_evening(stored, plan, preview, *, marsen):
    """Whether the file's evening is the stored one. In the preview a close name not
    answered yet may be any of its members: the evening is the same when one
    answer makes it so (applying compares again with the answers given)."""
    members = preview._members
    pending = {
        key: pks
        for key, pks in preview._pending.items()
        if any(
            name_key(name) == key
            for name in (
                *(t.name for t in plan.totals),
                *(s.name for s in plan.sitouts),
                *(n for g in plan.games for n in g.names),
            )
        )
    }
    keys = sorted(pending)
    answers = [{}]
    for key in keys[:4]:  # a few close names at most; more is not asked for at once
        answers = [{**done, key: pk} for done in answers for pk in pending[key]][:64]
    return any(
        stored
        == _evening_fingerprint(
            plan.games, plan.sitouts, plan.totals, marsen=marsen, who=_who(members, guess)
        )
        for guess in answers
    )


def _stored_fingerprints(evenings, *, marsen=True):
    """The fingerprint of each stored evening: {evening_id: fingerprint}."""
    ids = [evening.pk for evening in evenings]
    names = defaultdict(dict)  # table id -> position -> member id, or ("name", substitute)
    for table_id, position, member_id, substitute in Seat.objects.filter(
        round__evening_id__in=ids, table__isnull=False
    ).values_list("table_id", "position", "member_id", "substitute"):
        names[table_id][position] = (
            member_id if member_id is not None else ("name", name_key(substitute))
        )
    hands = defaultdict(list)
    for row in (
        Hand.objects.filter(game__table__round__evening_id__in=ids)
        .order_by("number")
        .values_list(
            "game__table_id",
            "number",
            *HAND_INPUTS,
        )
    ):
        hands[row[0]].append(tuple(row[1:]))
    games = defaultdict(set)
    for table_id, evening_id, round_number, table_number in Table.objects.filter(
        round__evening_id__in=ids
    ).values_list("pk", "round__evening_id", "round__number", "number"):
        seats = names.get(table_id, {})
        games[evening_id].add(
            (
                round_number,
                table_number,
                tuple(seats.get(POSITION[key], ("name", "")) for key in NAMES),
                tuple(hands.get(table_id, ())),
            )
        )
    sitouts, totals = defaultdict(set), defaultdict(set)
    for evening_id, kind, round_number, member_id, points, count in Adjustment.objects.filter(
        evening_id__in=ids,
        kind__in=[Adjustment.Kind.SITOUT, Adjustment.Kind.TOTALS],
        member__isnull=False,
    ).values_list("evening_id", "kind", "round__number", "member_id", "points", "marsen"):
        if kind == Adjustment.Kind.TOTALS:
            totals[evening_id].add((round_number, member_id, points, count))
        else:
            sitouts[evening_id].add((round_number, member_id, points, count if marsen else None))
    return {pk: (frozenset(totals[pk]), frozenset(games[pk]), frozenset(sitouts[pk])) for pk in ids}


def _plan_evenings(games, sitouts, preview, competition, *, totals=()):
    """Group by date; skip evenings already imported, refuse ones that differ."""
    title = preview.columns
    by_date = {}
    for game in games.values():
        by_date.setdefault(game.date, EveningPlan(game.date)).games.append(game)
    for sitout in sitouts:
        by_date.setdefault(sitout.date, EveningPlan(sitout.date)).sitouts.append(sitout)
    for total in totals:
        by_date.setdefault(total.date, EveningPlan(total.date)).totals.append(total)
    first_rows = {}
    for evening in by_date.values():
        rows = [g.first_row for g in evening.games] + [s.row for s in evening.sitouts]
        first_rows[evening.date] = min(rows + [t.row for t in evening.totals])
    if by_date:
        preview.first_date, preview.last_date = min(by_date), max(by_date)
    existing = {}
    if competition is not None and competition.pk is not None:
        existing = {
            e.date: e
            for e in Evening.objects.filter(competition=competition, date__in=list(by_date))
        }
        outside = [d for d in by_date if not competition.start_date <= d <= competition.end_date]
        for day in sorted(outside):
            preview.add(
                Problem(
                    _("%(date)s is outside the season of %(competition)s (%(start)s to %(end)s).")
                    % {
                        "date": day.isoformat(),
                        "competition": competition.name,
                        "start": competition.start_date.isoformat(),
                        "end": competition.end_date.isoformat(),
                    },
                    row=first_rows[day],
                    column=title["date"],
                )
            )
    with_rounds = set(  # or with imported totals: an evening with results
        Round.objects.filter(evening__in=existing.values()).values_list("evening_id", flat=True)
    ) | set(
        Adjustment.objects.filter(
            evening__in=existing.values(), kind=Adjustment.Kind.TOTALS
        ).values_list("evening_id", flat=True)
    )
    marsen = "sitout_marsen" in title
    stored = _stored_fingerprints(
        [e for e in existing.values() if e.pk in with_rounds], marsen=marsen
    )
    plans = []
    for day in sorted(by_date):
        plan = by_date[day]
        plan.games.sort(key=lambda g: (g.round, g.table))
        plan.sitouts.sort(key=lambda s: (s.round, s.name))
        plan.totals.sort(key=lambda t: (t.round or 0, -t.points, t.row))
        evening = existing.get(day)
        if evening is None:
            plans.append(plan)
        elif evening.pk not in with_rounds:
            plan.existing = evening
            plans.append(plan)
        elif _same_evening(stored[evening.pk], plan, preview, marsen=marsen):
            preview.skipped.append(day)
        else:
            preview.add(
                Problem(
                    _(
                        "%(competition)s already has an evening on %(date)s with other "
                        "results. Remove that evening first, or leave its rows out of "
                        "the file."
                    )
                    % {"competition": competition.name, "date": day.isoformat()},
                    row=first_rows[day],
                    column=title["date"],
                )
            )
    preview.evenings = plans


def _plan(
    data, filename, *, club, competition, ruleset, create_members, limits=None, name_choices=None
) -> ResultsPreview:
    preview = ResultsPreview(filename=filename)
    hands, sitouts, totals = [], [], []
    try:
        known = {**_total_aliases(), **_aliases()}
        table = read_table(data, filename, limits=limits or LIMITS, known_titles=known)
        records = table.rows()
        first = next(records, None)
        if first is None:
            preview.add(Problem(_("The file is empty.")))
            return preview.finish()
        if _is_totals_header(first[1]):
            preview.kind = "totals"
        fields = _header(*first, preview, table, totals=preview.kind == "totals")
        if fields is None:
            return preview.finish()
        if preview.kind == "totals":
            totals = _read_totals(records, fields, preview)
            bad_games = set()
        else:
            hands, sitouts, bad_games = _read_rows(records, fields, preview, ruleset)
        for problem in table.problems:
            preview.add(problem)
        preview.warnings.extend(table.warnings)
    except Rejected as exc:
        preview.problems = []
        preview.more_problems = 0
        for problem in exc.problems:
            preview.add(problem)
        preview.evenings = []
        return preview.finish()
    if preview.rows == 0 and preview.ok:
        if preview.kind == "totals":
            preview.add(Problem(_("The file has column titles but no players' totals.")))
        else:
            preview.add(Problem(_("The file has column titles but no hands.")))
        return preview.finish()
    strays, covered = _misplaced(hands, preview)
    bad_games |= covered
    games = _games(
        [h for h in hands if h.row not in strays and not _is_bad_game(h.game_key, bad_games)],
        preview,
        ruleset,
    )
    _check_places(games, sitouts, preview)
    _check_totals(totals, preview)
    first_seen = [
        (n, hand.row, c) for hand in hands for c, n in zip(NAMES, hand.names, strict=True)
    ]
    first_seen += [(s.name, s.row, "north") for s in sitouts]
    first_seen += [(t.name, t.row, "name") for t in totals]
    preview._members = _resolve_names(
        first_seen, preview, club, create_members, choices=name_choices
    )
    _check_members_once(games, sitouts, totals, preview)
    _plan_evenings(games, sitouts, preview, competition, totals=totals)
    short = [
        game
        for evening in preview.evenings
        for game in evening.games
        if game.result is not None and not game.result.complete
    ]
    for game in short[:20]:
        preview.warnings.append(
            _(
                "The game at %(where)s ends after %(hands)s hands at %(a)s–%(b)s, before "
                "the end the rule set plays to; it is imported as it is."
            )
            % {
                "where": _where(game),
                "hands": len(game.hands),
                "a": game.result.totals[0],
                "b": game.result.totals[1],
            }
        )
    if len(short) > 20:
        preview.warnings.append(
            _("… and %(count)s more games like that.") % {"count": len(short) - 20}
        )
    if preview.skipped:
        preview.warnings.append(
            ngettext(
                "%(count)s evening is already in the competition with the same "
                "results; it is skipped: %(dates)s.",
                "%(count)s evenings are already in the competition with the same "
                "results; they are skipped: %(dates)s.",
                len(preview.skipped),
            )
            % {
                "count": len(preview.skipped),
                "dates": ", ".join(d.isoformat() for d in preview.skipped),
            }
        )
    return preview.finish()


def results_import_preview(
    *,
    club: Club | None,
    competition: Competition | None,
    data: bytes,
    filename: str = "",
    ruleset: rules.Ruleset | None = None,
    create_members: bool = False,
    limits: Limits | None = None,
) -> ResultsPreview:
    """Read and check a hand log against the club and competition; changes nothing.

    ``competition`` may be None (it is to be created): then ``ruleset`` is the
    rule set it will play, and the season is the file's dates. ``limits``:
    :data:`PAGE_LIMITS` for a web request, :data:`LIMITS` when None.
    """
    if ruleset is None:
        ruleset = competition.ruleset() if competition is not None else rules.DEFAULT_RULESET
    return _plan(
        data,
        filename,
        club=club,
        competition=competition,
        ruleset=ruleset,
        create_members=create_members,
        limits=limits,
    )


# ---------------------------------------------------------------- the service


@transaction.atomic
def results_import_apply(
    *,
    club: Club,
    competition: Competition | None = None,
    new_competition: dict | None = None,
    data: bytes,
    filename: str = "",
    by=None,
    create_members: bool = False,
    limits: Limits | None = None,
    name_choices: dict | None = None,
) -> ImportResult:
    """Store a hand log's evenings in the competition: all of them, or none.

    ``by`` is the user (one who may import results: ``Capability.IMPORT_RESULTS``), or None for the
    command line. With ``competition`` None, ``new_competition`` (``name``,
    ``ruleset_preset``, optional other fields) is created first, its season
    spanning the file's dates, in the same transaction. ``name_choices``: the answers to
    the preview's questions about names close to members' (:class:`NearName`). Raises
    :class:`ImportRejected` with every problem; nothing is then changed.
    """
    if by is not None:
        require(by, club, Capability.IMPORT_RESULTS)
    Club.objects.select_for_update().get(pk=club.pk)  # one import per club at a time
    if competition is None:
        fields = dict(new_competition or {})
        preset = fields.pop("ruleset_preset", club.ruleset_preset)
        probe = Competition(
            club=club, ruleset_preset=preset, ruleset_overrides=dict(club.ruleset_overrides)
        )
        ruleset = probe.ruleset()
    else:
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        if competition.format == Competition.Format.LEAGUE:
            # Its evenings and tables follow the league's matches, which other clubs share.
            raise ImportRejected(
                [
                    Problem(
                        _(
                            "This competition belongs to a league: its evenings follow the "
                            "league's matches, so no results are imported into it."
                        )
                    )
                ]
            )
        ruleset = competition.ruleset()
    preview = _plan(
        data,
        filename,
        club=club,
        competition=competition,
        ruleset=ruleset,
        create_members=create_members,
        limits=limits,
        name_choices=dict(name_choices or {}),
    )
    if preview.problems:
        raise ImportRejected(preview.problems)
    if competition is None:
        competition = _create_competition(club, preview, preset=preset, **fields)
    return _write(preview, club=club, competition=competition, by=by, filename=filename)


def _create_competition(club, preview, *, name, preset, **fields):
    from tournaments.services import COMPETITION_FIELDS

    unknown = set(fields) - set(COMPETITION_FIELDS)
    if unknown:
        raise ValueError(f"a new competition does not take {sorted(unknown)}")
    first = preview.first_date or timezone.localdate()
    last = preview.last_date or first
    rounds = max((max(e.rounds, default=1) for e in preview.evenings), default=1)
    fields.setdefault("start_date", first)
    fields.setdefault("end_date", last)
    fields.setdefault("rounds_per_evening", min(max(rounds, 3), 12))
    competition = Competition(
        club=club,
        name=name,
        ruleset_preset=preset,
        ruleset_overrides=dict(club.ruleset_overrides),
        **fields,
    )
    competition.full_clean()
    competition.save()
    return competition


def _write(preview, *, club, competition, by, filename) -> ImportResult:
    now = timezone.now()
    user = by if by is not None and by.is_authenticated else None
    ruleset = competition.ruleset()
    snapshot = ruleset.to_dict()
    short_name = filename if len(filename) <= 80 else filename[:79] + "…"
    confirmed_by = _("import")
    actor = (user.get_username() if user else _("command line"))[:150]
    reason = (_("Imported from %(file)s") % {"file": short_name})[:300]

    members = dict(preview._members)
    added = []
    if preview.new_members:
        added = [Member(club=club, name=name) for name in preview.new_members]
        for member in added:
            member.full_clean(exclude=["club"], validate_unique=False)
        added = Member.objects.bulk_create(added)
        for member in added:
            members[name_key(member.name)] = member.pk
    for key, same in preview._aliases.items():  # one new member under two names
        members[key] = members[same]

    new_evenings = [
        Evening(
            competition=competition,
            date=plan.date,
            status=Evening.Status.FINISHED,
            note=(_("Imported from %(file)s") % {"file": short_name})[:200],
        )
        for plan in preview.evenings
        if plan.existing is None
    ]
    created = iter(Evening.objects.bulk_create(new_evenings))
    evenings = []
    for plan in preview.evenings:
        if plan.existing is not None:
            evening = plan.existing
            evening.status = Evening.Status.FINISHED
            evening.save(update_fields=["status"])
        else:
            evening = next(created)
        evenings.append(evening)

    rounds = Round.objects.bulk_create(
        Round(evening=evening, number=number)
        for plan, evening in zip(preview.evenings, evenings, strict=True)
        for number in plan.rounds
    )
    round_of = {(r.evening_id, r.number): r for r in rounds}
    games_plan = [
        (evening, game)
        for plan, evening in zip(preview.evenings, evenings, strict=True)
        for game in plan.games
    ]
    tables = Table.objects.bulk_create(
        (
            Table(round=round_of[(evening.pk, game.round)], number=game.table)
            for evening, game in games_plan
        ),
        batch_size=2000,
    )
    seats, games = [], []
    for table, (_evening, game) in zip(tables, games_plan, strict=True):
        for key, name in zip(NAMES, game.names, strict=True):
            seats.append(
                Seat(
                    round=table.round,
                    table=table,
                    position=POSITION[key],
                    member_id=members[name_key(name)],
                )
            )
        hands = game.hands
        result = game.result
        games.append(
            Game(
                table=table,
                ruleset=snapshot,
                status=Game.Status.CONFIRMED,
                hands_entered=len(hands),
                total_a=result.totals[0],
                total_b=result.totals[1],
                winner=result.winner or "",
                **game_counts(hands, ruleset),
                version=1,
                confirmed_by=confirmed_by,
                confirmed_at=now,
            )
        )
    adjustments, present = [], set()
    for plan, evening in zip(preview.evenings, evenings, strict=True):
        for total in plan.totals:
            member_id = members[name_key(total.name)]
            present.add((evening.pk, member_id))
            adjustments.append(
                Adjustment(
                    evening=evening,
                    round=round_of[(evening.pk, total.round)] if total.round else None,
                    kind=Adjustment.Kind.TOTALS,
                    member_id=member_id,
                    points=total.points,
                    marsen=total.marsen,
                    # A round is a game; an evening's total its competition's rounds.
                    games=1 if total.round else competition.rounds_per_evening,
                    reason=reason,
                    created_by=user,
                )
            )
        for sitout in plan.sitouts:
            round_ = round_of[(evening.pk, sitout.round)]
            member_id = members[name_key(sitout.name)]
            present.add((evening.pk, member_id))
            seats.append(Seat(round=round_, member_id=member_id))
            adjustments.append(
                Adjustment(
                    evening=evening,
                    round=round_,
                    kind=Adjustment.Kind.SITOUT,
                    member_id=member_id,
                    points=sitout.points,
                    marsen=sitout.marsen,
                    reason=_("Sat out round %(number)s") % {"number": sitout.round},
                    created_by=user,
                )
            )
    present.update((seat.round.evening_id, seat.member_id) for seat in seats)
    # Who played was there: the evening's attendance says so, as a club night's does.
    Attendance.objects.bulk_create(
        (
            Attendance(evening_id=evening_id, member_id=member_id)
            for evening_id, member_id in sorted(present)
        ),
        batch_size=4000,
        ignore_conflicts=True,
    )
    Seat.objects.bulk_create(seats, batch_size=4000)
    games = Game.objects.bulk_create(games, batch_size=2000)
    Hand.objects.bulk_create(
        (
            Hand(
                game=game_obj,
                number=hand.hand,
                playing=hand.playing,
                trump=hand.trump,
                points_a=hand.points_a,
                points_b=hand.points_b,
                roem_a=hand.roem_a,
                roem_b=hand.roem_b,
                declared_a=hand.declared_a,
                declared_b=hand.declared_b,
                pit=hand.pit,
                score_a=hand.score_a,
                score_b=hand.score_b,
                nat=hand.nat,
                verzaakt=hand.verzaakt,
                entered_by=user,
                entered_via="import",
            )
            for game_obj, (_evening, game) in zip(games, games_plan, strict=True)
            for hand in game.hands
        ),
        batch_size=4000,
    )
    Adjustment.objects.bulk_create(adjustments)
    AuditEntry.objects.bulk_create(
        (
            AuditEntry(
                game=game_obj,
                action=AuditEntry.Action.CREATE,
                user=user,
                actor=actor,
                after={
                    "hands": game_obj.hands_entered,
                    "total_a": game_obj.total_a,
                    "total_b": game_obj.total_b,
                },
                reason=reason,
            )
            for game_obj in games
        ),
        batch_size=2000,
    )
    EveningLog.objects.bulk_create(
        EveningLog(
            evening=evening,
            user=user,
            summary=(
                ngettext(
                    "%(count)s player's total imported from %(file)s",
                    "%(count)s players' totals imported from %(file)s",
                    len(plan.totals),
                )
                % {"count": len(plan.totals), "file": short_name}
                if plan.totals
                else ngettext(
                    "%(count)s game imported from %(file)s",
                    "%(count)s games imported from %(file)s",
                    len(plan.games),
                )
                % {"count": len(plan.games), "file": short_name}
            )[:300],
        )
        for plan, evening in zip(preview.evenings, evenings, strict=True)
    )
    return ImportResult(
        competition=competition,
        evenings=evenings,
        games=len(games),
        hands=preview.hands,
        sitouts=preview.sitouts,
        new_members=added,
        skipped=list(preview.skipped),
        totals=preview.totals,
    )
