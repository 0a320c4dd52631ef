"""Clubs' draws (Issue 19), set up through the pages and the services they call:
tables of three by turns over a season, and the pairs movement in which even pairs
stay and odd pairs move up a table (and its mirror), with the table plan, the
score sheets and the standings checked against numbers worked out by hand."""

import datetime
import re
from collections import Counter
from io import BytesIO
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring import services as scoring_services
from scoring.models import Adjustment, Game
from scoring.results import standings
from tests import factories
from tests.tournaments.test_competition_rules import with_pending_dutch
from tournaments import draw, services
from tournaments.models import Competition, Pair, Round, Seat

pytestmark = pytest.mark.django_db

PENDING = Path(__file__).resolve().parents[2] / "locale" / "pending" / "draw.django.po"


@pytest.fixture(scope="module", autouse=True)
def pending_dutch():
    """This branch's new Dutch strings, until they are merged into the catalog."""
    yield from with_pending_dutch(PENDING)


@pytest.fixture
def director(club):
    return factories.role(club, "director")


@pytest.fixture
def logged_in(client, director):
    client.force_login(director)
    return client


def url(name, club, **kwargs):
    return reverse(f"tournaments:{name}", kwargs={"club": club.slug, **kwargs})


def create_on_the_page(logged_in, club, **changes):
    """The new-competition page as a director fills it in (without JavaScript)."""
    data = as_shown(logged_in.get(url("competition-create", club)).context["form"])
    data.update(name="Parenavond", start_date="2026-09-01", end_date="2027-05-31", **changes)
    response = logged_in.post(url("competition-create", club), data)
    assert response.status_code == 302, response.context["form"].errors
    return Competition.objects.get(club=club, name="Parenavond")


def as_shown(form):
    """What a browser sends for ``form`` as shown (no unticked boxes, no disabled fields)."""
    return {
        field.html_name: field.value()
        for field in form
        if field.value() is not None and field.value() is not False and not field.field.disabled
    }


def pdf_pages(response):
    data = b"".join(response.streaming_content)
    return [page.extract_text() for page in PdfReader(BytesIO(data)).pages]


# --- tables of three ------------------------------------------------------------------


def test_eleven_players_take_turns_at_the_table_of_three_over_a_season(club, director):
    # Three evenings of four rounds, 11 players: three tables, one of them of three.
    # 12 rounds seat 36 players there: by turns, eight players 3 times, three 4 times
    # (before the rota: 1 to 5 times).
    competition = services.competition_create(
        club=club,
        by=director,
        name="Winter",
        start_date=datetime.date(2026, 9, 1),
        end_date=datetime.date(2027, 5, 31),
        rounds_per_evening=4,
        odd_players="substitute",
    )
    members = factories.members(club, 11)
    factories.member(club, "Invaller")  # a member free to fill in at the table of three
    for week in range(3):
        evening = services.evening_create(
            competition=competition,
            date=datetime.date(2026, 9, 7) + datetime.timedelta(weeks=week),
            by=director,
        )
        for member in members:
            services.attendance_set(evening=evening, member=member, status="present", by=director)
        for round_number in range(4):
            round_ = services.round_draw(
                evening=evening, by=director, seed=week * 10 + round_number
            )
            seats = list(round_.seats.select_related("table"))
            assert not [s for s in seats if s.table_id is None]  # nobody sits out
            assert sum(s.member_id is None for s in seats) == 1  # one substitute
            counts = table_of_three_counts(competition)
            spread = [counts[m.pk] for m in members]
            assert max(spread) - min(spread) <= 1
    counts = table_of_three_counts(competition)
    assert sorted(counts[m.pk] for m in members) == [3] * 8 + [4] * 3


def table_of_three_counts(competition):
    """Per member: rounds at a table with a substitute, read from the stored seats."""
    substitute_tables = set(
        Seat.objects.filter(
            round__evening__competition=competition, member__isnull=True
        ).values_list("table_id", flat=True)
    )
    counts = Counter(
        Seat.objects.filter(table_id__in=substitute_tables, member__isnull=False).values_list(
            "member_id", flat=True
        )
    )
    return Counter({m.pk: counts[m.pk] for m in competition.club.members.all()})


