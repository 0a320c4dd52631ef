"""The stored evening totals (``EveningTotals``): the season standings read each
finished evening's sums instead of summing its games again. The evening's finishing
stores them and every change below an evening stores them again in its own
transaction (``scoring.results.services.evening_totals_store``), so the standings
never show a stale number, and a standings read only reads: it writes nothing, and an
evening without stored totals is summed in memory."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs import services as club_services
from clubs.models import Member
from scoring import services as scoring_services
from scoring.models import Adjustment, EveningTotals, Game
from scoring.results import standings
from scoring.results.services import evening_totals_store
from tests import factories
from tournaments import services
from tournaments.models import Competition, Evening, Seat


def live(evening_ids):
    """Each player's tally of an evening (confirmed games and adjustments), summed now."""
    tallies = standings.evening_tallies(evening_ids, confirmed_only=True)
    return {
        (evening, member): (t.points, t.games, t.marsen, t.tegenpit, t.nat, t.nat_defending)
        + (t.roem, t.verzaken, t.personal, t.played)
        for evening, members in tallies.items()
        for member, t in members.items()
    }


def from_store(evening_ids):
    tallies = standings.evening_tallies(evening_ids, confirmed_only=True, finished=evening_ids)
    return {
        (evening, member): (t.points, t.games, t.marsen, t.tegenpit, t.nat, t.nat_defending)
        + (t.roem, t.verzaken, t.personal, t.played)
        for evening, members in tallies.items()
        for member, t in members.items()
    }


def lines(competition):
    return [
        (line.key, line.rank, line.points, line.games, line.marsen)
        for line in standings.season_standings(competition=competition).lines
    ]


@pytest.fixture(scope="module")
def built_season(module_db, play_season):
    """The played season, built once per module in a club of its own: the primary keys
    of (competition, members, evenings, director). Each test's changes to it are rolled
    back in its own savepoint; ``season`` hands out objects read again for each test."""
    competition, members, evenings, director = play_season(
        factories.club(), evenings=2, players=10, rounds=2, seed=11
    )
    return competition.pk, [m.pk for m in members], [e.pk for e in evenings], director.pk


@pytest.fixture
def season(db, built_season):
    """(competition, members, evenings, director): 2 finished evenings of 10 players and
    2 rounds, as rows read for this test (a test may change its objects)."""
    competition_pk, member_pks, evening_pks, director_pk = built_season
    members = Member.objects.in_bulk(member_pks)
    evenings = Evening.objects.in_bulk(evening_pks)
    return (
        Competition.objects.get(pk=competition_pk),
        [members[pk] for pk in member_pks],
        [evenings[pk] for pk in evening_pks],
        get_user_model().objects.get(pk=director_pk),
    )


def stored_ids():
    return set(EveningTotals.objects.values_list("evening_id", flat=True))


def test_finishing_an_evening_stores_its_totals_and_reads_agree(season):
    competition, members, evenings, director = season
    ids = [e.pk for e in evenings]
    assert stored_ids() == set(ids)  # each evening's finishing stored them
    assert from_store(ids) == live(ids)
    first = lines(competition)
    assert lines(competition) == first
    # An evening back in play has none stored, and a read sums it without storing it.
    services.evening_set_status(evening=evenings[1], status="in_play", by=director)
    assert stored_ids() == {ids[0]}
    assert from_store(ids) == live(ids)
    assert lines(competition) != first  # the season counts finished evenings only
    assert stored_ids() == {ids[0]}
    services.evening_set_status(evening=evenings[1], status="finished", by=director)
    assert stored_ids() == set(ids)
    assert from_store(ids) == live(ids)
    assert lines(competition) == first


def writes(queries):
    """The statements among ``queries`` that write (or take SQLite's write lock)."""
    return [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE")
        or "BEGIN IMMEDIATE" in q["sql"].upper()
        or "FOR UPDATE" in q["sql"].upper()
        or "FOR NO KEY UPDATE" in q["sql"].upper()
    ]


