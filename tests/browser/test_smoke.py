"""The browser suite's frame works: Debian's Chromium opens the live site in Dutch."""

import pytest

from tests import factories
from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)


def test_login_and_club_page_in_the_browser(page, live_server, shot):
    club = factories.club(name="KC Klaverblad", slug="klaverblad")
    factories.role(club, "admin", factories.user("secretaris"))
    page.goto(live_server.url)
    assert page.locator("h1").inner_text() == "Klaverjasclubs"
    login(page, live_server, "secretaris")
    page.click("text=KC Klaverblad")
    assert page.locator("h1").inner_text() == "KC Klaverblad"
    shot(page, "club-page")