def test_the_plain_words_say_who_sits_at_the_table_of_three(club, logged_in):
    competition = factories.competition(club, odd_players="substitute")
    page = logged_in.get(
        reverse("results:standings", kwargs={"club": club.slug, "pk": competition.pk})
    )
    assert "Wie overblijft speelt aan een tafel van drie met een invaller" in page.text
    competition.odd_players = "sitout"
    competition.save()
    page = logged_in.get(competition.get_absolute_url())
    assert "Wie overblijft zit stil, om de beurt over het seizoen." in page.text


# --- the pairs movement -----------------------------------------------------------------


def test_the_movement_values_are_the_draws():
    assert set(Competition.Movement.values) == {m.value for m in draw.Movement}


def test_the_movement_is_set_on_the_competition_page_and_stated_in_plain_words(club, logged_in):
    competition = create_on_the_page(logged_in, club, kind="pairs", movement="even_stay")
    assert competition.movement == "even_stay"
    expected = (
        "Paren: de even paren blijven aan hun tafel zitten, de oneven paren schuiven elke "
        "ronde één tafel door (van de laatste tafel naar tafel 1)."
    )
    standings_url = reverse("results:standings", kwargs={"club": club.slug, "pk": competition.pk})
    for page in (logged_in.get(competition.get_absolute_url()), logged_in.get(standings_url)):
        assert expected in page.text
        assert "het doorschuivende paar dat aan de laatste tafel komt" in page.text
    edit = logged_in.get(url("competition-edit", club, pk=competition.pk))
    assert "oneven paren blijven zitten, even paren schuiven elke ronde een tafel door" in edit.text
    response = logged_in.post(
        url("competition-edit", club, pk=competition.pk),
        {**as_shown(edit.context["form"]), "movement": "waltz"},
    )
    assert response.status_code == 200
    assert "movement" in response.context["form"].errors
    competition.refresh_from_db()
    assert competition.movement == "even_stay"
    # A post without the field (not from this form) keeps the movement.
    without = {k: v for k, v in as_shown(edit.context["form"]).items() if k != "movement"}
    assert (
        logged_in.post(url("competition-edit", club, pk=competition.pk), without).status_code == 302
    )
    competition.refresh_from_db()
    assert competition.movement == "even_stay"


def pairs_competition(logged_in, club, director, count, *, movement, **settings):
    competition = create_on_the_page(
        logged_in, club, kind="pairs", movement=movement, hands_per_game=1, **settings
    )
    members = factories.members(club, 2 * count)
    for k in range(count):
        response = logged_in.post(
            url("pair-add", club, pk=competition.pk),
            {"first": members[2 * k].pk, "second": members[2 * k + 1].pk},
        )
        assert response.status_code == 302
    return competition, list(competition.pairs.order_by("number"))


def table_pairs(round_):
    """{table number: (pair number at N/S, pair number at E/W)} from the stored seats."""
    pair_of = {}
    for pair in Pair.objects.filter(competition=round_.evening.competition):
        pair_of[pair.first_id] = pair_of[pair.second_id] = pair.number
    seats = {}
    for seat in round_.seats.filter(table__isnull=False).select_related("table"):
        seats.setdefault(seat.table.number, {})[seat.position] = pair_of[seat.member_id]
    return {
        number: (by_seat["N"], by_seat["E"])
        for number, by_seat in sorted(seats.items())
        if by_seat["N"] == by_seat["S"] and by_seat["E"] == by_seat["W"]
    }


def evening_of(competition, director, week, present):
    evening = services.evening_create(
        competition=competition,
        date=datetime.date(2026, 9, 7) + datetime.timedelta(weeks=week),
        by=director,
    )
    for member in present:
        services.attendance_set(evening=evening, member=member, status="present", by=director)
    return evening


