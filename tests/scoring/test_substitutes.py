"""Substitutes (invallers, Issue 19): a member plays the empty seat of a table of
three; where the club allows it ("invallers mogen hun laagste eigen partij
wegstrepen") that game replaces the substitute's lowest own game of the evening.

Eight players, two rounds of one hand, a table of three each round:

    round 1  table 1 A B C D: A plays 100 - 62        A, C 100  B, D 62
             table 2 E F G -: B plays, pit 262 (mars)  E, G 0    F 262, H as substitute 262
    round 2  table 1 A B C H: A plays 90 - 72         A, C 90   B, H 72
             table 2 D E F -: A plays 110 - 52        D, F 110  E 52, G as substitute 52

    without wegstrepen  F 372  A, C 190  D 172  B 134  H 72  E 52  G 0
    with wegstrepen     H 262 (his 72 struck for the 262 and its mars), G 52 (his 0 struck)
"""

import datetime
import io

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring.exports import pdf, reports
from scoring.results import standings
from tests import factories
from tests.scoring.results.test_club_rules import by_name, check_in, configure
from tournaments import draw, services
from tournaments.models import EveningLog, Seat

pytestmark = pytest.mark.django_db

NAMES = "ABCDEFGH"


@pytest.fixture(autouse=True)
def in_english(settings):
    """These tests read the pages' and the log's sentences in English."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def players(club):
    return factories.named_members(club, NAMES)


def seat(monkeypatch, players, rounds):
    """The draw seats ``rounds``: per round a list of tables in N E S W order, "-" empty."""
    plan = iter(rounds)

    def fixed(present, **_kwargs):
        return draw.RoundDraw(
            tables=tuple(
                draw.TableDraw(
                    number=n, seats=tuple(None if p == "-" else players[p].pk for p in names)
                )
                for n, names in enumerate(next(plan), start=1)
            ),
            sitouts=(),
        )

    monkeypatch.setattr(draw, "individual_draw", fixed)


def play(round_, director, hands):
    """One hand per table, each (points of team A, pit): a pit is the playing team's
    (a mars; the defenders' pit is a tegenpit)."""
    rows = [factories.hand_input(pit or "A", points_a, pit=pit) for points_a, pit in hands]
    factories.round_played(round_, rows, by=director)


def empty_seat(round_):
    return Seat.objects.get(round=round_, member__isnull=True, table__isnull=False)


def first_round(monkeypatch, competition, players, director):
    """An evening with everyone present and round 1 drawn: ABCD and EFG with an empty seat."""
    evening = services.evening_create(
        competition=competition, date=datetime.date(2026, 10, 6), by=director
    )
    check_in(evening, players, NAMES, director)
    seat(monkeypatch, players, [["ABCD", "EFG-"]])
    return services.round_draw(evening=evening, by=director)


def the_evening(monkeypatch, competition, players, director):
    evening = services.evening_create(
        competition=competition, date=datetime.date(2026, 10, 6), by=director
    )
    check_in(evening, players, NAMES, director)
    seat(monkeypatch, players, [["ABCD", "EFG-"], ["ABCH", "DEF-"]])
    first = services.round_draw(evening=evening, by=director)
    services.seat_substitute_set(seat=empty_seat(first), member=players["H"], by=director)
    play(first, director, [(100, ""), (0, "B")])
    second = services.round_draw(evening=evening, by=director)
    services.seat_substitute_set(seat=empty_seat(second), member=players["G"], by=director)
    play(second, director, [(90, ""), (110, "")])
    return services.evening_set_status(evening=evening, status="finished", by=director)


WITHOUT = {"F": 372, "A": 190, "C": 190, "D": 172, "B": 134, "H": 72, "E": 52, "G": 0}
WITH = {**WITHOUT, "H": 262, "G": 52}


def test_by_default_a_substitutes_game_does_not_count_for_the_substitute(
    monkeypatch, director_client, club, players, director
):
    competition = configure(director_client, club, odd_players="substitute")
    assert competition.substitute_strikes_lowest is False
    evening = the_evening(monkeypatch, competition, players, director)

    result = by_name(standings.evening_result(evening=evening), players)
    assert {name: line.points for name, line in result.items()} == WITHOUT
    assert result["H"].marsen == 0 and result["F"].marsen == 1
    season = by_name(standings.season_standings(competition=competition), players)
    assert {name: line.points for name, line in season.items()} == WITHOUT


def test_wegstrepen_replaces_the_substitutes_lowest_own_game_marsen_included(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, odd_players="substitute", substitute_strikes_lowest=True
    )
    evening = the_evening(monkeypatch, competition, players, director)

    result = standings.evening_result(evening=evening)
    lines = by_name(result, players)
    assert {name: line.points for name, line in lines.items()} == WITH
    assert (lines["H"].marsen, lines["H"].rank) == (1, 2)
    assert result.rounds[players["H"].pk] == {2: 262}  # round 2's 72 struck
    assert result.struck[(evening.pk, players["H"].pk)] == [(2, 1)]
    assert result.struck[(evening.pk, players["G"].pk)] == [(1, 2)]
    season = by_name(standings.season_standings(competition=competition), players)
    assert {name: line.points for name, line in season.items()} == WITH
    assert season["H"].marsen == 1
    mine = standings.player_stats(member=players["H"], competition=competition)
    assert (mine.points, mine.marsen, mine.evenings[0].points) == (262, 1, 262)


def test_a_substitute_game_that_scored_less_strikes_nothing(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, odd_players="substitute", substitute_strikes_lowest=True
    )
    evening = services.evening_create(
        competition=competition, date=datetime.date(2026, 10, 6), by=director
    )
    check_in(evening, players, NAMES, director)
    seat(monkeypatch, players, [["ABCD", "EFG-"], ["ABCH", "DEF-"]])
    first = services.round_draw(evening=evening, by=director)
    services.seat_substitute_set(seat=empty_seat(first), member=players["H"], by=director)
    play(first, director, [(100, ""), (150, "")])  # H's substitute game: 12
    second = services.round_draw(evening=evening, by=director)
    play(second, director, [(90, ""), (110, "")])  # H's own: 72
    evening = services.evening_set_status(evening=evening, status="finished", by=director)

    result = standings.evening_result(evening=evening)
    assert by_name(result, players)["H"].points == 72
    assert result.struck == {}


def test_the_substitute_is_chosen_from_the_clubs_members_and_logged(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, odd_players="substitute", substitute_strikes_lowest=True
    )
    round_ = first_round(monkeypatch, competition, players, director)
    evening = round_.evening
    empty = empty_seat(round_)

    stranger = factories.member(factories.club(slug="elders"), "Niet Van Ons")
    for refused in (stranger, None, players["A"]):  # another club's, nobody, seated already
        with pytest.raises(ValidationError):
            services.seat_substitute_set(seat=empty, member=refused, by=director)
    with pytest.raises(ValidationError):  # a drawn player's seat takes no substitute
        services.seat_substitute_set(
            seat=Seat.objects.get(round=round_, member=players["B"]),
            member=players["H"],
            by=director,
        )
    empty.refresh_from_db()
    assert empty.substitute_member is None

    services.seat_substitute_set(seat=empty, member=players["H"], by=director)
    empty.refresh_from_db()
    assert (empty.substitute_member, empty.player_name) == (players["H"], "Speler H")
    entry = EveningLog.objects.filter(evening=evening).first()
    assert "Round 1, table 2: Speler H plays as substitute." in entry.summary
    assert "lowest own game" in entry.summary


def test_the_substitute_rule_is_stated_above_the_standings_and_the_evening(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, odd_players="substitute", substitute_strikes_lowest=True
    )
    evening = the_evening(monkeypatch, competition, players, director)
    for name, kwargs in (
        ("results:standings", {"pk": competition.pk}),
        ("results:evening", {"pk": evening.pk}),
    ):
        page = director_client.get(reverse(name, kwargs={"club": club.slug, **kwargs})).content
        assert b"lowest own game of the evening (marsen included)" in page
        sentence = b"Speler H: the game as substitute in round 1 replaces their own game of round 2"
        assert (sentence in page) == (name == "results:evening")
    report = pdf.report_pdf(reports.evening_report(evening=evening))
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(report)).pages)
    assert "replaces their own game of round 2" in " ".join(text.split())
    competition.substitute_strikes_lowest = False
    assert competition.describe_substitutes() == (
        "A substitute's game does not count for the substitute."
    )


