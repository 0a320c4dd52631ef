from django.urls import path

from . import views, views_access, views_files

app_name = "clubs"

urlpatterns = [
    path("", views.home, name="home"),
    path("new-club/", views_access.club_create, name="club-create"),
    path("clubs/<slug:club>/", views.club_detail, name="club-detail"),
    path("clubs/<slug:club>/delete/", views_access.club_delete, name="club-delete"),
    path(
        "clubs/<slug:club>/invitations/new/",
        views_access.invitation_create,
        name="invitation-create",
    ),
    path(
        "clubs/<slug:club>/invitations/<int:pk>/",
        views_access.invitation_detail,
        name="invitation-detail",
    ),
    path(
        "clubs/<slug:club>/invitations/<int:pk>/revoke/",
        views_access.invitation_revoke,
        name="invitation-revoke",
    ),
    path(
        "clubs/<slug:club>/roles/<int:user_id>/password-link/",
        views_access.password_link,
        name="password-link",
    ),
    path(
        "clubs/<slug:club>/members/<int:pk>/forget/",
        views_access.member_forget,
        name="member-forget",
    ),
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
