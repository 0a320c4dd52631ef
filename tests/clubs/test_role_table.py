"""The roles page's list: a django-tables2 table drawn from its column spec, with
its buttons (issue 16)."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from clubs import services
from clubs.models import ClubRole
from clubs.tables import invitation_columns, role_columns
from tests import factories
from tests.htmltables import read_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def roles(db):
    club = factories.club()
    admin = factories.role(club, "admin", factories.user("anna"))
    director = factories.role(club, "director", factories.user("bert"))
    staff = factories.role(club, "director", factories.user("cor", is_staff=True))
    return club, admin, director, staff


def roles_page(client, club, admin):
    client.force_login(admin)
    response = client.get(
        reverse("clubs:role-list", kwargs={"club": club.slug}), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    return response.content.decode()


def test_role_list_headers_are_the_specs_titles_then_two_button_columns(client, roles):
    club, admin, _director, _staff = roles
    html = roles_page(client, club, admin)
    table = read_tables(html, "roles")[0]
    with translation.override("en"):
        titles = [column.title for column in role_columns()]
    assert titles == ["User", "Role"]
    # The button columns' headers are for screen readers (common.tables.action_column).
    assert table.titles == [*titles, "Actions", "Actions"]


def test_role_list_rows_name_each_account_with_its_buttons(client, roles):
    club, admin, director, staff = roles
    html = roles_page(client, club, admin)
    table = read_tables(html, "roles")[0]
    rows = [cells for _classes, cells in table.rows]
    # Sorted by user name; a password link only for a role below the maker's, never
    # for the maker, a fellow administrator or a site account (staff).
    assert rows == [
        ["anna", "club administrator", "", "Remove"],
        ["bert", "tournament director", "Password link", "Remove"],
        ["cor", "tournament director", "", "Remove"],
    ]
    for user in (admin, director, staff):
        revoke = reverse("clubs:role-revoke", kwargs={"club": club.slug, "user_id": user.pk})
        assert f'action="{revoke}"' in html
    link = reverse("clubs:password-link", kwargs={"club": club.slug, "user_id": staff.pk})
    assert f'action="{link}"' not in html
    # Every button's form carries the CSRF token.
    forms = re.findall(r"<form method=\"post\" action=\"[^\"]*/roles/[^\"]*\">(.*?)</form>", html)
    assert forms and all("csrfmiddlewaretoken" in form for form in forms)


def test_the_remove_button_of_the_list_removes_the_role(client, roles):
    club, admin, director, _staff = roles
    html = roles_page(client, club, admin)
    revoke = reverse("clubs:role-revoke", kwargs={"club": club.slug, "user_id": director.pk})
    assert f'action="{revoke}"' in html
    client.post(revoke)
    assert not ClubRole.objects.filter(club=club, user=director).exists()
    table = read_tables(roles_page(client, club, admin), "roles")[0]
    assert [cells[0] for _classes, cells in table.rows] == ["anna", "cor"]


def test_open_invitations_headers_are_the_specs_and_each_can_be_withdrawn(client, roles):
    club, admin, _director, _staff = roles
    member = factories.member(club, "Dirk")
    invitation = services.invitation_create(club=club, role="scorer", by=admin, member=member)
    html = roles_page(client, club, admin)
    (table,) = read_tables(html, "invitations")
    with translation.override("en"):
        titles = [column.title for column in invitation_columns()]
    assert table.titles == [*titles, "Actions"] == ["Role", "Player", "Valid until", "Actions"]
    expires = timezone.localtime(invitation.expires_at)
    ((_classes, cells),) = table.rows
    assert cells == ["scorer", "Dirk", expires.strftime("%-d %B %Y %H:%M"), "Withdraw"]
    detail = reverse("clubs:invitation-detail", kwargs={"club": club.slug, "pk": invitation.pk})
    assert f'href="{detail}"' in html
    withdraw = reverse("clubs:invitation-revoke", kwargs={"club": club.slug, "pk": invitation.pk})
    assert f'action="{withdraw}"' in html
    client.post(withdraw)
    html = roles_page(client, club, admin)
    (table,) = read_tables(html, "invitations")
    assert [cells for _classes, cells in table.rows] == [["No open invitations."]]


def test_every_control_of_the_roles_page_has_its_own_id_and_a_label(client, roles):
    """Issue 25: the invitation's and the change-a-role form's role choices were both
    ``id_role``, and the second one had no label of its own."""
    club, admin, _director, _staff = roles
    html = roles_page(client, club, admin)
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    controls = re.findall(r"<(?:select|input|textarea)\b[^>]*>", html)
    named = [c for c in controls if 'type="hidden"' not in c and 'type="submit"' not in c]
    assert len(named) >= 5
    for control in named:
        (control_id,) = re.findall(r'\sid="([^"]+)"', control)
        assert re.search(rf'<label[^>]*for="{control_id}"[^>]*>[^<]*\w', html), control
    for role_choice in ("id_invite_role", "id_grant_role"):
        select = re.search(rf'<select[^>]*id="{role_choice}"[^>]*>', html).group(0)
        assert "role-sentences" in select and f"{role_choice}_helptext" in select, select
    assert 'id="role-sentences"' in html