def test_the_round_page_offers_the_undrawn_members_as_substitute(
    monkeypatch, director_client, club, players, director
):
    competition = configure(director_client, club, odd_players="substitute")
    round_ = first_round(monkeypatch, competition, players, director)
    empty = empty_seat(round_)
    page = director_client.get(round_.get_absolute_url())
    assert [m.name for m in page.context["substitute_candidates"]] == ["Speler H"]
    assert "does not count for the substitute" in page.content.decode()

    url = reverse("tournaments:seat-substitute", kwargs={"club": club.slug, "pk": round_.pk})
    stranger = factories.member(factories.club(slug="elders"), "Niet Van Ons")
    response = director_client.post(url, {"seat": empty.pk, "member": stranger.pk}, follow=True)
    assert "Choose the substitute from the club&#x27;s members." in response.content.decode()
    empty.refresh_from_db()
    assert empty.substitute_member is None

    director_client.post(url, {"seat": empty.pk, "member": players["H"].pk})
    empty.refresh_from_db()
    assert empty.substitute_member == players["H"]
    assert "Speler H" in director_client.get(round_.get_absolute_url()).content.decode()


def play_hands(round_, director, rows):
    """One hand per table, each (playing, points_a, pit, roem_b)."""
    rows = [
        factories.hand_input(playing, points_a, pit=pit, roem_b=roem_b)
        for playing, points_a, pit, roem_b in rows
    ]
    factories.round_played(round_, rows, by=director)


