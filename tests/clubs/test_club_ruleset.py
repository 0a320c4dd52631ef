"""The club's own rule set: every field on the club's settings page, checked by the model."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs.models import Club
from tests import factories

pytestmark = pytest.mark.django_db
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


def settings_post(club, **rules):
    data = {
        "name": club.name,
        "town": "",
        "ruleset_preset": "rotterdam",
        "ruleset_base": "rotterdam",
        "results_public": "on",
        "contact_name": "",
        "contact_email": "",
        "sheet_marks": "pit_team",
        "play_rule": "rotterdam",
        "roem_rule": "in_trick",
        "nat_basis": "points_and_roem",
        "nat_roem": "to_defenders",
        "pit_bonus": "100",
        "verzaken_bonus": "100",
        "game_end": "hands",
        "hands_per_game": "16",
        "target_score": "",
        "on_tie": "extra_hands",
        "all_pass_chooser": "forehand",
    }
    data.update(rules)
    return data


@pytest.fixture
def club_admin(client, club):
    client.force_login(factories.role(club, "admin"))
    return client


def test_the_club_page_sets_every_rule_and_new_competitions_start_from_it(club_admin, club):
    page = club_admin.get(reverse("clubs:club-edit", kwargs={"club": club.slug}), **ENGLISH)
    assert 'name="pit_bonus"' in page.text and 'id="ruleset-presets"' in page.text
    response = club_admin.post(
        reverse("clubs:club-edit", kwargs={"club": club.slug}),
        settings_post(club, pit_bonus="200", hands_per_game="12"),
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.ruleset_overrides == {"pit_bonus": 200, "hands_per_game": 12}
    assert (club.ruleset().pit_bonus, club.ruleset().hands_per_game) == (200, 12)
    new = club_admin.get(
        reverse("tournaments:competition-create", kwargs={"club": club.slug}), **ENGLISH
    )
    assert new.context["form"]["pit_bonus"].initial == 200
    again = club_admin.get(reverse("clubs:club-edit", kwargs={"club": club.slug}), **ENGLISH)
    assert "Pit (mars, all eight tricks): 200 extra." in again.text
    assert "A game is 12 hands." in again.text


def test_a_rule_the_core_refuses_is_refused_on_its_field_and_nothing_changes(club_admin, club):
    response = club_admin.post(
        reverse("clubs:club-edit", kwargs={"club": club.slug}),
        settings_post(club, game_end="target", target_score="0"),
        **ENGLISH,
    )
    assert response.status_code == 200
    assert "target_score" in response.context["form"].errors
    club.refresh_from_db()
    assert club.ruleset_overrides == {}


@pytest.mark.parametrize(
    "overrides",
    [{"pit_bonus": -5}, {"no_such_rule": 1}, {"hands_per_game": 65}, ["pit_bonus"]],
)
def test_the_model_refuses_a_bad_club_rule_set_as_the_admin_saves_it(club, overrides):
    club.ruleset_overrides = overrides
    with pytest.raises(ValidationError) as info:
        club.full_clean()
    assert "ruleset_overrides" in info.value.message_dict


def test_the_admin_cannot_save_a_club_rule_set_the_site_refuses(client, club):
    superuser = factories.user("beheer", is_staff=True, is_superuser=True)
    client.force_login(superuser)
    url = reverse("admin:clubs_club_change", args=[club.pk])
    form = client.get(url).context["adminform"].form
    data = {name: form.initial.get(name, "") for name in form.fields}
    data.update(
        name=club.name,
        slug=club.slug,
        ruleset_preset="rotterdam",
        ruleset_overrides='{"pit_bonus": -5}',
        results_public="on",
    )
    for key in [k for k, v in data.items() if v is None or v is False]:
        data.pop(key)
    response = client.post(url, data)
    assert response.status_code == 200
    assert list(response.context["adminform"].form.errors) == ["ruleset_overrides"]
    assert Club.objects.get(pk=club.pk).ruleset_overrides == {}