@pytest.mark.parametrize(
    ("movement", "rounds"),
    [
        # Worked by hand, tables 1-4 as (N/S, E/W): the staying pair sits N/S.
        (
            "even_stay",
            [
                {1: (2, 1), 2: (4, 3), 3: (6, 5), 4: (8, 7)},
                {1: (2, 7), 2: (4, 1), 3: (6, 3), 4: (8, 5)},  # 7 wraps from 4 to 1
                {1: (2, 5), 2: (4, 7), 3: (6, 1), 4: (8, 3)},
                {1: (2, 3), 2: (4, 5), 3: (6, 7), 4: (8, 1)},
            ],
        ),
        (
            "odd_stay",
            [
                {1: (1, 2), 2: (3, 4), 3: (5, 6), 4: (7, 8)},
                {1: (1, 8), 2: (3, 2), 3: (5, 4), 4: (7, 6)},
                {1: (1, 6), 2: (3, 8), 3: (5, 2), 4: (7, 4)},
                {1: (1, 4), 2: (3, 6), 3: (5, 8), 4: (7, 2)},
            ],
        ),
    ],
)
def test_eight_pairs_move_up_a_table_and_the_plan_and_sheets_follow(
    club, logged_in, director, movement, rounds
):
    competition, pairs = pairs_competition(
        logged_in, club, director, 8, movement=movement, rounds_per_evening=5
    )
    present = [m for pair in pairs for m in (pair.first, pair.second)]
    evening = evening_of(competition, director, 0, present)
    for expected in rounds:
        round_ = services.round_draw(evening=evening, by=director)
        assert table_pairs(round_) == expected
        assert (round_.partner_repeats, round_.opponent_repeats) == (0, 0)
    met = [frozenset(t) for r in evening.rounds.all() for t in table_pairs(r).values()]
    assert len(met) == len(set(met)) == 16  # four rounds, nobody meets twice
    fifth = services.round_draw(evening=evening, by=director)  # T + 1: round 1 again
    assert table_pairs(fifth) == rounds[0]
    assert (fifth.partner_repeats, fifth.opponent_repeats) == (0, 4 * 4)

    round_2 = Round.objects.get(evening=evening, number=2)
    names = {pair.number: (pair.first.name, pair.second.name) for pair in pairs}
    exports = "exports:round-{}"
    kwargs = {"club": club.slug, "pk": round_2.pk}
    plan = " ".join(pdf_pages(logged_in.get(reverse(exports.format("table-plan"), kwargs=kwargs))))
    sheets = pdf_pages(logged_in.get(reverse(exports.format("scoresheets"), kwargs=kwargs)))
    page = logged_in.get(round_2.get_absolute_url()).text
    for table, (home, away) in rounds[1].items():
        sheet = sheets[table - 1]  # one sheet per table, in table order
        for name in (*names[home], *names[away]):
            assert name in sheet and name in plan and name in page
        for other in set(names) - {home, away}:
            assert not any(name in sheet for name in names[other])