@pytest.mark.parametrize("stored", [True, False], ids=["stored", "missing"])
def test_a_standings_read_writes_nothing(client, season, stored):
    """Neither the standings nor their page write: with the totals stored they are read,
    without them (a results import stores none) the evenings are summed in memory."""
    competition, members, evenings, director = season
    ids = [e.pk for e in evenings]
    expected = lines(competition)
    if not stored:
        EveningTotals.objects.all().delete()
    url = reverse("results:standings", kwargs={"club": competition.club.slug, "pk": competition.pk})
    with CaptureQueriesContext(connection) as queries:
        assert lines(competition) == expected
        assert from_store(ids) == live(ids)
        assert client.get(url).status_code == 200
    assert len(queries) > 0
    assert writes(queries) == []
    assert stored_ids() == (set(ids) if stored else set())


class Rollback(Exception):
    pass


def test_a_correction_stores_the_totals_in_its_own_transaction(season):
    """A director's penalty after the evening was closed: inside the service's
    transaction the evening's stored totals are already the corrected ones (one
    upsert of the row), and undone with it."""
    competition, members, evenings, director = season
    ids = [e.pk for e in evenings]
    before = from_store(ids)
    member = Seat.objects.filter(round__evening=evenings[1], member__isnull=False).first().member
    with pytest.raises(Rollback), transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            scoring_services.adjustment_record(
                evening=evenings[1],
                kind="verzaken",
                points=-100,
                reason="x",
                by=director,
                member=member,
            )
        assert [q for q in writes(queries) if "scoring_eveningtotals" in q]
        assert stored_ids() == set(ids)
        assert from_store(ids) == live(ids) != before
        assert from_store(ids)[(ids[1], member.pk)][0] == before[(ids[1], member.pk)][0] - 100
        raise Rollback
    assert from_store(ids) == live(ids) == before


def change_a_game(evening):
    game = Game.objects.filter(table__round__evening=evening).first()
    game.total_a += 100
    game.save()


def move_a_seat(evening):
    seat = Seat.objects.filter(round__evening=evening, table__isnull=False).first()
    seat.member = factories.member(evening.competition.club, name="Invaller")
    seat.save()


def reopen(evening):
    evening.status = "in_play"
    evening.save()


def delete_the_last_round(evening):
    """As ``tournaments.services.round_delete`` does, with scoring's receiver."""
    round_ = evening.rounds.order_by("-number").first()
    Adjustment.objects.filter(round=round_).delete()
    Game.objects.filter(table__round=round_).delete()
    round_.seats.all().delete()
    round_.tables.all().delete()
    round_.delete()


def add_a_penalty(evening):
    """A director's -100 for a player, recorded after the evening was closed."""
    director = factories.role(evening.competition.club, "director")
    member = Seat.objects.filter(round__evening=evening, member__isnull=False).first().member
    scoring_services.adjustment_record(
        evening=evening, kind="verzaken", points=-100, reason="verzaakt", by=director, member=member
    )


def give_a_team_a_score(evening):
    director = factories.role(evening.competition.club, "director")
    game = Game.objects.filter(table__round__evening=evening).order_by("pk").first()
    scoring_services.adjustment_record(
        evening=evening,
        kind="director",
        points=50,
        reason="telfout",
        by=director,
        game=game,
        team="B",
    )


def delete_a_sitout_score(evening):
    Adjustment.objects.filter(evening=evening, kind="sitout").first().delete()


def move_a_sitout_score(evening):
    """As the admin may: the sit-out score put on the other evening."""
    adjustment = Adjustment.objects.filter(evening=evening, kind="sitout").first()
    adjustment.evening = Evening.objects.exclude(pk=evening.pk).get(competition=evening.competition)
    adjustment.save()


@pytest.mark.parametrize(
    "change",
    [
        change_a_game,
        move_a_seat,
        reopen,
        delete_the_last_round,
        add_a_penalty,
        give_a_team_a_score,
        delete_a_sitout_score,
        move_a_sitout_score,
    ],
)
def test_a_change_below_an_evening_stores_its_totals_again(season, change):
    """Stored again with the change (reopened: thrown away), so what the standings
    read from the store is what summing the evening now gives."""
    competition, members, evenings, director = season
    ids = [e.pk for e in evenings]
    lines(competition)
    before = from_store(ids)
    assert before == live(ids)
    change(evenings[1])
    assert stored_ids() == ({ids[0]} if change is reopen else set(ids))
    after = from_store(ids)
    assert after == live(ids)
    if change is not reopen:  # reopened, the evening's games are as they were
        assert after != before


