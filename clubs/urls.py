from django.urls import path

from . import views, views_files

app_name = "clubs"

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/<slug:club>/", views.club_detail, name="club-detail"),
    path("clubs/<slug:club>/settings/", views.club_edit, name="club-edit"),
    path("clubs/<slug:club>/members/", views.member_list, name="member-list"),
    path("clubs/<slug:club>/members/new/", views.member_create, name="member-create"),
    path("clubs/<slug:club>/members/import/", views_files.member_import, name="member-import"),
    path(
        "clubs/<slug:club>/members/export.xlsx",
        views_files.member_export_xlsx,
        name="member-export-xlsx",
    ),
    path(
        "clubs/<slug:club>/members/export.csv",
        views_files.member_export_csv,
        name="member-export-csv",
    ),
    path("clubs/<slug:club>/members/<int:pk>/", views.member_detail, name="member-detail"),
    path("clubs/<slug:club>/members/<int:pk>/edit/", views.member_edit, name="member-edit"),
    path("clubs/<slug:club>/members/<int:pk>/pin/", views.member_pin, name="member-pin"),
    path("clubs/<slug:club>/members/<int:pk>/merge/", views.member_merge, name="member-merge"),
    path("clubs/<slug:club>/roles/", views.role_list, name="role-list"),
    path("clubs/<slug:club>/roles/<int:user_id>/revoke/", views.role_revoke, name="role-revoke"),
]
