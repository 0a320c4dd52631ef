"""Leaving early, the player left over and the poedelprijs, each a setting on the
competition page, played as a small season with a fixed draw (one hand a game, as
``test_club_rules``) and checked against numbers worked out by hand.

Evening 1 (6 October) is ``test_club_rules``'s: 9 players, H leaves after round 1

    E, G 270   A, C 190   B, D 134   I 123 (81 sat out + 42)   F 54   H 12 (round 1 only)

Evening 2 (13 October), 8 players; B leaves after round 1, marked on the attendance
page; 7 are left for round 2: one table, three sit out (81 each)

    round 1  table 1 A B C D: A plays 100 - 62     A, C 100   B, D 62
             table 2 E F G H: A plays 150 - 12     E, G 150   F, H 12
    round 2  table 1 N A, E C, S D, W E: 90 - 72   A, D  90   C, E 72   F, G, H sit out 81

    G 231 (150 + 81)   E 222 (150 + 72)   A 190   C 172 (100 + 72)   D 152 (62 + 90)
    F 93 (12 + 81)     H 93 (12 + 81)     B 62 (round 1 only)

The lowest of those who played the whole evening: F's 54 on evening 1, F's and H's
93 on evening 2.
"""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from scoring.results import standings
from tests import factories
from tests.scoring.results.test_club_rules import (
    NAMES,
    by_name,
    check_in,
    configure,
    play_round,
    seat,
    the_evening,
)
from tournaments import services
from tournaments.models import Attendance, EveningLog

pytestmark = pytest.mark.django_db

OCT_13 = datetime.date(2026, 10, 13)


@pytest.fixture
def players(club):
    return factories.named_members(club, NAMES)


def second_evening(monkeypatch, director_client, club, competition, players, director):
    """Evening 2 of the module docstring, B's leaving marked on the attendance page."""
    evening = services.evening_create(competition=competition, date=OCT_13, by=director)
    check_in(evening, players, "ABCDEFGH", director)
    seat(monkeypatch, players, [(["ABCD", "EFGH"], ""), (["ACDE"], "FGH")])
    play_round(evening, director, [100, 150])
    page = reverse("tournaments:evening-attendance", kwargs={"club": club.slug, "pk": evening.pk})
    response = director_client.post(
        page, {"member": players["B"].pk, "status": "left", "left_after": "1"}
    )
    assert response.status_code == 302
    play_round(evening, director, [90])
    return services.evening_set_status(evening=evening, status="finished", by=director)


def season(monkeypatch, director_client, club, players, director, **settings):
    competition = configure(director_client, club, **settings)
    first = the_evening(monkeypatch, competition, players, director)
    second = second_evening(monkeypatch, director_client, club, competition, players, director)
    return competition, first, second


def names_of(keys, players):
    names = {member.pk: name for name, member in players.items()}
    return {names[key] for key in keys}


def points(lines):
    return {name: line.points for name, line in lines.items() if name != "X"}


def test_keeping_the_rounds_played_ranks_the_leaver_but_gives_no_poedelprijs(
    monkeypatch, director_client, club, players, director
):
    competition, first, second = season(monkeypatch, director_client, club, players, director)
    assert competition.leaving_policy == "keep"  # the default: as before
    attendance = Attendance.objects.get(evening=second, member=players["B"])
    assert (attendance.status, attendance.left_after) == ("left", 1)
    assert EveningLog.objects.filter(evening=second, summary__contains="Speler B").exists()

    one = standings.evening_result(evening=first)
    assert by_name(one, players)["H"].rank == 9  # 12: ranked, last
    assert names_of(one.poedel, players) == {"F"}  # 54: not H's 12 of one round
    two = standings.evening_result(evening=second)
    lines = by_name(two, players)
    assert (lines["B"].points, lines["B"].games, lines["B"].rank) == (62, 1, 8)
    assert names_of(two.poedel, players) == {"F", "H"}  # 93 each, shared

    table = by_name(standings.season_standings(competition=competition), players)
    # A 190 + 190, B 134 + 62, H 12 + 93, I 123 (evening 1 only).
    assert {n: table[n].points for n in "ABHI"} == {"A": 380, "B": 196, "H": 105, "I": 123}
    assert table["B"].evenings == 2


