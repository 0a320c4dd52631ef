"""Load a demo club so a fresh `make run` shows a site in use. Idempotent.

It creates (once) a demo login, a club with members and roles, and a season
with played evenings (``scoring.demo``) and an evening to run tonight.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs.models import DEMO_SLUG, Club, ClubRole, Member
from scoring.demo import demo_season

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "klaverjas"

DEMO_MEMBERS = [
    "Anneke de Vries",
    "Bert Jansen",
    "Corrie van Dijk",
    "Dirk Bakker",
    "Els Visser",
    "Frits Smit",
    "Gerda Meijer",
    "Henk de Boer",
    "Ineke Mulder",
    "Jan de Groot",
    "Kees Bos",
    "Lies Vos",
    "Marietje Peters",
    "Nico Hendriks",
    "Orla van Leeuwen",
    "Piet Dekker",
    "Riet Brouwer",
    "Sjaak de Wit",
    "Truus Dijkstra",
    "Wim Smits",
    "Yvonne 't Hart",
]


class Command(BaseCommand):
    help = "Create the demo club, members and login (safe to run again)."

    def handle(self, *args, **options):
        with transaction.atomic():
            user = self.demo_user()
            club = self.demo_club(user)
            demo_season(club=club, user=user, stdout=self.stdout)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club '{club.name}' ready. Log in (at /accounts/login/) "
                f"as {DEMO_USERNAME} / {DEMO_PASSWORD}"
            )
        )

    def demo_user(self):
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=DEMO_USERNAME,
            defaults={"is_staff": True, "is_superuser": True, "first_name": "Demo"},
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        return user

    def demo_club(self, user):
        club, _ = Club.objects.get_or_create(
            slug=DEMO_SLUG,
            defaults={
                "name": "KC De Hoge Troef",
                "town": "Rotterdam",
                "results_public": True,
                "contact_name": "Secretariaat",
            },
        )
        ClubRole.objects.get_or_create(club=club, user=user, defaults={"role": "admin"})
        for number, name in enumerate(DEMO_MEMBERS, start=101):
            Member.objects.get_or_create(
                club=club, membership_number=str(number), defaults={"name": name}
            )
        Member.objects.get_or_create(club=club, name="Gast Willems", defaults={"is_guest": True})
        return club
