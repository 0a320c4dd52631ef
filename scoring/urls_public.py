"""A table's private link: no account, that table's game only, until the evening closes."""

from django.urls import path

from . import views

urlpatterns = [
    path("t/sw.js", views.entry_service_worker, name="entry-sw"),
    path("t/<slug:token>/", views.table_entry, name="table-entry"),
    path("t/<slug:token>/hands.json", views.table_hands_json, name="table-hands-json"),
    path("t/<slug:token>/hand/", views.table_hand, name="table-hand"),
    path("t/<slug:token>/preview/", views.table_preview, name="table-preview"),
    path("t/<slug:token>/undo/", views.table_undo, name="table-undo"),
    path("t/<slug:token>/confirm/", views.table_confirm, name="table-confirm"),
]