def test_five_pairs_season_byes_by_turns_and_standings_by_hand(club, logged_in, director):
    # T = 3 tables, the last with one staying place empty: the moving pair that
    # reaches table 3 sits out (81 points, the club's sit-out score). Every game is
    # one hand in which the N/S (staying) pair plays and makes 100 against 62.
    competition, pairs = pairs_competition(
        logged_in, club, director, 5, movement="even_stay", rounds_per_evening=2, sitout_score=81
    )
    a, b, c, d, e = (pair.number for pair in pairs)
    present = [m for pair in pairs for m in (pair.first, pair.second)]
    sheet = [scoring_services.HandInput(playing="A", points_a=100, points_b=62)]
    tables, byes = [], []
    for week in range(3):
        evening = evening_of(competition, director, week, present)
        for _ in range(2):
            round_ = services.round_draw(evening=evening, by=director)
            tables.append(table_pairs(round_))
            out = set(round_.seats.filter(table__isnull=True).values_list("member_id", flat=True))
            (bye,) = [p.number for p in pairs if {p.first_id, p.second_id} == out]
            byes.append(bye)
            for game in Game.objects.filter(table__round=round_):
                scoring_services.game_enter_sheet(game=game, rows=sheet, by=director, confirm=True)
        services.evening_set_status(evening=evening, status="finished", by=director)
    # Evening 1: nobody has sat out: pairs 1, 2, 3 move (1 reaches table 3 first), 4
    # and 5 stay. Evening 2: 3, 4, 5 have sat out least and move. Evening 3: 5, then 1.
    assert tables == [
        {1: (d, c), 2: (e, b)},
        {1: (d, a), 2: (e, c)},
        {1: (a, e), 2: (b, d)},
        {1: (a, c), 2: (b, e)},
        {1: (c, b), 2: (d, a)},
        {1: (c, e), 2: (d, b)},
    ]
    assert byes == [a, b, c, d, e, a]
    assert Adjustment.objects.filter(kind="sitout").count() == 2 * 6  # both players
    # By hand: a stay is 100, a move 62, a bye 81.
    # 1: 81+62, 100+100, 62+81 = 486; 2: 62+81, 100+100, 62+62 = 467;
    # 3: 62+62, 81+62, 100+100 = 467; 4: 100+100, 62+81, 100+100 = 543;
    # 5: 100+100, 62+62, 81+62 = 467.
    result = standings.season_standings(competition=competition)
    by_number = {pair.pk: pair.number for pair in pairs}
    points = {by_number[line.key]: line.points for line in result.lines}
    assert points == {a: 486, b: 467, c: 467, d: 543, e: 467}
    assert [(by_number[line.key], line.rank) for line in result.lines][:2] == [(d, 1), (a, 2)]
    assert {line.rank for line in result.lines if by_number[line.key] in (b, c, e)} == {3}


# --- a pair that comes after round 1 ---------------------------------------------------


def in_english(settings):
    settings.LANGUAGE_CODE = "en"
    return translation.override("en")


def late_words(logged_in, round_):
    page = logged_in.get(round_.get_absolute_url()).text
    return [" ".join(p.split()) for p in re.findall(r'<p class="late-pair">(.*?)</p>', page, re.S)]


def test_a_late_pair_takes_the_empty_place_of_an_odd_movement_and_nobody_else_moves(
    club, logged_in, director, settings
):
    """Three pairs in round 1, even pairs staying: T = 2, the staying place of table 2
    is empty. The rota (nobody has sat out) makes pairs 1 and 2 move, pair 1 reaching
    table 2 first; pair 3 stays at table 1. Positions: 2, 3, 1, (empty).

        round 1   table 1: 3 against 2   table 2: pair 1 sits out
        round 2   table 1: 3 against 1   table 2: pair 2 would sit out, but pair 4
                                         came late and takes the empty place: 4 against 2
        round 3   table 1: 3 against 2   table 2: 4 against 1 (T + 1: round 1 again)

    Pair 5 comes for round 3: no free place is left, it does not play; pair 4 keeps it.
    """
    competition, pairs = pairs_competition(
        logged_in, club, director, 5, movement="even_stay", rounds_per_evening=3
    )
    first_three = [m for pair in pairs[:3] for m in (pair.first, pair.second)]
    evening = evening_of(competition, director, 0, first_three)
    round_1 = services.round_draw(evening=evening, by=director)
    assert table_pairs(round_1) == {1: (3, 2)}
    for member in (pairs[3].first, pairs[3].second):
        services.attendance_set(evening=evening, member=member, status="present", by=director)
    round_2 = services.round_draw(evening=evening, by=director)
    assert table_pairs(round_2) == {1: (3, 1), 2: (4, 2)}
    assert not round_2.seats.filter(table__isnull=True).exists()  # the bye is gone
    four = f"Pair 4 ({pairs[3].first.name} &amp; {pairs[3].second.name})"
    five = f"Pair 5 ({pairs[4].first.name} &amp; {pairs[4].second.name})"
    takes = (
        f"{four} came after round 1 and takes the empty place at table 2, where the "
        "moving pair would have sat out. The other pairs move as drawn in round 1."
    )
    with in_english(settings):
        assert late_words(logged_in, round_1) == []
        assert late_words(logged_in, round_2) == [takes]
    for member in (pairs[4].first, pairs[4].second):
        services.attendance_set(evening=evening, member=member, status="present", by=director)
    round_3 = services.round_draw(evening=evening, by=director)
    assert table_pairs(round_3) == {1: (3, 2), 2: (4, 1)}
    assert not round_3.seats.filter(member__in=[pairs[4].first, pairs[4].second]).exists()
    assert table_pairs(Round.objects.get(pk=round_1.pk)) == {1: (3, 2)}
    with in_english(settings):
        assert late_words(logged_in, round_3) == [
            takes,
            f"{five} came after round 1: the movement was fixed when round 1 was drawn and "
            "has no free place for it, so this pair does not play this evening. The other "
            "pairs move as drawn in round 1.",
        ]


