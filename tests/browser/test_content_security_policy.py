"""The strict Content-Security-Policy refuses nothing the site itself uses: every
page's scripts and styles load, and the browser reports no violation."""

import pytest
from django.urls import reverse

from tests import factories
from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)


def test_no_page_breaks_the_policy(page, live_server, drawn_evening):
    club = factories.club(name="KC Klaverblad", slug="klaverblad")
    director = factories.role(
        club, "director", factories.user("leider", is_staff=True, is_superuser=True)
    )
    play = drawn_evening(club, director)
    table = play.tables[0]
    violations = []
    page.on(
        "console",
        lambda message: (
            violations.append(f"{page.url}: {message.text}")
            if "Content Security Policy" in message.text
            else None
        ),
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "console.error('Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    login(page, live_server, "leider")
    paths = [
        reverse("clubs:home"),
        reverse("clubs:club-detail", kwargs={"club": club.slug}),
        reverse("clubs:member-list", kwargs={"club": club.slug}),
        reverse("scoring:table-entry", kwargs={"token": table.token}),
        reverse("trickcheck:check") + f"?table={table.token}",
        reverse("results:evening", kwargs={"club": club.slug, "pk": play.evening.pk}),
        reverse("password_reset"),
        "/admin/",
    ]
    for path in paths:
        response = page.goto(f"{live_server.url}{path}")
        assert response.status < 400, path
        assert "'unsafe-inline'" not in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
    assert violations == []
