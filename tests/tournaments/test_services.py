"""Competitions, evenings and the draw through their services, on the real database."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from scoring.models import Adjustment, Game
from tests import factories
from tournaments import services
from tournaments.models import Attendance, Competition, Round, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(club):
    return factories.role(club, "director")


@pytest.fixture
def season(club):
    return factories.competition(club)


def test_competition_takes_the_clubs_rule_set_by_default(club, director):
    club.ruleset_preset = "amsterdam"
    club.save()
    competition = services.competition_create(
        club=club,
        by=director,
        name="Zomer",
        start_date=datetime.date(2027, 6, 1),
        end_date=datetime.date(2027, 8, 31),
    )
    assert competition.ruleset_preset == "amsterdam"
    assert competition.ruleset().hands_per_game == 16


def test_competition_with_end_before_start_is_refused(club, director):
    with pytest.raises(ValidationError) as info:
        services.competition_create(
            club=club,
            by=director,
            name="Verkeerd",
            start_date=datetime.date(2027, 6, 1),
            end_date=datetime.date(2027, 5, 1),
        )
    assert "laatste dag" in str(info.value)
    assert not Competition.objects.filter(name="Verkeerd").exists()


def test_scorer_cannot_create_a_competition(club):
    scorer = factories.role(club, "scorer")
    with pytest.raises(PermissionDenied):
        services.competition_create(
            club=club,
            by=scorer,
            name="Nee",
            start_date=datetime.date(2027, 1, 1),
            end_date=datetime.date(2027, 2, 1),
        )


def test_evening_outside_the_season_is_refused(season, director):
    with pytest.raises(ValidationError):
        services.evening_create(competition=season, date=datetime.date(2030, 1, 1), by=director)


def present_evening(season, count):
    members = factories.members(season.club, count)
    return factories.evening(season, present=members), members


def test_draw_of_13_players_seats_12_and_one_sits_out_with_the_sitout_score(season, director):
    evening, members = present_evening(season, 13)
    round_ = services.round_draw(evening=evening, by=director, seed=1)
    seats = list(round_.seats.all())
    assert len(seats) == 13
    assert {s.member_id for s in seats} == {m.pk for m in members}
    sitting_out = [s for s in seats if s.is_sitout]
    assert len(sitting_out) == 1
    assert round_.tables.count() == 3
    assert Game.objects.filter(table__round=round_).count() == 3
    adjustment = Adjustment.objects.get(round=round_)
    assert adjustment.member_id == sitting_out[0].member_id
    assert adjustment.points == season.sitout_score
    evening.refresh_from_db()
    assert evening.status == "in_play"


def test_sit_outs_rotate_over_the_evening(season, director):
    season.rounds_per_evening = 5
    season.save()
    evening, members = present_evening(season, 13)
    out = []
    for _ in range(5):
        round_ = services.round_draw(evening=evening, by=director)
        out.extend(round_.seats.filter(table__isnull=True).values_list("member_id", flat=True))
    assert len(out) == len(set(out)) == 5


def test_three_rounds_of_16_players_repeat_no_partner(season, director):
    evening, _ = present_evening(season, 16)
    rounds = [services.round_draw(evening=evening, by=director, seed=n) for n in range(3)]
    assert [r.partner_repeats for r in rounds] == [0, 0, 0]


def test_substitute_mode_makes_a_table_of_three(season, director):
    evening, _ = present_evening(season, 7)
    factories.member(season.club, "Invaller")  # a member free to fill in
    round_ = services.round_draw(evening=evening, by=director, odd_mode="substitute")
    assert round_.tables.count() == 2
    substitutes = round_.seats.filter(member__isnull=True)
    assert substitutes.count() == 1
    assert substitutes.get().substitute
    assert not round_.seats.filter(table__isnull=True).exists()


def test_fewer_than_four_present_is_a_clear_error_and_nothing_is_drawn(season, director):
    evening, _ = present_evening(season, 3)
    with pytest.raises(ValidationError) as info:
        services.round_draw(evening=evening, by=director)
    assert "4" in info.value.messages[0]
    assert not Round.objects.filter(evening=evening).exists()


def test_no_more_rounds_than_the_format(season, director):
    season.rounds_per_evening = 1
    season.save()
    evening, _ = present_evening(season, 8)
    services.round_draw(evening=evening, by=director)
    with pytest.raises(ValidationError):
        services.round_draw(evening=evening, by=director)
    assert evening.rounds.count() == 1


def test_late_arrival_joins_the_next_round_and_leaver_does_not(season, director, club):
    evening, members = present_evening(season, 8)
    first = services.round_draw(evening=evening, by=director)
    late = factories.member(club, "Laatkomer")
    services.attendance_set(evening=evening, member=late, status="present", by=director)
    services.attendance_set(evening=evening, member=members[0], status="left", by=director)
    second = services.round_draw(evening=evening, by=director)
    assert not first.seats.filter(member=late).exists()
    assert second.seats.filter(member=late).exists()
    assert not second.seats.filter(member=members[0]).exists()


def test_swap_two_players_before_play(season, director):
    evening, _ = present_evening(season, 9)
    round_ = services.round_draw(evening=evening, by=director, seed=3)
    seated = round_.seats.filter(table__isnull=False).first()
    sitting = round_.seats.get(table__isnull=True)
    seated_member, sitting_member = seated.member_id, sitting.member_id
    services.seat_swap(round_=round_, first=seated, second=sitting, by=director)
    assert round_.seats.get(table__isnull=True).member_id == seated_member
    assert round_.seats.get(table=seated.table, position=seated.position).member_id == (
        sitting_member
    )
    adjustment = Adjustment.objects.get(round=round_, kind="sitout")
    assert adjustment.member_id == seated_member


def test_swap_after_scores_exist_is_refused_and_changes_nothing(season, director):
    evening, _ = present_evening(season, 8)
    round_ = services.round_draw(evening=evening, by=director)
    game = Game.objects.filter(table__round=round_).first()
    factories.hand(game, "A", 100, raw=True)
    a, b = round_.seats.all()[:2]
    before = list(round_.seats.values_list("pk", "member_id").order_by("pk"))
    with pytest.raises(ValidationError) as info:
        services.seat_swap(round_=round_, first=a, second=b, by=director)
    assert "ligt nu vast" in info.value.messages[0]
    assert list(round_.seats.values_list("pk", "member_id").order_by("pk")) == before


def test_rule_set_cannot_change_after_the_first_hand(season, director):
    evening, _ = present_evening(season, 4)
    round_ = services.round_draw(evening=evening, by=director)
    services.competition_update(competition=season, by=director, hands_per_game=12)
    game = Game.objects.get(table__round=round_)
    factories.hand(game, "A", 100, raw=True)
    with pytest.raises(ValidationError) as info:
        services.competition_update(competition=season, by=director, ruleset_preset="amsterdam")
    assert "liggen vast" in str(info.value)
    season.refresh_from_db()
    assert season.ruleset_preset == "rotterdam"
    assert season.hands_per_game == 12
    # Other settings may still change.
    services.competition_update(competition=season, by=director, sitout_score=1500)


def test_pairs_competition_keeps_pairs_together(club, director):
    from tournaments.models import Pair

    season = factories.competition(club, kind=Competition.Kind.PAIRS)
    members = factories.members(club, 10)
    for n in range(5):
        Pair.objects.create(
            competition=season, number=n + 1, first=members[2 * n], second=members[2 * n + 1]
        )
    evening = factories.evening(season, present=members)
    round_ = services.round_draw(evening=evening, by=director)
    partner = {}
    for seat in round_.seats.filter(table__isnull=False):
        partner.setdefault((seat.table_id, seat.team), set()).add(seat.member_id)
    pairs = {frozenset((members[2 * n].pk, members[2 * n + 1].pk)) for n in range(5)}
    assert {frozenset(team) for team in partner.values()} <= pairs
    assert round_.seats.filter(table__isnull=True).count() == 2  # the pair with the bye


def test_round_can_be_taken_back_before_play(season, director):
    evening, _ = present_evening(season, 5)
    round_ = services.round_draw(evening=evening, by=director)
    services.round_delete(round_=round_, by=director)
    assert not Round.objects.filter(evening=evening).exists()
    assert not Seat.objects.filter(round__evening=evening).exists()
    assert not Adjustment.objects.filter(evening=evening).exists()


def test_guest_check_in_adds_a_guest_record(season, director):
    evening = factories.evening(season)
    attendance = services.guest_check_in(evening=evening, name="Gast <Jansen>", by=director)
    assert attendance.member.is_guest
    assert attendance.member.name == "Gast <Jansen>"
    assert attendance.status == Attendance.Status.PRESENT


def test_closing_an_evening_with_unconfirmed_games_is_refused(season, director):
    evening, _ = present_evening(season, 4)
    services.round_draw(evening=evening, by=director)
    with pytest.raises(ValidationError):
        services.evening_set_status(evening=evening, status="finished", by=director)
    evening.refresh_from_db()
    assert evening.status == "in_play"


def test_pairs_competition_without_pairs_is_refused_with_the_reason(club, director):
    season = factories.competition(club, kind=Competition.Kind.PAIRS)
    evening = factories.evening(season, present=factories.members(club, 16))
    with translation.override("en"), pytest.raises(ValidationError) as info:
        services.round_draw(evening=evening, by=director)
    assert info.value.messages == [
        "This pairs competition has no pairs yet: form the pairs on the competition "
        "page first, then draw the round."
    ]
    assert not Round.objects.exists()


def test_pairs_competition_with_one_pair_here_counts_pairs_not_players(club, director):
    from tournaments.models import Pair

    season = factories.competition(club, kind=Competition.Kind.PAIRS)
    players = factories.members(club, 4)
    Pair.objects.create(competition=season, number=1, first=players[0], second=players[1])
    Pair.objects.create(competition=season, number=2, first=players[2], second=players[3])
    # Three players here, but only pair 1 has both: one pair, not "3 present".
    evening = factories.evening(season, present=players[:3])
    with translation.override("en"), pytest.raises(ValidationError) as info:
        services.round_draw(evening=evening, by=director)
    assert info.value.messages == [
        "At least 2 pairs with both players present are needed for a round; 1 are present."
    ]
