from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path(
        "clubs/<slug:club>/competitions/new/",
        views.competition_create,
        name="competition-create",
    ),
    path(
        "clubs/<slug:club>/competitions/<int:pk>/",
        views.competition_detail,
        name="competition-detail",
    ),
    path(
        "clubs/<slug:club>/competitions/<int:pk>/edit/",
        views.competition_edit,
        name="competition-edit",
    ),
    path(
        "clubs/<slug:club>/competitions/<int:pk>/delete/",
        views.competition_delete,
        name="competition-delete",
    ),
    path(
        "clubs/<slug:club>/competitions/<int:pk>/evenings/new/",
        views.evening_create,
        name="evening-create",
    ),
    path(
        "clubs/<slug:club>/competitions/<int:pk>/pairs/",
        views.pair_add,
        name="pair-add",
    ),
    path(
        "clubs/<slug:club>/competitions/<int:pk>/pairs/<int:pair>/remove/",
        views.pair_remove,
        name="pair-remove",
    ),
    path(
        "clubs/<slug:club>/competitions/<int:pk>/periods/",
        views.period_add,
        name="period-add",
    ),
    path(
        "clubs/<slug:club>/competitions/<int:pk>/periods/<int:period>/remove/",
        views.period_remove,
        name="period-remove",
    ),
    path("clubs/<slug:club>/evenings/<int:pk>/", views.evening_detail, name="evening-detail"),
    path(
        "clubs/<slug:club>/evenings/<int:pk>/attendance/",
        views.evening_attendance,
        name="evening-attendance",
    ),
    path(
        "clubs/<slug:club>/evenings/<int:pk>/delete/",
        views.evening_delete,
        name="evening-delete",
    ),
    path(
        "clubs/<slug:club>/evenings/<int:pk>/status/",
        views.evening_status,
        name="evening-status",
    ),
    path("clubs/<slug:club>/evenings/<int:pk>/draw/", views.round_draw, name="round-draw"),
    path("clubs/<slug:club>/rounds/<int:pk>/", views.round_detail, name="round-detail"),
    path("clubs/<slug:club>/rounds/<int:pk>/swap/", views.seat_swap, name="seat-swap"),
    path(
        "clubs/<slug:club>/rounds/<int:pk>/substitute/",
        views.seat_substitute,
        name="seat-substitute",
    ),
    path("clubs/<slug:club>/rounds/<int:pk>/delete/", views.round_delete, name="round-delete"),
]
