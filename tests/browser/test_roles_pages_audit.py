"""The pages of roles and accounts (issue 25) in a browser: the roles page (each control
with its own id and label), erasing a member (and its refusal without the name), the
account page with its e-mail form and an invitation's page, audited by axe-core."""

import pytest

from clubs import services
from tests import factories
from tests.browser.conftest import login
from tests.browser.test_accessibility import audit

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_roles_and_account_pages_have_no_serious_accessibility_violations(browser, live_server):
    club = factories.club(name="De Klaverboer", slug="klaverboer")
    admin = factories.role(club, "admin", factories.user("beheerder"))
    factories.role(club, "secretary", factories.user("secretaris"))
    person = factories.member(club, "Geertje Bos", email="geertje@example.org")
    invitation = services.invitation_create(
        club=club, role="secretary", by=admin, email="nieuw@example.org"
    )
    context = browser.new_context(locale="nl-NL", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    found = {}
    try:
        page.goto(f"{live_server.url}{invitation.get_absolute_url()}")
        found["invitation, new account"] = audit(page)
        login(page, live_server, "beheerder")
        for name, path in {
            "roles": f"/clubs/{club.slug}/roles/",
            "invitation": f"/clubs/{club.slug}/invitations/{invitation.pk}/",
            "forget": f"/clubs/{club.slug}/members/{person.pk}/forget/",
            "account": "/accounts/me/",
        }.items():
            response = page.goto(f"{live_server.url}{path}")
            assert response.status == 200, name
            found[name] = audit(page)
        # The change-a-role choice is found by its own label.
        page.goto(f"{live_server.url}/clubs/{club.slug}/roles/")
        label = page.locator("label[for=id_grant_role]")
        assert label.is_visible() and label.inner_text().strip()
        assert page.locator("#id_role").count() == 0
        # Erasing without the name: the page again, with its message, and nothing erased.
        page.goto(f"{live_server.url}/clubs/{club.slug}/members/{person.pk}/forget/")
        page.click("form.stacked button[type=submit]")  # the browser asks for the name first
        assert page.url.endswith(f"/members/{person.pk}/forget/")
        page.fill("#id_confirm_name", "Geertje")
        with page.expect_navigation():
            page.click("form.stacked button[type=submit]")
        found["forget refused"] = audit(page)
        person.refresh_from_db()
        assert person.name == "Geertje Bos"
        # A wrong password on the account page's e-mail form.
        page.goto(f"{live_server.url}/accounts/me/")
        page.fill("#id_email_email", "beheerder@example.org")
        page.fill("#id_email_password", "fout")
        with page.expect_navigation():
            page.click("form[action$='/accounts/me/email/'] button[type=submit]")
        found["account, e-mail refused"] = audit(page)
    finally:
        context.close()
    assert {name: violations for name, violations in found.items() if violations} == {}
