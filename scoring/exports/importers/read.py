"""Reading: the file's bytes to checked rows (:func:`read_file`).

The first row names the columns (the hand log's or a sheet of totals'), every
cell is converted and every hand scored by the rules core; a row's problems go
to the preview. What the rows say together is :mod:`.check`'s.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import partial

from django.utils.translation import gettext as _

from clubs.models import Member
from common.tabular import (
    Bad,
    Limits,
    Problem,
    Rejected,
    is_empty,
    normalise_title,
    read_table,
    title_aliases,
)
from common.text import name_key
from scoring import rules
from scoring.messages import hand_message

from .. import totalsheet
from ..handlog import ALIASES, COLUMNS, NAMES, REQUIRED, TITLES
from .values import HandEntry, SitoutEntry, TotalEntry

LIMITS = Limits(max_bytes=20 * 1024 * 1024, max_rows=50_000, max_unpacked_bytes=150 * 1024 * 1024)
# What one web request reads, checks and stores within ~20 s (the worker's
# timeout is 30 s) on a club laptop: measured by ``make bench``
# (bench.imports). Larger files: manage.py import_results.
PAGE_LIMITS = Limits(
    max_bytes=20 * 1024 * 1024, max_rows=20_000, max_unpacked_bytes=64 * 1024 * 1024
)
MAX_UPLOAD_BYTES = LIMITS.max_bytes
MAX_ROWS = LIMITS.max_rows
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


# ---------------------------------------------------------------- reading


def _aliases() -> dict[str, str]:
    """Normalised column title -> column key: names, Dutch words, our titles in each language."""
    return title_aliases(
        {key: (key, *ALIASES.get(key, ())) for key in COLUMNS},
        {key: TITLES[key] for key in COLUMNS},
    )


def _total_aliases() -> dict[str, str]:
    """As :func:`_aliases`, for a sheet of evening totals (:mod:`..totalsheet`)."""
    return title_aliases(
        {key: (key, *totalsheet.ALIASES.get(key, ())) for key in totalsheet.COLUMNS},
        {key: totalsheet.TITLES[key] for key in totalsheet.COLUMNS},
    )


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


# ---------------------------------------------------------------- rows


def _header(number, titles, preview, table, *, totals=False):
    """Map the header's titles to column keys: {index: key} (of a hand log, or of a
    sheet of totals with ``totals``), or None when a column is missing."""
    aliases = _total_aliases() if totals else _aliases()
    required = totalsheet.REQUIRED if totals else REQUIRED
    names = totalsheet.TITLES if totals else TITLES
    header = table.header(number, titles, aliases)
    for problem in header.problems:
        preview.add(problem)
    preview.columns.update(header.columns)
    missing = header.missing(required)
    if missing:
        if header.fields:
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
        for problem in header.refused(message):
            preview.add(problem)
        return None
    preview.warnings.extend(header.warnings)
    return header.fields


_ROUND = {"low": 1, "high": 99}
_TABLE = {"low": 1, "high": 999}
_HAND = {"low": 1, "high": 99}
_POINTS = {"low": 0, "high": rules.HAND_TOTAL}
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
        if all(is_empty(value) for value in values):
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
        if not is_empty(values.get("sitout")):
            for key in _SITOUT_EMPTY:
                if not is_empty(values.get(key)):
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
        if not is_empty(values.get("sitout_marsen")):
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
            is_empty(values.get("points_a")) and is_empty(values.get("points_b"))
        )
        points_a = row.number_in("points_a", _POINTS, what["points"], required=points_needed)
        points_b = row.number_in("points_b", _POINTS, what["points"], required=points_needed)
        if not points_needed:
            points_a, points_b = rules.all_points("B" if verzaakt == "A" else "A")
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
    evening (:func:`.check._check_totals`) and not stored: the standings rank again.
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
        if is_empty(value) or isinstance(value, Bad):
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


def read_file(data, filename, preview, ruleset, *, limits=None):
    """Read a file into the preview (its kind, columns, row count, warnings and every
    row's problems): (hands, sit-outs, totals, games with a bad row), or None when
    there is nothing to check (the preview says why). ``limits``: :data:`LIMITS` when None."""
    hands, sitouts, totals, bad_games = [], [], [], set()
    try:
        known = {**_total_aliases(), **_aliases()}
        table = read_table(data, filename, limits=limits or LIMITS, known_titles=known)
        records = table.rows()
        first = next(records, None)
        if first is None:
            preview.add(Problem(_("The file is empty.")))
            return None
        if _is_totals_header(first[1]):
            preview.kind = "totals"
        fields = _header(*first, preview, table, totals=preview.kind == "totals")
        if fields is None:
            return None
        if preview.kind == "totals":
            totals = _read_totals(records, fields, preview)
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
        return None
    if preview.rows == 0 and preview.ok:
        if preview.kind == "totals":
            preview.add(Problem(_("The file has column titles but no players' totals.")))
        else:
            preview.add(Problem(_("The file has column titles but no hands.")))
        return None
    return hands, sitouts, totals, bad_games
