"""League URLs: public pages (tables, schedule, matches, files) and the organisers' pages.

Leagues are not under one club's address: they are between clubs. The league's
own pages decide who may see them (``leagues.views.league_required``).
"""

from django.urls import path

from . import views

app_name = "leagues"

public = [
    path("leagues/", views.league_list, name="league-list"),
    path("leagues/<int:pk>/", views.league_detail, name="league-detail"),
    path("leagues/<int:pk>/schedule/", views.schedule_view, name="schedule"),
    path("leagues/<int:pk>/schedule.xlsx", views.schedule_xlsx, name="schedule-xlsx"),
    path("leagues/<int:pk>/schedule.pdf", views.schedule_pdf, name="schedule-pdf"),
    path("leagues/<int:pk>/table/", views.league_tables, name="tables"),
    path("leagues/<int:pk>/table.xlsx", views.tables_xlsx, name="tables-xlsx"),
    path("leagues/<int:pk>/table.pdf", views.tables_pdf, name="tables-pdf"),
    path(
        "leagues/<int:pk>/divisions/<int:division>/",
        views.division_table,
        name="division-table",
    ),
    path("leagues/<int:pk>/clubs/", views.club_ranking, name="club-ranking"),
    path("leagues/<int:pk>/teams/<int:team>/", views.team_detail, name="team-detail"),
    path("leagues/<int:pk>/matches/<int:match>/", views.match_detail, name="match-detail"),
    path(
        "leagues/<int:pk>/matches/<int:match>/form.pdf",
        views.match_form_pdf,
        name="match-form-pdf",
    ),
    path("clubs/<slug:club>/leagues/history/", views.club_history, name="club-history"),
]

captains = [
    path(
        "leagues/<int:pk>/matches/<int:match>/lineup/<str:side>/",
        views.match_lineup,
        name="match-lineup",
    ),
    path(
        "leagues/<int:pk>/matches/<int:match>/confirm/",
        views.match_confirm,
        name="match-confirm",
    ),
    path(
        "leagues/<int:pk>/teams/<int:team>/players/",
        views.team_player_add,
        name="team-player-add",
    ),
    path(
        "leagues/<int:pk>/teams/<int:team>/players/<int:player>/remove/",
        views.team_player_remove,
        name="team-player-remove",
    ),
    path(
        "leagues/<int:pk>/teams/<int:team>/captains/",
        views.team_captain_add,
        name="team-captain-add",
    ),
    path(
        "leagues/<int:pk>/teams/<int:team>/captains/<int:user>/remove/",
        views.team_captain_remove,
        name="team-captain-remove",
    ),
]

organisers = [
    path("clubs/<slug:club>/leagues/new/", views.league_create, name="league-create"),
    path("leagues/<int:pk>/edit/", views.league_edit, name="league-edit"),
    path("leagues/<int:pk>/divisions/new/", views.division_create, name="division-create"),
    path(
        "leagues/<int:pk>/divisions/<int:division>/edit/",
        views.division_edit,
        name="division-edit",
    ),
    path("leagues/<int:pk>/teams/new/", views.team_create, name="team-create"),
    path(
        "leagues/<int:pk>/schedule/generate/",
        views.schedule_generate,
        name="schedule-generate",
    ),
    path("leagues/<int:pk>/matches/<int:match>/move/", views.match_move, name="match-move"),
    path(
        "leagues/<int:pk>/matches/<int:match>/reopen/",
        views.match_reopen,
        name="match-reopen",
    ),
    path("leagues/<int:pk>/next-season/", views.next_season, name="next-season"),
]

urlpatterns = [*public, *captains, *organisers]
