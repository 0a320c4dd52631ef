"""Tournaments' part of the club's own pages (registered with ``clubs.pages`` in
``TournamentsConfig.ready()``): the evenings a director runs on the home page, the
club's competitions on the club page, and the last two steps of a new club's
checklist."""

from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.selectors import Step

from . import selectors
from .models import Competition, Round


def home(*, user, today) -> dict:
    return {"nights": selectors.evenings_to_direct(user=user, today=today)}


def club(*, club) -> dict:
    return {"competitions": selectors.club_competitions(club=club)}


def first_steps(*, club) -> list[Step]:
    """The first competition, and the first score sheets: they count as printed once
    a round has been drawn (every drawn round has its sheets, and a club that plays
    has printed or needs none)."""
    slug = club.slug
    first_round = Round.objects.filter(evening__competition__club=club).order_by("pk").first()
    competition = Competition.objects.filter(club=club).order_by("pk").first()
    if first_round is not None:
        sheets_url = reverse(
            "exports:round-scoresheets", kwargs={"club": slug, "pk": first_round.pk}
        )
    elif competition is not None:
        sheets_url = competition.get_absolute_url()
    else:
        sheets_url = reverse("tournaments:competition-create", kwargs={"club": slug})
    return [
        Step(
            _("Create the first competition"),
            reverse("tournaments:competition-create", kwargs={"club": slug}),
            competition is not None,
        ),
        Step(_("Print the first score sheets"), sheets_url, first_round is not None),
    ]
