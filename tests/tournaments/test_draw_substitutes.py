"""Tables of three only as far as invallers can fill them (issue 25): the pure
layout (``draw.table_plan``), the draw that follows it, the service that refuses
a layout nobody can fill and the pages that say why."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from tests import factories
from tournaments import selectors, services
from tournaments.draw import OddMode, TablePlan, individual_draw, table_plan
from tournaments.models import Attendance, Round


@pytest.mark.parametrize(
    ("present", "tables", "empty"),
    [(9, 3, 3), (10, 3, 2), (11, 3, 1), (13, 4, 3)],
)
def test_tables_of_three_when_enough_invallers_are_free(present, tables, empty):
    plan = table_plan(present, OddMode.SUBSTITUTE, substitutes=empty)
    assert (plan.tables, plan.empty_seats, plan.sitouts, plan.fallback) == (tables, empty, 0, "")
    round_ = individual_draw(list(range(present)), seed=1, odd_mode="substitute", substitutes=empty)
    assert len(round_.tables) == tables
    assert round_.empty_seats == empty
    assert not round_.sitouts


@pytest.mark.parametrize(("present", "empty"), [(9, 3), (10, 2), (11, 1), (13, 3)])
def test_without_enough_invallers_the_players_left_over_sit_out(present, empty):
    plan = table_plan(present, OddMode.SUBSTITUTE, substitutes=empty - 1)
    assert plan == TablePlan(present // 4, 0, present % 4, TablePlan.TOO_FEW_SUBSTITUTES, empty)
    round_ = individual_draw(
        list(range(present)), seed=1, odd_mode="substitute", substitutes=empty - 1
    )
    assert len(round_.tables) == present // 4
    assert round_.empty_seats == 0
    assert len(round_.sitouts) == present % 4


def test_13_present_and_nobody_free_make_three_full_tables_and_one_sits_out():
    round_ = individual_draw(list(range(13)), seed=4, odd_mode="substitute", substitutes=0)
    assert [len(t.players) for t in round_.tables] == [4, 4, 4]
    assert len(round_.sitouts) == 1


def test_five_players_never_get_a_table_of_three_however_many_invallers():
    plan = table_plan(5, OddMode.SUBSTITUTE, substitutes=10)
    assert plan.fallback == TablePlan.NO_TABLE_OF_THREE
    assert (plan.tables, plan.sitouts) == (1, 1)


def test_without_a_count_of_invallers_the_draw_assumes_enough():
    assert table_plan(13, "substitute").empty_seats == 3
    assert table_plan(12, "substitute", substitutes=0) == TablePlan(3, 0, 0)


# --- the service and the pages ------------------------------------------------------


@pytest.fixture
def director(club):
    return factories.role(club, "director")


@pytest.fixture
def english(settings):
    """The sentences are read in English (the Dutch ones come with the catalogue)."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def evening_of(club, present, free=0, **competition):
    season = factories.competition(club, odd_players="substitute", **competition)
    members = factories.members(club, present)
    factories.members(club, free)
    return factories.evening(season, present=members)


@pytest.mark.django_db
def test_13_present_all_members_the_clubs_substitute_layout_falls_back_to_a_sitout(club, director):
    evening = evening_of(club, 13)
    round_ = services.round_draw(evening=evening, by=director, seed=1)
    assert round_.tables.count() == 3
    assert round_.seats.filter(table__isnull=True).count() == 1
    assert not round_.seats.filter(member__isnull=True).exists()


@pytest.mark.django_db
def test_choosing_tables_of_three_nobody_can_fill_is_refused_and_draws_nothing(
    club, director, english
):
    evening = evening_of(club, 13, free=2)
    with pytest.raises(ValidationError) as info:
        services.round_draw(evening=evening, by=director, seed=1, odd_mode="substitute")
    message = info.value.messages[0]
    assert "3 substitutes" in message and "Only 2 members" in message
    assert not Round.objects.filter(evening=evening).exists()


@pytest.mark.django_db
def test_with_three_free_members_13_present_get_three_tables_of_three_and_a_choice(club, director):
    evening = evening_of(club, 13, free=3)
    round_ = services.round_draw(evening=evening, by=director, seed=1, odd_mode="substitute")
    assert round_.tables.count() == 4
    empty = list(round_.seats.filter(member__isnull=True, table__isnull=False))
    assert len(empty) == 3
    assert len(selectors.substitute_candidates(round_=round_)) == 3


@pytest.mark.django_db
def test_a_member_who_called_in_absent_is_no_invaller(club, director):
    evening = evening_of(club, 11, free=1)
    away = evening.competition.club.members.exclude(attendances__evening=evening).get()
    assert selectors.free_substitutes(evening=evening) == 1
    Attendance.objects.create(evening=evening, member=away, status="excused")
    assert selectors.free_substitutes(evening=evening) == 0


@pytest.mark.django_db
def test_the_draw_button_offers_no_table_of_three_nobody_can_fill_and_says_why(
    client, club, director, english
):
    evening = evening_of(club, 13)
    client.force_login(director)
    page = client.get(evening.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert 'name="odd_mode" value="sitout"' in text
    assert '<select name="odd_mode"' not in text
    assert "Tables of three would need 3 substitutes (invallers)." in text
    choices = selectors.draw_choices(evening=evening)
    assert choices.modes == ("sitout",)


@pytest.mark.django_db
def test_the_draw_button_offers_both_layouts_when_invallers_are_free(client, club, director):
    evening = evening_of(club, 11, free=1)
    client.force_login(director)
    text = client.get(evening.get_absolute_url()).content.decode()
    assert '<select name="odd_mode"' in text
    assert 'value="substitute" selected' in text
    assert 'id="draw-note"' not in text


@pytest.mark.django_db
def test_an_empty_invaller_list_says_why(client, club, director, english):
    evening = evening_of(club, 11, free=1)
    round_ = services.round_draw(evening=evening, by=director, seed=2)
    free = evening.competition.club.members.exclude(attendances__evening=evening).get()
    free.is_active = False  # the one free member stops playing after the draw
    free.save()
    client.force_login(director)
    text = client.get(round_.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="no-free-substitute"' in text
    assert "Choose substitute" not in text
    assert round_.seats.filter(member__isnull=True).count() == 1


@pytest.mark.django_db
def test_five_present_are_offered_sitting_out_only_with_the_reason(club, english):
    evening = evening_of(club, 5, free=4)
    choices = selectors.draw_choices(evening=evening)
    assert choices.modes == ("sitout",) and choices.preferred == "sitout"
    assert choices.reason.startswith("With 5 players a table of three is not possible")


@pytest.mark.django_db
def test_a_count_of_four_offers_no_choice_and_no_reason(club):
    choices = selectors.draw_choices(evening=evening_of(club, 12))
    assert (choices.modes, choices.reason) == ((), "")
