"""Who may see and do what in a club: one matrix over every page of the club app."""

import pytest
from django.urls import reverse

from clubs.models import Member
from tests import factories

ROLES = [
    "anonymous",
    "no_role",
    "member",
    "scorer",
    "director",
    "secretary",
    "admin",
    "other_admin",
]


@pytest.fixture
def people(db):
    club = factories.club(name="De Hoge Troef", results_public=False)
    other = factories.club(name="Andere Club", results_public=True)
    users = {
        "anonymous": None,
        "no_role": factories.user(),
        "member": factories.role(club, "member"),
        "scorer": factories.role(club, "scorer"),
        "director": factories.role(club, "director"),
        "secretary": factories.role(club, "secretary"),
        "admin": factories.role(club, "admin"),
        "other_admin": factories.role(other, "admin"),
    }
    member = factories.member(club, "Anneke de Vries", email="anneke@example.org")
    duplicate = factories.member(club, "A. de Vries")
    return club, users, member, duplicate


def pages(club, member, duplicate):
    slug = club.slug
    return {
        "club": ("get", reverse("clubs:club-detail", kwargs={"club": slug}), {}),
        "members": ("get", reverse("clubs:member-list", kwargs={"club": slug}), {}),
        "member": (
            "get",
            reverse("clubs:member-detail", kwargs={"club": slug, "pk": member.pk}),
            {},
        ),
        "member_new": (
            "post",
            reverse("clubs:member-create", kwargs={"club": slug}),
            {"name": "Nieuw Lid", "is_active": "on"},
        ),
        "member_edit": (
            "post",
            reverse("clubs:member-edit", kwargs={"club": slug, "pk": member.pk}),
            {"name": "Anneke de Vries-Smit", "is_active": "on"},
        ),
        "merge": (
            "post",
            reverse("clubs:member-merge", kwargs={"club": slug, "pk": member.pk}),
            {"remove": duplicate.pk},
        ),
        "roles": ("get", reverse("clubs:role-list", kwargs={"club": slug}), {}),
        "settings": ("get", reverse("clubs:club-edit", kwargs={"club": slug}), {}),
    }


# Expected answer per page and role: "ok" (200, or 302 after a successful write),
# "login" (redirect to the login page), 403 or 404. The club is private: a stranger
# gets 404 on every page of it, as for a club that does not exist.
MATRIX = {
    #              anonymous no_role member scorer director secretary admin other_admin
    "club": ["404", "404", "ok", "ok", "ok", "ok", "ok", "404"],
    "members": ["404", "404", "ok", "ok", "ok", "ok", "ok", "404"],
    "member": ["404", "404", "ok", "ok", "ok", "ok", "ok", "404"],
    "member_new": ["404", "404", "403", "403", "ok", "ok", "ok", "404"],
    "member_edit": ["404", "404", "403", "403", "ok", "ok", "ok", "404"],
    "merge": ["404", "404", "403", "403", "403", "ok", "ok", "404"],
    "roles": ["404", "404", "403", "403", "403", "403", "ok", "404"],
    "settings": ["404", "404", "403", "403", "403", "403", "ok", "404"],
}


@pytest.mark.parametrize("page", list(MATRIX))
@pytest.mark.parametrize("who", ROLES)
def test_permission_matrix(client, people, page, who):
    club, users, member, duplicate = people
    method, url, data = pages(club, member, duplicate)[page]
    if users[who] is not None:
        client.force_login(users[who])
    before = list(Member.objects.order_by("pk").values_list("pk", "name"))
    response = getattr(client, method)(url, data)
    expected = MATRIX[page][ROLES.index(who)]
    if expected == "ok":
        assert response.status_code in (200, 302), response.status_code
        if response.status_code == 302:
            assert "/accounts/login/" not in response["Location"]
    elif expected == "login":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == int(expected)
    if expected != "ok":
        # Nothing of the club leaks, and nothing changed.
        assert "Anneke" not in response.content.decode()
        assert list(Member.objects.order_by("pk").values_list("pk", "name")) == before


def test_public_club_is_readable_by_anyone_but_not_its_members(client, db):
    club = factories.club(name="Open Club", results_public=True)
    factories.member(club, "Zichtbaar Niet")
    response = client.get(club.get_absolute_url())
    assert response.status_code == 200
    assert "Open Club" in response.text
    response = client.get(reverse("clubs:member-list", kwargs={"club": club.slug}))
    assert response.status_code == 302


def test_member_of_another_club_is_404_even_with_a_role_elsewhere(client, db):
    mine = factories.club()
    theirs = factories.club(results_public=True)
    stranger = factories.member(theirs, "Geheime Speler")
    admin = factories.role(mine, "admin")
    client.force_login(admin)
    url = reverse("clubs:member-detail", kwargs={"club": mine.slug, "pk": stranger.pk})
    assert client.get(url).status_code == 404
    url = reverse("clubs:member-detail", kwargs={"club": theirs.slug, "pk": stranger.pk})
    assert client.get(url).status_code == 404


def test_contact_details_only_for_the_director_and_up(client, people):
    club, users, member, _ = people
    url = reverse("clubs:member-list", kwargs={"club": club.slug})
    client.force_login(users["scorer"])
    assert "anneke@example.org" not in client.get(url).text
    client.force_login(users["director"])
    assert "anneke@example.org" in client.get(url).text


def test_home_lists_only_clubs_the_user_may_see(client, db):
    factories.club(name="Openbare Club", results_public=True)
    private = factories.club(name="Besloten Club", results_public=False)
    assert "Besloten Club" not in client.get("/").text
    assert "Openbare Club" in client.get("/").text
    client.force_login(factories.role(private, "member"))
    page = client.get("/").text
    assert "Besloten Club" in page and "Openbare Club" in page


def test_a_stranger_cannot_tell_a_private_club_from_no_club(client, db):
    """Every page of a private club, public part or not, answers a stranger as a club
    that does not exist: 404, with the login offered on the page. A public club's
    restricted pages send the stranger to the login page (its existence is public)."""
    private = factories.club(name="Besloten Club", slug="besloten", results_public=False)
    public = factories.club(name="Open Club", slug="open", results_public=True)
    answers = {}
    for slug in (private.slug, "bestaat-niet"):
        for name in ("clubs:club-detail", "clubs:member-list", "clubs:role-list"):
            response = client.get(reverse(name, kwargs={"club": slug}))
            answers[(slug, name)] = response.status_code
            assert "Besloten" not in response.text
            assert reverse("login") in response.text  # the 404 page offers the login
    assert set(answers.values()) == {404}
    response = client.get(reverse("clubs:member-list", kwargs={"club": public.slug}))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
