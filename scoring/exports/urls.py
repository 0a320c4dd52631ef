"""Downloads (spreadsheets, PDFs) and the results import, in the "exports" namespace.

Include from ``config/urls.py`` with ``path("", include("scoring.exports.urls"))``.
"""

from django.urls import path

from . import archive_views, views

app_name = "exports"

CLUB = "clubs/<slug:club>/"

urlpatterns = [
    path(f"{CLUB}archive.zip", archive_views.club_archive_download, name="club-archive"),
    path("import-club/", archive_views.club_archive_upload, name="club-archive-import"),
    *[
        path(
            f"{CLUB}competitions/<int:pk>/standings.{fmt}",
            views.standings_download,
            {"fmt": fmt},
            name=f"standings-{fmt}",
        )
        for fmt in ("xlsx", "csv", "pdf")
    ],
    *[
        path(
            f"{CLUB}evenings/<int:pk>/result.{fmt}",
            views.evening_result_download,
            {"fmt": fmt},
            name=f"evening-{fmt}",
        )
        for fmt in ("xlsx", "csv", "pdf")
    ],
    *[
        path(
            f"{CLUB}competitions/<int:pk>/hands.{fmt}",
            views.hand_log_download,
            {"fmt": fmt},
            name=f"hands-{fmt}",
        )
        for fmt in ("xlsx", "csv")
    ],
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
