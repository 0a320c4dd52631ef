from django.urls import path

from . import views as results_views

app_name = "results"

urlpatterns = [
    path(
        "clubs/<slug:club>/competitions/<int:pk>/standings/",
        results_views.season_standings,
        name="standings",
    ),
    path(
        "clubs/<slug:club>/evenings/<int:pk>/result/",
        results_views.evening_result,
        name="evening",
    ),
    path("clubs/<slug:club>/players/<int:pk>/", results_views.player, name="player"),
    path("my-results/", results_views.my_results, name="my-results"),
]