def test_merging_two_records_of_a_player_stores_the_clubs_totals_again(season):
    competition, members, evenings, director = season
    club = competition.club
    ids = [e.pk for e in evenings]
    # The second evening's games of one player were entered on a second record.
    second = factories.member(club, name=members[4].name + " (2)")
    Seat.objects.filter(round__evening=evenings[1], member=members[4]).update(member=second)
    with transaction.atomic():  # an update sends no signal: stored as if entered so
        evening_totals_store(ids)
    before = {key: points for key, _rank, points, _g, _m in lines(competition)}
    assert stored_ids() == set(ids)
    stored_before = from_store(ids)
    club_services.member_merge(keep=members[4], remove=second, by=factories.role(club, "admin"))
    assert stored_ids() == set(ids)
    assert from_store(ids) != stored_before
    after = {key: points for key, _rank, points, _g, _m in lines(competition)}
    assert after[members[4].pk] == before[members[4].pk] + before[second.pk]
    assert second.pk not in after
    assert from_store(ids) == live(ids)


def test_merging_a_record_that_only_has_an_adjustment_stores_that_evenings_totals_again(
    season,
):
    """Member 2 called in absent on evening 2 (no seat there); a penalty that evening was
    given to a second record of theirs. Merged, the penalty is theirs: evening 2 is
    summed and stored again."""
    competition, members, evenings, director = season
    club = competition.club
    ids = [e.pk for e in evenings]
    absent = members[1]
    assert not Seat.objects.filter(round__evening=evenings[1], member=absent).exists()
    second = factories.member(club, name=absent.name + " (2)")
    scoring_services.adjustment_record(
        evening=evenings[1], kind="verzaken", points=-100, reason="x", by=director, member=second
    )
    before = {key: points for key, _rank, points, _g, _m in lines(competition)}
    assert stored_ids() == set(ids)
    stored_before = from_store(ids)
    club_services.member_merge(keep=absent, remove=second, by=factories.role(club, "admin"))
    assert stored_ids() == set(ids)
    assert (ids[1], absent.pk) not in stored_before
    assert from_store(ids)[(ids[1], absent.pk)][8] == -100  # the penalty, now theirs
    after = {key: points for key, _rank, points, _g, _m in lines(competition)}
    assert after[absent.pk] == before[absent.pk] - 100
    assert from_store(ids) == live(ids)


def test_the_lines_made_from_the_stored_columns_are_the_tallies_lines(season):
    """The season standings make their lines straight from the stored columns where no
    rule changes a tally (``_stored_lines``); they are the lines the tallies make, with
    sit-outs, a penalty and a team's score among them."""
    competition, members, evenings, director = season
    ids = [e.pk for e in evenings]
    add_a_penalty(evenings[0])
    give_a_team_a_score(evenings[1])
    EveningTotals.objects.all().delete()
    for attempt in ("summed in memory", "read from the store"):
        if attempt == "read from the store":
            with transaction.atomic():
                evening_totals_store(ids)
            assert stored_ids() == set(ids)
        tallies = standings.evening_tallies(ids, confirmed_only=True, finished=ids)
        expected = {}
        for evening_id in ids:
            for key, tally in tallies[evening_id].items():
                expected.setdefault(key, []).append(tally.line(evening_id))
        made = standings._stored_lines(ids)
        assert made == expected, attempt
        assert all(type(line.played) is bool for lines_ in made.values() for line in lines_)
    sitout = Adjustment.objects.filter(evening=evenings[0], kind="sitout").first()
    [line] = [line for line in made[sitout.member_id] if line.evening == ids[0]]
    assert line.games == 2  # one game played, one round sat out