def test_a_pair_that_left_before_round_1_is_drawn_moves_nobody(club, logged_in, director):
    """Four pairs check in, pair 4 leaves again before round 1 is drawn: the evening is
    drawn as the three pairs' of the test above (pair 3 stays, pair 1 sits out), not as
    four pairs with an empty place. Back for round 2, pair 4 is a late pair."""
    competition, pairs = pairs_competition(
        logged_in, club, director, 4, movement="even_stay", rounds_per_evening=3
    )
    everyone = [m for pair in pairs for m in (pair.first, pair.second)]
    evening = evening_of(competition, director, 0, everyone)
    for member in (pairs[3].first, pairs[3].second):
        services.attendance_set(evening=evening, member=member, status="left", by=director)
    round_1 = services.round_draw(evening=evening, by=director)
    assert table_pairs(round_1) == {1: (3, 2)}
    for member in (pairs[3].first, pairs[3].second):
        services.attendance_set(evening=evening, member=member, status="present", by=director)
    assert table_pairs(services.round_draw(evening=evening, by=director)) == {1: (3, 1), 2: (4, 2)}


def test_a_late_pair_in_an_even_movement_has_no_place_and_the_movement_runs_on(
    club, logged_in, director, settings
):
    """Four pairs in round 1 (T = 2), odd pairs moving: round 1 {1: (2, 1), 2: (4, 3)},
    round 2 {1: (2, 3), 2: (4, 1)}, whether or not pair 5 comes before round 2."""
    competition, pairs = pairs_competition(
        logged_in, club, director, 5, movement="even_stay", rounds_per_evening=2
    )
    first_four = [m for pair in pairs[:4] for m in (pair.first, pair.second)]
    evening = evening_of(competition, director, 0, first_four)
    assert table_pairs(services.round_draw(evening=evening, by=director)) == {
        1: (2, 1),
        2: (4, 3),
    }
    for member in (pairs[4].first, pairs[4].second):
        services.attendance_set(evening=evening, member=member, status="present", by=director)
    round_2 = services.round_draw(evening=evening, by=director)
    assert table_pairs(round_2) == {1: (2, 3), 2: (4, 1)}
    assert not round_2.seats.filter(member__in=[pairs[4].first, pairs[4].second]).exists()
    with in_english(settings):
        assert len(late_words(logged_in, round_2)) == 1
        assert "has no free place for it" in late_words(logged_in, round_2)[0]


def test_a_late_pair_in_the_round_robin_plays_its_own_place(club, logged_in, director, settings):
    """Four pairs, pair 4 late. The circle method with pairs 1-4: round 1 meets
    1-4 and 2-3, round 2 1-3 and 4-2. Without pair 4 in round 1, pair 1 has the bye;
    in round 2 pair 4 takes the bye's place (against 2), 1 against 3 as scheduled."""
    competition, pairs = pairs_competition(
        logged_in, club, director, 4, movement="round_robin", rounds_per_evening=2
    )
    first_three = [m for pair in pairs[:3] for m in (pair.first, pair.second)]
    evening = evening_of(competition, director, 0, first_three)
    round_1 = services.round_draw(evening=evening, by=director)
    assert {frozenset(t) for t in table_pairs(round_1).values()} == {frozenset((2, 3))}
    for member in (pairs[3].first, pairs[3].second):
        services.attendance_set(evening=evening, member=member, status="present", by=director)
    round_2 = services.round_draw(evening=evening, by=director)
    assert {frozenset(t) for t in table_pairs(round_2).values()} == {
        frozenset((1, 3)),
        frozenset((2, 4)),
    }
    with in_english(settings):
        (words,) = late_words(logged_in, round_2)
        assert "takes the place of the bye in the round robin" in words


