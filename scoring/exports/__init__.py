"""Results as files: spreadsheets and PDFs out, past results in. Bytes in, bytes out.

Nothing here knows about requests. Views (``scoring.exports.views``) wrap the
bytes in a ``FileResponse``; the management commands (``export_standings``,
``export_hands``, ``print_scoresheets``, ``import_results``) write them to disk.

Modules
-------
:mod:`.reports`
    What a file holds, read once from ``scoring.results.standings`` and the database:
    a :class:`~.reports.Report` (standings, an evening's result), the score
    sheets and the table plan of a round. Every format renders the same values,
    so a spreadsheet, a CSV file and a PDF never disagree with the site.
:mod:`.handlog`
    The hand-log format: one row per hand, the columns the importer reads and
    the exports write, and the query that streams them.
:mod:`.xlsx`, :mod:`.csv`, :mod:`.pdf`
    The renderers.
:mod:`.totalsheet`
    The columns of a sheet of evening totals per player, as clubs keep their history.
:mod:`.importers`
    Past results in (a hand log, or a sheet of totals): read, check every row, then
    store all or nothing.
The benchmark of these files is ``python -m bench.exports`` (in ``bench/``).

Shared decisions
----------------
Files
    Written by the one writer layer in ``common/``: :mod:`common.xlsxfile`,
    :mod:`common.csvfile` (the formula guard: a name such as ``=HYPERLINK(...)``
    is a quoted text cell in .xlsx and gets a leading apostrophe in CSV, which
    the importer drops again) and :mod:`common.pdf` (the embedded font).
Language
    Titles, labels, file names and dates use the active language (Dutch by
    default, as the site; a command's ``--language``), the hand log included:
    the importer reads its titles in either language and the old machine
    names (``date``, ``round``, ...). Teams are ``wij`` and ``zij`` in every
    file, as on the paper score sheet. Every CSV file has the language's one
    dialect (:func:`common.csvfile.dialect`: ``;`` and a decimal comma in
    Dutch, ``,`` and a point in English).
The table link
    :func:`table_entry_path` is the one place that knows the address of a
    table's entry page; callers make it absolute (the view with
    ``request.build_absolute_uri``, the command with ``--base-url``).
"""

from django.urls import NoReverseMatch, reverse


def table_entry_path(token: str) -> str:
    """The path of a table's private entry page (what its QR code opens)."""
    try:
        return reverse("scoring:table-entry", kwargs={"token": token})
    except NoReverseMatch:
        return f"/t/{token}/"