def evening_of(monkeypatch, competition, players, director, first_hands, second_hands):
    """The evening of the module's plan (H substitutes in round 1 on zij with F,
    G in round 2), with the given hands."""
    evening = services.evening_create(
        competition=competition, date=datetime.date(2026, 10, 6), by=director
    )
    check_in(evening, players, NAMES, director)
    seat(monkeypatch, players, [["ABCD", "EFG-"], ["ABCH", "DEF-"]])
    first = services.round_draw(evening=evening, by=director)
    services.seat_substitute_set(seat=empty_seat(first), member=players["H"], by=director)
    play_hands(first, director, first_hands)
    second = services.round_draw(evening=evening, by=director)
    services.seat_substitute_set(seat=empty_seat(second), member=players["G"], by=director)
    play_hands(second, director, second_hands)
    return services.evening_set_status(evening=evening, status="finished", by=director)


def test_wegstrepen_moves_the_tegenpit_of_the_substitute_game_in(
    monkeypatch, director_client, club, players, director
):
    """Round 1, table 2: wij (E, G) play and zij (F, H) take every trick: 162 + 100
    = 262 and a tegenpit for F and H, no mars. H's own game (round 2, zij): 72.
    Struck: H 262 with 1 tegenpit and 0 marsen; G's 0 struck for his 52."""
    competition = configure(
        director_client, club, odd_players="substitute", substitute_strikes_lowest=True
    )
    evening = evening_of(
        monkeypatch,
        competition,
        players,
        director,
        [("A", 100, "", 0), ("A", 0, "B", 0)],
        [("A", 90, "", 0), ("A", 110, "", 0)],
    )
    result = standings.evening_result(evening=evening)
    assert result.struck[(evening.pk, players["H"].pk)] == [(2, 1)]
    h = standings.player_stats(member=players["H"], competition=competition)
    assert (h.points, h.marsen, h.tegenpit) == (262, 0, 1)
    f = standings.player_stats(member=players["F"], competition=competition)
    assert (f.points, f.marsen, f.tegenpit) == (262 + 110, 0, 1)
    g = standings.player_stats(member=players["G"], competition=competition)
    assert (g.points, g.marsen, g.tegenpit) == (52, 0, 0)


def test_wegstrepen_takes_the_tegenpit_of_the_struck_game_out(
    monkeypatch, director_client, club, players, director
):
    """H's own game (round 2, table 1, zij with B): wij play and zij take every
    trick, 262 and a tegenpit. H's substitute game (round 1, table 2, zij with F):
    zij play and take every trick with 100 roem, 162 + 100 + 100 = 362 and a mars.
    Struck: H 362 with 1 mars and no tegenpit (the struck game's goes with it)."""
    competition = configure(
        director_client, club, odd_players="substitute", substitute_strikes_lowest=True
    )
    evening = evening_of(
        monkeypatch,
        competition,
        players,
        director,
        [("A", 100, "", 0), ("B", 0, "B", 100)],
        [("A", 0, "B", 0), ("A", 110, "", 0)],
    )
    result = standings.evening_result(evening=evening)
    assert result.struck[(evening.pk, players["H"].pk)] == [(2, 1)]
    assert by_name(result, players)["H"].points == 362
    h = standings.player_stats(member=players["H"], competition=competition)
    assert (h.points, h.marsen, h.tegenpit) == (362, 1, 0)
    b = standings.player_stats(member=players["B"], competition=competition)
    assert (b.points, b.marsen, b.tegenpit) == (62 + 262, 0, 1)
