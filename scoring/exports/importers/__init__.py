"""Past results in: a hand log, or a sheet of evening totals, into a competition, all or nothing.

Bytes in, checked plan out, then one service that writes it; nothing here
knows about requests. The format is the hand log of :mod:`..handlog`, so the
hand-log export of any competition imports back (the backup and restore), or
a sheet of evening totals per player (:mod:`..totalsheet`), as clubs keep their
history.

1. :func:`results_import_preview` reads the file and checks every row against
   the club and the competition as they are, writing nothing. Its
   :class:`ResultsPreview` lists the evenings, games and hands that will be
   added, the players that will be added as members, the evenings that are
   already there, and every problem as (row, column, what is wrong).
2. :func:`results_import_apply` (the service) does the same checks again
   inside one transaction, with the club locked, and stores everything or
   nothing: one bad row rejects the file with :class:`ImportRejected`.

The package does four jobs in a row, a module each: :mod:`.read` (the file to
checked rows), :mod:`.check` (the rows together: games, places, names),
:mod:`.plan` (evenings to add, skip or refuse; the preview) and :mod:`.write`
(the service). :mod:`.values` holds what passes between them.

Decisions
---------
Rows
    The first row names the columns, in any order: the column names of
    :mod:`..handlog` (``date``, ``round``, ... ``pit``), the titles of our own
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
    are not part of the format (see :mod:`..handlog`).
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
    :mod:`..totalsheet`) is a sheet of totals: a row per player per evening, or
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

from common.tabular import ImportRejected, Problem

from .plan import results_import_preview
from .read import LIMITS, MAX_ROWS, MAX_UPLOAD_BYTES, PAGE_LIMITS, accepted_columns, size_problem
from .values import ImportResult, NearName, ResultsPreview
from .write import results_import_apply

__all__ = [
    "LIMITS",
    "MAX_ROWS",
    "MAX_UPLOAD_BYTES",
    "PAGE_LIMITS",
    "ImportRejected",
    "ImportResult",
    "NearName",
    "Problem",
    "ResultsPreview",
    "accepted_columns",
    "results_import_apply",
    "results_import_preview",
    "size_problem",
]