def test_a_fixed_score_for_each_round_missed_counts_as_a_whole_evening(
    monkeypatch, director_client, club, players, director
):
    competition, first, second = season(
        monkeypatch,
        director_client,
        club,
        players,
        director,
        leaving_policy="fixed",
        leaving_score=30,
    )
    one = standings.evening_result(evening=first)
    h = by_name(one, players)["H"]
    # H: 12 + 30 for round 2 = 42, two games, a place: the last (F has 54).
    assert (h.points, h.games, h.rank) == (42, 2, 9)
    assert one.rounds[players["H"].pk] == {1: 12, 2: 30}
    assert names_of(one.poedel, players) == {"H"}  # a whole evening with the fixed round
    two = standings.evening_result(evening=second)
    b = by_name(two, players)["B"]
    assert (b.points, b.games, b.rank) == (92, 2, 8)  # 62 + 30, below F's and H's 93
    assert names_of(two.poedel, players) == {"B"}

    table = by_name(standings.season_standings(competition=competition), players)
    # B 134 + 92 = 226; H 42 + 93 = 135; F 54 + 93 = 147.
    assert {n: table[n].points for n in "BHF"} == {"B": 226, "H": 135, "F": 147}
    assert {n: table[n].games for n in "BH"} == {"B": 4, "H": 4}


