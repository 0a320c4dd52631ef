"""Load a demo club so a fresh `make run` shows a site in use. Idempotent.

It creates (once) a demo login, a club with members and roles, and a season
with played evenings (``scoring.demo``) and an evening to run tonight. The
demo's password is published: ``--check`` refuses (exit 1) while an account
logs in with it, which ``make lan`` asks before serving the hall's network;
``--remove`` deletes the demo club and its accounts.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import DEMO_SLUG, Club, ClubRole, Member
from scoring.demo import (
    DEMO_PASSWORD,
    DEMO_USERNAME,
    PUBLISHED_ACCOUNTS,
    demo_remove,
    demo_season,
    published_accounts,
)

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


def published_password_refusal(accounts) -> str:
    """What to do, in a few lines, while ``accounts`` log in with a published password."""
    names = ", ".join(user.username for user in accounts)
    steps = ["Make the club's own operator: make operator (python manage.py createsuperuser)"]
    if any(user.username in PUBLISHED_ACCOUNTS for user in accounts):
        steps.append(
            "Remove the demo club and its login: make remove-demo (python manage.py demo --remove)"
        )
    steps += [
        f"Change its password: python manage.py changepassword {user.username}"
        for user in accounts
        if user.username not in PUBLISHED_ACCOUNTS
    ]
    return "\n".join(
        [
            f"An account logs in with a published password ({names}): anyone could log in "
            "with it as the site's operator.",
            *(f"{n}. {step}" for n, step in enumerate(steps, start=1)),
        ]
    )


class Command(BaseCommand):
    help = (
        "Create the demo club, members and login (safe to run again); --check: fail while an "
        "account has the demo's published password; --remove: delete the demo."
    )

    def add_arguments(self, parser):
        action = parser.add_mutually_exclusive_group()
        action.add_argument(
            "--check",
            action="store_true",
            help="exit 1, saying what to do, while an account logs in with a published password",
        )
        action.add_argument(
            "--remove",
            action="store_true",
            help="delete the demo club (everything of it) and the demo's login",
        )

    def handle(self, *args, check=False, remove=False, **options):
        if check:
            accounts = published_accounts()
            if accounts:
                raise CommandError(published_password_refusal(accounts))
            self.stdout.write("No account logs in with a published password.")
            return
        if remove:
            try:
                with transaction.atomic():
                    demo_remove(stdout=self.stdout)
            except ValueError as exc:
                raise CommandError(str(exc)) from None
            return
        with transaction.atomic():
            user = self.demo_user()
            club = self.demo_club(user)
            demo_season(club=club, user=user, stdout=self.stdout)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club '{club.name}' ready. Log in (at /accounts/login/) "
                f"as {DEMO_USERNAME} / {DEMO_PASSWORD}. This login is public: "
                "before `make lan` serves the hall's network, remove it with "
                "`python manage.py demo --remove`."
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
