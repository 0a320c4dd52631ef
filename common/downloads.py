"""The one way a page hands over a file it made, and the one home of file names.

:func:`download` answers with the file as an attachment (or, for a PDF to look
at, inline), named after a slug of ``stem``, and marked so that no shared cache
(a proxy, the hall's router) keeps it and the browser does not store it: the
files hold people's names, phone numbers and results.

:func:`file_stem` makes that stem: the word saying what the file holds
(:data:`FILE_WORDS`, translated in the reader's language with the context
"file name", so the Dutch file is ``...-stand.pdf``, never the table of a card
game's ``tafel``), then the names and dates that say whose it is.
"""

import io

from django.http import FileResponse
from django.utils.cache import patch_cache_control
from django.utils.text import slugify
from django.utils.translation import pgettext_lazy

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CONTENT_TYPES = {
    "xlsx": XLSX_TYPE,
    "csv": "text/csv; charset=utf-8",
    "pdf": "application/pdf",
    "zip": "application/zip",
    "json": "application/json; charset=utf-8",
}


#: What a downloaded file holds, as its name says it.
FILE_WORDS = {
    "archive": pgettext_lazy("file name", "archive"),
    "standings": pgettext_lazy("file name", "standings"),
    "result": pgettext_lazy("file name", "result"),
    "schedule": pgettext_lazy("file name", "schedule"),
    "match_form": pgettext_lazy("file name", "match form"),
    "members": pgettext_lazy("file name", "members"),
    "hands": pgettext_lazy("file name", "hands"),
    "score_sheets": pgettext_lazy("file name", "score sheets"),
    "score_sheets_filled": pgettext_lazy("file name", "score sheets filled"),
    "table_plan": pgettext_lazy("file name", "table plan"),
    "round": pgettext_lazy("file name", "round"),
    "my_data": pgettext_lazy("file name", "my data"),
}


def file_stem(owner, word, *parts) -> str:
    """``owner`` (the club, the league; may be empty), what the file holds (a key of
    :data:`FILE_WORDS`) and the ``parts`` that say which one, as one stem."""
    return " ".join(str(part) for part in (owner, FILE_WORDS[word], *parts) if str(part))


def download(data: bytes, stem: str, extension: str, *, inline=False) -> FileResponse:
    """``data`` as the file ``<slug of stem>.<extension>``."""
    response = FileResponse(
        io.BytesIO(data),
        as_attachment=not inline,
        filename=f"{slugify(stem) or 'export'}.{extension}",
        content_type=CONTENT_TYPES[extension],
    )
    patch_cache_control(response, private=True, no_cache=True, no_store=True)
    return response
