"""The one way a page hands over a file it made.

:func:`download` answers with the file as an attachment (or, for a PDF to look
at, inline), named after a slug of ``stem``, and marked so that no shared cache
(a proxy, the hall's router) keeps it and the browser does not store it: the
files hold people's names, phone numbers and results.
"""

import io

from django.http import FileResponse
from django.utils.cache import patch_cache_control
from django.utils.text import slugify

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CONTENT_TYPES = {
    "xlsx": XLSX_TYPE,
    "csv": "text/csv; charset=utf-8",
    "pdf": "application/pdf",
    "zip": "application/zip",
    "json": "application/json; charset=utf-8",
}


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