def test_round_robin_of_seven_pairs_with_one_called_in_fills_three_tables_every_round(
    club, logged_in, director
):
    """Seven pairs, pair 4 called in absent: the six here are the circle (1, 2, 3, 5,
    6, 7), pair 1 staying, so every round has 3 tables, nobody here sits out (no
    sit-out score), and in 5 rounds each pair meets each of the other five once.
    By hand, the circle method on positions 1-6 = pairs 1, 2, 3, 5, 6, 7 (the others
    turn one place a round; home and away alternate):

        round 1: 1-7, 2-6, 3-5      round 4: 1-3, 5-2, 6-7
        round 2: 1-6, 7-5, 2-3      round 5: 1-2, 3-7, 5-6
        round 3: 1-5, 6-3, 7-2
    """
    competition, pairs = pairs_competition(
        logged_in, club, director, 7, movement="round_robin", rounds_per_evening=5
    )
    everyone = [m for pair in pairs for m in (pair.first, pair.second)]
    evening = evening_of(competition, director, 0, everyone)
    for member in (pairs[3].first, pairs[3].second):
        services.attendance_set(evening=evening, member=member, status="excused", by=director)
    met = []
    for _number in range(5):
        round_ = services.round_draw(evening=evening, by=director)
        tables = table_pairs(round_)
        assert len(tables) == 3
        assert not round_.seats.filter(table__isnull=True).exists()  # nobody sits out
        met.append({frozenset(t) for t in tables.values()})
    assert met == [
        {frozenset(m) for m in meetings}
        for meetings in (
            [(1, 7), (2, 6), (3, 5)],
            [(1, 6), (7, 5), (2, 3)],
            [(1, 5), (6, 3), (7, 2)],
            [(1, 3), (5, 2), (6, 7)],
            [(1, 2), (3, 7), (5, 6)],
        )
    ]
    meetings = Counter(m for round_meetings in met for m in round_meetings)
    here = [1, 2, 3, 5, 6, 7]
    assert meetings == Counter(frozenset((a, b)) for a in here for b in here if a < b)
    assert not Seat.objects.filter(member__in=[pairs[3].first, pairs[3].second]).exists()
    assert not Adjustment.objects.filter(evening=evening, kind="sitout").exists()


def test_a_late_pair_in_a_round_robin_of_even_pairs_has_no_place(
    club, logged_in, director, settings
):
    """Pairs 1, 3, 4, 5 in round 1 (pair 2 late): four pairs, no bye, so pair 2 has no
    place and the four play their circle: round 1 1-5, 3-4; round 2 1-4, 5-3."""
    competition, pairs = pairs_competition(
        logged_in, club, director, 5, movement="round_robin", rounds_per_evening=2
    )
    first = [m for pair in pairs if pair.number != 2 for m in (pair.first, pair.second)]
    evening = evening_of(competition, director, 0, first)
    round_1 = services.round_draw(evening=evening, by=director)
    assert {frozenset(t) for t in table_pairs(round_1).values()} == {
        frozenset((1, 5)),
        frozenset((3, 4)),
    }
    for member in (pairs[1].first, pairs[1].second):
        services.attendance_set(evening=evening, member=member, status="present", by=director)
    round_2 = services.round_draw(evening=evening, by=director)
    assert {frozenset(t) for t in table_pairs(round_2).values()} == {
        frozenset((1, 4)),
        frozenset((5, 3)),
    }
    assert not round_2.seats.filter(member__in=[pairs[1].first, pairs[1].second]).exists()
    with in_english(settings):
        (words,) = late_words(logged_in, round_2)
    assert "the round robin was fixed when round 1 was drawn" in words
