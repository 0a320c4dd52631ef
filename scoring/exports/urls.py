"""Downloads (spreadsheets, PDFs) and the results import, in the "exports" namespace.

Include from ``config/urls.py`` with ``path("", include("scoring.exports.urls"))``.
"""

from django.urls import path

from . import archive_views, views

app_name = "exports"

CLUB = "clubs/<slug:club>/"


def _per_format(route, view, name, formats=("xlsx", "csv", "pdf")):
    """One file in each of ``formats``: ``route.xlsx`` named ``name-xlsx``, ...; the
    view is given the format as ``fmt``."""
    return [path(f"{route}.{fmt}", view, {"fmt": fmt}, name=f"{name}-{fmt}") for fmt in formats]


urlpatterns = [
    path(f"{CLUB}archive.zip", archive_views.club_archive_download, name="club-archive"),
    path("import-club/", archive_views.club_archive_upload, name="club-archive-import"),
    *_per_format(f"{CLUB}competitions/<int:pk>/standings", views.standings_download, "standings"),
    *_per_format(f"{CLUB}evenings/<int:pk>/result", views.evening_result_download, "evening"),
    *_per_format(
        f"{CLUB}competitions/<int:pk>/hands", views.hand_log_download, "hands", ("xlsx", "csv")
    ),
    path(
        f"{CLUB}rounds/<int:pk>/score-sheets.pdf",
        views.scoresheets_download,
        name="round-scoresheets",
    ),
    path(
        f"{CLUB}rounds/<int:pk>/score-sheets-filled.pdf",
        views.scoresheets_download,
        {"filled": True},
        name="round-scoresheets-filled",
    ),
    path(
        f"{CLUB}rounds/<int:pk>/table-plan.pdf",
        views.table_plan_download,
        name="round-table-plan",
    ),
    path(
        f"{CLUB}competitions/<int:pk>/import-results/",
        views.results_import,
        name="results-import",
    ),
]
