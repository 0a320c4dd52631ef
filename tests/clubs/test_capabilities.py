"""What each role may do: the capability table, asked of one club (issue 25).

The table in ``clubs.permissions`` is held to the one in docs/permissions.md, and
every role is asked every capability against an explicit expectation here. The
secretary's part is checked at the services, not only on the pages: she keeps the
members and the club's files and cannot give roles, make password links or delete
the club.
"""

import io
import zipfile

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from clubs import imports, services
from clubs.models import Club, ClubRole, Invitation, Member
from clubs.permissions import (
    ROLE_CAPABILITIES,
    Capability,
    Role,
    capabilities,
    has_role,
    may,
    role_below,
    role_grant_refusal,
    role_sentence,
    roles_with,
)
from scoring.exports import importers
from tests import factories
from tests.scoring.exports.test_import import csv_bytes, game_rows
from tests.security.test_permission_matrix import ROLES, capability_table

pytestmark = pytest.mark.django_db

C = Capability
#: The model, written out once more by hand: what each role may.
EXPECTED = {
    "member": {C.VIEW},
    "scorer": {C.VIEW, C.SCORE},
    "director": {C.VIEW, C.SCORE, C.RUN_COMPETITIONS, C.EDIT_MEMBERS, C.IMPORT_RESULTS},
    "secretary": {
        C.VIEW,
        C.EDIT_MEMBERS,
        C.IMPORT_MEMBERS,
        C.MERGE_MEMBERS,
        C.FORGET_MEMBERS,
        C.IMPORT_RESULTS,
        C.EXPORT_ARCHIVE,
    },
    "admin": set(Capability),
}


def test_every_role_of_the_model_is_a_role_of_the_site_and_the_other_way_round():
    assert list(Role.values) == ROLES == list(EXPECTED)
    assert set(ROLE_CAPABILITIES) == set(Role)


def test_the_code_s_table_is_the_document_s_table():
    doc = capability_table()
    assert set(doc) == set(Capability.values)
    for role in Role:
        in_doc = {name for name, roles in doc.items() if role.value in roles}
        assert {c.value for c in ROLE_CAPABILITIES[role]} == in_doc, role


@pytest.fixture(scope="module")
def people(module_db):
    club = factories.club(name="Kruisclub", results_public=False)
    other = factories.club(name="Buurclub")
    users = {role: factories.role(club, role, factories.user(f"cap-{role}")) for role in ROLES}
    users["other_admin"] = factories.role(other, "admin", factories.user("cap-other"))
    users["account"] = factories.user("cap-account")
    users["operator"] = factories.user("cap-operator", is_staff=True, is_superuser=True)
    return club, users


@pytest.mark.parametrize("capability", list(Capability))
@pytest.mark.parametrize("who", [*ROLES, "other_admin", "account", "operator"])
def test_every_kind_of_person_may_exactly_what_the_table_says(people, who, capability):
    club, users = people
    expected = {**EXPECTED, "operator": set(Capability)}.get(who, set())
    assert may(users[who], club, capability) is (capability in expected)


def test_an_anonymous_visitor_may_nothing(people):
    from django.contrib.auth.models import AnonymousUser

    club, _users = people
    assert capabilities(AnonymousUser(), club) == frozenset()


def test_roles_with_a_capability_are_the_table_s_columns():
    for capability in Capability:
        assert set(roles_with(capability)) == {
            r for r, caps in EXPECTED.items() if capability in caps
        }


def test_below_is_may_strictly_less_and_director_and_secretary_are_side_by_side():
    assert role_below("member", "secretary") and role_below("member", "director")
    assert role_below("secretary", "admin") and role_below("director", "admin")
    assert not role_below("secretary", "director") and not role_below("director", "secretary")
    assert not role_below("scorer", "secretary")  # she enters no scores
    assert not role_below("admin", "admin")


def test_a_role_word_means_everything_that_role_may(people):
    club, users = people
    assert has_role(users["admin"], club, "secretary")
    assert not has_role(users["director"], club, "secretary")
    assert not has_role(users["secretary"], club, "director")
    assert has_role(users["secretary"], club, "member")


@pytest.mark.parametrize("role", ROLES)
def test_each_role_s_sentence_says_each_of_its_capabilities_in_both_languages(role):
    for language in ("en", "nl"):
        with translation.override(language):
            sentence = role_sentence(role)
            for capability in Capability:
                said = str(capability.label).casefold() in sentence.casefold()
                assert said is (capability in EXPECTED[role])
            assert sentence.endswith(".") and sentence[0].isupper()


