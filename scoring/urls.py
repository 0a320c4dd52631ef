"""Scoring URLs: the tables' private links (``urls_public``) and the club's score
pages (``urls_club``), in one namespace."""

from . import urls_club, urls_public

app_name = "scoring"

urlpatterns = [*urls_public.urlpatterns, *urls_club.urlpatterns]