def test_the_evenings_lowest_score_for_a_leaver_takes_no_place_but_counts_for_the_season(
    monkeypatch, director_client, club, players, director
):
    competition, first, second = season(
        monkeypatch, director_client, club, players, director, leaving_policy="lowest"
    )
    one = standings.evening_result(evening=first)
    lines = by_name(one, players)
    # H gets F's 54, the lowest of a whole evening, and no place; F is last and poedel.
    assert (lines["H"].points, lines["H"].games, lines["H"].rank) == (54, 2, None)
    assert lines["F"].rank == 8
    assert names_of(one.poedel, players) == {"F"}
    two = standings.evening_result(evening=second)
    lines = by_name(two, players)
    assert (lines["B"].points, lines["B"].rank) == (93, None)  # F's and H's 93
    assert names_of(two.poedel, players) == {"F", "H"}
    assert players["B"].pk not in two.prizes | two.poedel

    table = by_name(standings.season_standings(competition=competition), players)
    # B 134 + 93 = 227, H 54 + 93 = 147; both played two evenings.
    assert {n: table[n].points for n in "BH"} == {"B": 227, "H": 147}
    assert {n: table[n].evenings for n in "BH"} == {"B": 2, "H": 2}
    stats = standings.player_stats(member=players["B"], competition=competition)
    assert [(e.points, e.rank) for e in stats.evenings] == [(134, 5), (93, None)]

    page = director_client.get(
        reverse("results:evening", kwargs={"club": club.slug, "pk": second.pk}),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "A player who leaves early gets the evening&#x27;s lowest score" in page


def test_the_poedelprijs_under_the_formule_van_4_goes_to_the_lowest_without_a_prize(
    monkeypatch, director_client, club, players, director
):
    competition, first, second = season(
        monkeypatch, director_client, club, players, director, prize_rule="formule_van_4"
    )
    one = standings.evening_result(evening=first)
    # 9 ranked: places 1-4 and 8 win. F is 8th (54) and wins; H left (12, 9th) and
    # takes none; the lowest without a prize is I's 123 (B and D have 134).
    assert names_of(one.prizes, players) == {"E", "G", "A", "C", "F"}
    assert names_of(one.poedel, players) == {"I"}
    two = standings.evening_result(evening=second)
    # 8 ranked: G, E, A, C (1-4) and B at 8 (62, left) win; F and H share 6-7 with 93,
    # the lowest without a prize (D has 152).
    assert names_of(two.prizes, players) == {"G", "E", "A", "C", "B"}
    assert names_of(two.poedel, players) == {"F", "H"}

    # The sentence says so, and the page gives the poedelprijs it promises.
    page = director_client.get(
        reverse("results:evening", kwargs={"club": club.slug, "pk": first.pk}),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "when the last place already wins a prize, to the lowest place that does not" in page
    assert page.count("badge prize") == 6  # 5 prizes and the poedelprijs
    table = by_name(standings.season_standings(competition=competition), players)
    assert table["I"].points == 123 and table["F"].points == 147  # 54 + 93


def test_every_place_winning_a_prize_leaves_no_poedelprijs(
    monkeypatch, director_client, club, players, director
):
    """Formule van 4 with 4 players: places 1-4 all win, nobody is left for it."""
    competition = configure(director_client, club, prize_rule="formule_van_4")
    for date in (datetime.date(2026, 10, 6), OCT_13):
        evening = services.evening_create(competition=competition, date=date, by=director)
        check_in(evening, players, "ABCD", director)
        seat(monkeypatch, players, [(["ABCD"], ""), (["ABCD"], "")])
        play_round(evening, director, [100])
        play_round(evening, director, [90])
        evening = services.evening_set_status(evening=evening, status="finished", by=director)
        result = standings.evening_result(evening=evening)
        assert names_of(result.prizes, players) == set("ABCD") and result.poedel == set()
    table = by_name(standings.season_standings(competition=competition), players)
    assert table["A"].points == 2 * (100 + 90) and table["B"].points == 2 * (62 + 72)


def test_leaving_refuses_a_round_with_a_place_and_another_clubs_director(
    monkeypatch, director_client, club, other_club, players, director
):
    competition = configure(director_client, club)
    evening = services.evening_create(competition=competition, date=OCT_13, by=director)
    check_in(evening, players, "ABCDEFGH", director)
    seat(monkeypatch, players, [(["ABCD", "EFGH"], ""), (["ABCD", "EFGH"], "")])
    play_round(evening, director, [100, 150])
    play_round(evening, director, [90, 120])
    with pytest.raises(ValidationError, match="heeft een plaats in ronde 2"):
        services.attendance_leave(evening=evening, member=players["B"], after_round=1, by=director)
    with pytest.raises(ValidationError, match="na ronde 0 tot en met 1"):
        services.attendance_leave(evening=evening, member=players["B"], after_round=2, by=director)
    with pytest.raises(PermissionDenied):
        services.attendance_leave(
            evening=evening,
            member=players["B"],
            after_round=1,
            by=factories.role(other_club, "director"),
        )
    assert Attendance.objects.get(evening=evening, member=players["B"]).status == "present"
    page = reverse("tournaments:evening-attendance", kwargs={"club": club.slug, "pk": evening.pk})
    response = director_client.post(
        page,
        {"member": players["B"].pk, "status": "left", "left_after": "x"},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 400  # a clear message, nothing changed
    assert Attendance.objects.get(evening=evening, member=players["B"]).left_after is None


@pytest.mark.parametrize("left_over", ["sitout_score", "lowest"])
def test_the_player_left_over_where_tables_of_three_are_the_rule(
    monkeypatch, director_client, club, players, director, left_over
):
    """5 players cannot make a table of three: one sits out each round, by turns.

    evening 1  round 1 A B C D, E out: A plays 100   A, C 100  B, D 62   E 81
               round 2 A B C E, D out: A plays 120   A, C 120  B, E 42   D 81
               A, C 220   D 143   E 123   B 104 (the lowest who played both rounds)
    evening 2  round 1 A C D E, B out: A plays 90    A, D 90   C, E 72   B 81
               round 2 A B D E, C out: A plays 100   A, D 100  B, E 62   C 81
               A, D 190   C 153   B 143   E 134 (the lowest who played both rounds)
    """
    competition = configure(
        director_client, club, odd_players="substitute", left_over=left_over, prize_rule="winner"
    )
    draws = [
        [(["ABCD"], "E"), (["ABCE"], "D")],
        [(["ACDE"], "B"), (["ABDE"], "C")],
    ]
    results = []
    for date, rounds, hands in zip(
        (datetime.date(2026, 10, 6), OCT_13), draws, ([100, 120], [90, 100]), strict=True
    ):
        evening = services.evening_create(competition=competition, date=date, by=director)
        check_in(evening, players, "ABCDE", director)
        seat(monkeypatch, players, rounds)
        for hand in hands:
            play_round(evening, director, [hand])
        evening = services.evening_set_status(evening=evening, status="finished", by=director)
        results.append(standings.evening_result(evening=evening))
    one, two = (by_name(result, players) for result in results)
    table = by_name(standings.season_standings(competition=competition), players)
    season = {name: line.points for name, line in table.items()}
    words = competition.describe_draw()
    page = director_client.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").text
    assert "Sitting out a round scores" not in page
    if left_over == "sitout_score":
        assert points(one) == {"A": 220, "C": 220, "D": 143, "E": 123, "B": 104}
        assert [one[n].rank for n in "ACDEB"] == [1, 1, 3, 4, 5]
        assert names_of(results[0].poedel, players) == {"B"}
        assert names_of(results[1].poedel, players) == {"E"}
        # A 220 + 190, B 104 + 143, C 220 + 153, D 143 + 190, E 123 + 134.
        assert season == {"A": 410, "B": 247, "C": 373, "D": 333, "E": 257}
        assert "a player left over sits out and scores 81 for that round" in page
    else:
        # E and D sat out on evening 1: B's 104 and no place; on evening 2 B and C: E's 134.
        assert points(one) == {"A": 220, "C": 220, "B": 104, "D": 104, "E": 104}
        assert [one[n].rank for n in "ACBDE"] == [1, 1, 3, None, None]
        assert points(two) == {"A": 190, "D": 190, "E": 134, "B": 134, "C": 134}
        assert [two[n].rank for n in "ADEBC"] == [1, 1, 3, None, None]
        assert names_of(results[0].poedel, players) == {"B"}
        assert names_of(results[1].poedel, players) == {"E"}
        # A 220 + 190, B 104 + 134, C 220 + 134, D 104 + 190, E 104 + 134.
        assert season == {"A": 410, "B": 238, "C": 354, "D": 294, "E": 238}
        assert {name: line.evenings for name, line in table.items()} == dict.fromkeys("ABCDE", 2)
        assert "gets the evening&#x27;s lowest score (the lowest of those who played" in page
        assert "scores 81" not in page
    assert words  # the draw's own sentences stay


def test_the_sit_out_sentence_and_the_mars_help_say_what_happens(director_client, club):
    """A sit-out club states its score; its mars help promises no points it does not give."""
    competition = configure(director_client, club, sitout_mars=True)
    page = director_client.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").text
    assert "Sitting out a round scores 81 and counts as a mars." in page
    form = director_client.get(
        reverse("tournaments:competition-create", kwargs={"club": club.slug}),
        HTTP_ACCEPT_LANGUAGE="en",
    ).text
    assert "It adds no points" in form
    assert "put the mars" not in form


def test_a_leaver_given_the_evenings_lowest_keeps_their_own_penalty(
    monkeypatch, director_client, club, players, director
):
    """The evening's lowest replaces what the leaver scored in games; their own
    adjustments (a verzaken penalty) are added to it: B, who left after round 1 of
    evening 2 with a -20 penalty, gets F's and H's 93 - 20 = 73, no place."""
    from scoring.models import Adjustment
    from scoring.services import adjustment_record

    competition, first, second = season(
        monkeypatch, director_client, club, players, director, leaving_policy="lowest"
    )
    adjustment_record(
        evening=second,
        kind=Adjustment.Kind.VERZAKEN,
        member=players["B"],
        points=-20,
        reason="Verzaakt in round 1",
        by=director,
    )
    two = standings.evening_result(evening=second)
    lines = by_name(two, players)
    # The lowest of a whole evening is still 93 (F, H): B's penalty is B's own.
    assert (lines["B"].points, lines["B"].rank) == (93 - 20, None)
    assert (lines["F"].points, lines["H"].points) == (93, 93)
    table = by_name(standings.season_standings(competition=competition), players)
    # B 134 + 73 = 207.
    assert table["B"].points == 134 + 73