def test_the_roles_page_shows_each_role_with_its_sentence(client, people):
    club, users = people
    client.force_login(users["admin"])
    with translation.override("en"):
        html = client.get(
            reverse("clubs:role-list", kwargs={"club": club.slug}), HTTP_ACCEPT_LANGUAGE="en"
        ).text
        for role in Role:
            assert role_sentence(role).replace("'", "&#x27;") in html


# --- Who gives which role ---------------------------------------------------------------------


def test_an_admin_invites_a_secretary_who_then_keeps_the_member_list(client, people):
    club, users = people
    invitation = services.invitation_create(club=club, role="secretary", by=users["admin"])
    newcomer = factories.user("cap-newcomer")
    role = services.invitation_accept(token=invitation.token, user=newcomer)
    assert role.role == "secretary"
    assert may(newcomer, club, C.IMPORT_MEMBERS) and not may(newcomer, club, C.MANAGE_ACCESS)


@pytest.mark.parametrize("role", ROLES)
def test_a_secretary_invites_nobody_and_changes_no_role(people, role):
    club, users = people
    secretary = users["secretary"]
    with pytest.raises(PermissionDenied):
        services.invitation_create(club=club, role=role, by=secretary)
    with pytest.raises(PermissionDenied):
        services.role_grant(club=club, user=users["member"], role=role, by=secretary)
    assert not Invitation.objects.filter(club=club, role=role, created_by=secretary).exists()
    assert ClubRole.objects.get(club=club, user=users["member"]).role == "member"


def test_a_secretary_removes_no_role_and_withdraws_no_invitation(people):
    club, users = people
    invitation = services.invitation_create(club=club, role="member", by=users["admin"])
    with pytest.raises(PermissionDenied):
        services.role_revoke(club=club, user=users["member"], by=users["secretary"])
    with pytest.raises(PermissionDenied):
        services.invitation_revoke(invitation=invitation, by=users["secretary"])
    assert ClubRole.objects.filter(club=club, user=users["member"]).exists()
    assert Invitation.objects.open().filter(pk=invitation.pk).exists()


def test_nobody_gives_a_role_that_may_more_than_their_own(people, monkeypatch):
    """Were the secretary to give roles, she could still not make an administrator."""
    club, users = people
    table = dict(ROLE_CAPABILITIES)
    table[Role.SECRETARY] = table[Role.SECRETARY] | {C.MANAGE_ACCESS}
    monkeypatch.setattr("clubs.permissions.ROLE_CAPABILITIES", table)
    secretary = users["secretary"]
    assert role_grant_refusal(by=secretary, club=club, role="member") is None
    assert role_grant_refusal(by=secretary, club=club, role="admin") is not None
    assert role_grant_refusal(by=secretary, club=club, role="director") is not None
    with pytest.raises(PermissionDenied):
        services.invitation_create(club=club, role="admin", by=secretary)
    assert not Invitation.objects.filter(club=club, role="admin").exists()
    assert role_grant_refusal(by=users["admin"], club=club, role="admin") is None


def test_an_invitation_never_takes_a_capability_away(people):
    club, users = people
    director = factories.role(club, "director", factories.user("cap-director-2"))
    invitation = services.invitation_create(club=club, role="secretary", by=users["admin"])
    assert services.invitation_accept(token=invitation.token, user=director).role == "director"
    member = factories.role(club, "member", factories.user("cap-member-2"))
    invitation = services.invitation_create(club=club, role="secretary", by=users["admin"])
    assert services.invitation_accept(token=invitation.token, user=member).role == "secretary"


def test_unknown_role_is_a_message_for_the_admin_and_a_refusal_for_anyone_else(people):
    club, users = people
    with pytest.raises(ValidationError):
        services.invitation_create(club=club, role="king", by=users["admin"])
    with pytest.raises(PermissionDenied):
        services.invitation_create(club=club, role="king", by=users["member"])


# --- Password links and the club itself ---------------------------------------------------------


def test_a_secretary_makes_no_password_link_for_anyone(people):
    club, users = people
    for target in ("member", "scorer", "director"):
        with pytest.raises(PermissionDenied):
            services.password_link_create(club=club, user=users[target], by=users["secretary"])


def test_an_admin_makes_a_password_link_for_a_secretary_whose_account_is_the_club_s(people):
    club, users = people
    uidb64, token = services.password_link_create(
        club=club, user=users["secretary"], by=users["admin"]
    )
    assert uidb64 and token


def test_a_secretary_neither_deletes_the_club_nor_changes_its_settings_or_pins(people):
    club, users = people
    secretary = users["secretary"]
    with pytest.raises(PermissionDenied):
        services.club_delete(club=club, by=secretary, confirm_name=club.name)
    with pytest.raises(PermissionDenied):
        services.club_update(club=club, by=secretary, name="Overgenomen")
    member = factories.member(club, "Pinloos")
    with pytest.raises(PermissionDenied):
        services.member_pin_set(member=member, pin="1234", by=secretary)
    assert Club.objects.get(pk=club.pk).name == "Kruisclub"
    assert Member.objects.get(pk=member.pk).pin == ""