def test_a_directors_correction_in_a_closed_evening_shows_in_the_standings(season):
    competition, members, evenings, director = season
    ids = [e.pk for e in evenings]
    game = Game.objects.filter(table__round__evening=evenings[1]).order_by("pk").first()
    north = Seat.objects.get(table=game.table, position="N").member_id
    before = {key: points for key, _rank, points, _g, _m in lines(competition)}
    old_total = game.total_a
    rows = [
        {name: getattr(hand, name) for name in scoring_services.HAND_INPUTS}
        for hand in game.hands.order_by("number")
    ]
    # Hand 1 was written down with wij and zij the wrong way round.
    first = rows[0]
    first["points_a"], first["points_b"] = first["points_b"], first["points_a"]
    first["roem_a"], first["roem_b"] = first["roem_b"], first["roem_a"]
    first["playing"] = "B" if first["playing"] == "A" else "A"
    first["pit"] = {"A": "B", "B": "A"}.get(first["pit"], "")
    rows = [scoring_services.HandInput(**row) for row in rows]
    scoring_services.game_enter_sheet(
        game=game, rows=rows, by=director, reason="wij en zij verwisseld"
    )
    game.refresh_from_db()
    assert game.total_a != old_total
    assert stored_ids() == set(ids)
    after = {key: points for key, _rank, points, _g, _m in lines(competition)}
    # North's season moves by exactly what wij's game total moved.
    assert after[north] - before[north] == game.total_a - old_total
    assert from_store(ids) == live(ids)


def test_a_round_moved_to_another_evening_stores_both_evenings_totals_again(season):
    """As a league match moved to another matchday takes its round along."""
    competition, members, evenings, director = season
    ids = [e.pk for e in evenings]
    lines(competition)
    before = from_store(ids)
    moved = evenings[1].rounds.order_by("-number").first()
    moved.evening = evenings[0]
    moved.number = 3
    moved.save()
    assert stored_ids() == set(ids)
    after = from_store(ids)
    assert after == live(ids)
    for evening_id in ids:  # one evening lost the round's games, the other gained them
        assert {k: v for k, v in after.items() if k[0] == evening_id} != {
            k: v for k, v in before.items() if k[0] == evening_id
        }


def test_the_admin_cannot_delete_a_seat_or_a_table_on_its_own(client, season):
    competition, members, evenings, director = season
    staff = factories.user("beheer", is_staff=True, is_superuser=True)
    client.force_login(staff)
    seat = Seat.objects.filter(round__evening=evenings[1]).first()
    for name, pk in (("seat", seat.pk), ("table", seat.table_id)):
        url = reverse(f"admin:tournaments_{name}_delete", args=[pk])
        assert client.post(url, {"post": "yes"}).status_code == 403
    assert Seat.objects.filter(pk=seat.pk).exists()


def test_the_stored_columns_are_a_tallys_first_fields_in_its_order():
    """``evening_tallies`` makes a Tally from a stored row by position, and
    ``Tally.row`` writes one in the same order."""
    from dataclasses import fields

    names = [f.name for f in fields(standings.Tally)]
    stored = EveningTotals.COLUMNS[1:]
    assert stored == (*EveningTotals.SUMS, "personal", "played")
    assert tuple(names[: len(stored)]) == stored
    tally = standings.Tally(*range(1, len(stored)), True)
    assert tally.row() == (*range(1, len(stored)), 1)
    packed = EveningTotals.pack([(7, *tally.row())])
    assert {name: list(numbers) for name, numbers in EveningTotals.columns(packed).items()} == {
        name: [value] for name, value in zip(EveningTotals.COLUMNS, (7, *tally.row()), strict=True)
    }


def test_the_standings_read_stored_evenings_in_two_queries_whatever_their_number(
    club, play_season, django_assert_num_queries
):
    """Once stored, the evenings come with their tallies in one query, the names in a
    second; a season three times as long costs the same."""
    for evenings in (1, 3):
        competition, *_ = play_season(club, evenings=evenings, players=8, rounds=1, seed=2)
        first = lines(competition)
        with django_assert_num_queries(2):
            again = lines(competition)
        assert again == first
