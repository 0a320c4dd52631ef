"""Score pages of a club: for its scorers and its tournament director."""

from django.urls import path

from . import views

urlpatterns = [
    path("clubs/<slug:club>/tables/<int:pk>/score/", views.table_score, name="table-score"),
    path("clubs/<slug:club>/tables/<int:pk>/sheet/", views.game_sheet, name="game-sheet"),
    path("clubs/<slug:club>/rounds/<int:pk>/qr/", views.round_qr, name="round-qr"),
    path("clubs/<slug:club>/rounds/<int:pk>/qr.pdf", views.round_qr_pdf, name="round-qr-pdf"),
    path(
        "clubs/<slug:club>/evenings/<int:pk>/scores/",
        views.evening_scores,
        name="evening-scores",
    ),
    path(
        "clubs/<slug:club>/evenings/<int:pk>/adjustments/",
        views.evening_adjust,
        name="evening-adjust",
    ),
    path(
        "clubs/<slug:club>/evenings/<int:pk>/audit/",
        views.evening_audit,
        name="evening-audit",
    ),
]