def test_a_secretary_runs_no_evening_and_enters_no_scores(client, people):
    from tournaments import services as tournament_services

    club, users = people
    with pytest.raises(PermissionDenied):
        tournament_services.competition_create(
            club=club, by=users["secretary"], name="Voorjaar", start_date="2027-01-01"
        )
    season = factories.competition(club)
    client.force_login(users["secretary"])
    create = reverse("tournaments:evening-create", kwargs={"club": club.slug, "pk": season.pk})
    assert client.get(create).status_code == 403


# --- What the secretary does ----------------------------------------------------------------------


def test_a_secretary_adds_edits_merges_and_exports_members(client, people):
    club, users = people
    secretary = users["secretary"]
    anna = services.member_create(club=club, by=secretary, name="Anna Secretaris")
    services.member_update(member=anna, by=secretary, name="Anna S.", email="anna@example.org")
    double = services.member_create(club=club, by=secretary, name="Anna dubbel")
    services.member_merge(keep=anna, remove=double, by=secretary)
    assert Member.objects.get(pk=anna.pk).email == "anna@example.org"
    assert not Member.objects.filter(pk=double.pk).exists()
    client.force_login(secretary)
    response = client.get(reverse("clubs:member-export-csv", kwargs={"club": club.slug}))
    assert response.status_code == 200
    assert "anna@example.org" in b"".join(response.streaming_content).decode("utf-8-sig")


def test_a_secretary_imports_the_member_list(people):
    club, users = people
    data = b"naam;lidnummer\nKees Import;901\nLien Import;902\n"
    preview = imports.member_import_preview(club=club, data=data, filename="leden.csv")
    assert preview.can_apply, preview.problems
    result = imports.member_import_apply(
        club=club,
        rows=preview.rows,
        by=users["secretary"],
        filename=preview.filename,
        columns=preview.columns,
        planned=preview.planned_changes,
    )
    assert len(result.added) == 2
    assert set(
        Member.objects.filter(club=club, membership_number__in=["901", "902"]).values_list(
            "name", flat=True
        )
    ) == {"Kees Import", "Lien Import"}
    with pytest.raises(PermissionDenied):
        imports.member_import_apply(club=club, rows=preview.rows, by=users["director"])


def test_a_secretary_imports_results_from_a_file(people):
    club, users = people
    for name in ["Anna", "Bert", "Cor", "Dirk"]:
        factories.member(club, name)
    season = factories.competition(club, name="Oud seizoen")
    result = importers.results_import_apply(
        club=club, competition=season, data=csv_bytes(game_rows()), by=users["secretary"]
    )
    assert (len(result.evenings), result.hands) == (1, 16)
    assert season.evenings.count() == 1
    with pytest.raises(PermissionDenied):
        importers.results_import_apply(
            club=club, competition=season, data=csv_bytes(game_rows()), by=users["scorer"]
        )


def test_a_secretary_downloads_the_club_archive(client, people):
    club, users = people
    client.force_login(users["secretary"])
    response = client.get(reverse("exports:club-archive", kwargs={"club": club.slug}))
    assert response.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    assert "club.json" in archive.namelist()
    client.force_login(users["director"])
    assert (
        client.get(reverse("exports:club-archive", kwargs={"club": club.slug})).status_code == 403
    )


def test_a_secretary_forgets_a_plain_member_and_closes_their_account(people):
    club, users = people
    person = factories.member(club, "Vergeet Mij")
    account = factories.role(club, "member", factories.user("cap-forget-me"))
    person.user = account
    person.save()
    services.member_forget(member=person, by=users["secretary"], confirm_name="Vergeet Mij")
    account.refresh_from_db()
    assert not account.is_active and Member.objects.get(pk=person.pk).user is None


def test_a_secretary_closes_no_account_whose_role_may_more_than_hers(people):
    club, users = people
    person = factories.member(club, "Wedstrijdleider Lid")
    account = factories.role(club, "director", factories.user("cap-forget-director"))
    person.user = account
    person.save()
    with pytest.raises(PermissionDenied):
        services.member_forget(
            member=person, by=users["secretary"], confirm_name="Wedstrijdleider Lid"
        )
    person.refresh_from_db()
    account.refresh_from_db()
    assert person.name == "Wedstrijdleider Lid" and person.user == account and account.is_active
    assert ClubRole.objects.get(club=club, user=account).role == "director"
