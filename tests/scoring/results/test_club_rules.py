"""Real clubs' rules (Issue 19), configured on the competition page, played as a small
season with a fixed draw, and checked against numbers worked out by hand.

Every game is one hand (``hands_per_game`` 1), so a table's totals are the hand's:
team A (N/S) plays and banks its card points, team B the rest. The draw is fixed:
``seat`` makes ``round_draw`` seat the given tables, so each player's evening is a
sum a secretary can redo.

The evening used by most tests (9 players, 2 rounds, X called in absent):

    round 1  table 1 N A, E B, S C, W D: A plays 100 - 62   A, C 100  B, D 62
             table 2 N E, E F, S G, W H: A plays 150 - 12   E, G 150  F, H 12
             I sits out (81); H leaves after round 1
    round 2  table 1 A B C D: A plays 90 - 72               A, C  90  B, D 72
             table 2 E F G I: A plays 120 - 42              E, G 120  F, I 42

    E, G 270   A, C 190   B, D 134   I 123 (81 + 42)   F 54   H 12 (left early)

The lowest score of a whole evening is F's 54, not H's 12.
"""

import datetime
import html
import io

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring.exports import pdf, reports
from scoring.results import standings
from tests import factories
from tournaments import draw, services
from tournaments.models import Competition

pytestmark = pytest.mark.django_db

NAMES = "ABCDEFGHIX"


@pytest.fixture
def players(club):
    return factories.named_members(club, NAMES)


def configure(director_client, club, **settings):
    """A new competition made on the competition page, as a wedstrijdleider would."""
    page = director_client.get(
        reverse("tournaments:competition-create", kwargs={"club": club.slug})
    )
    data = {}
    for field in page.context["form"]:
        value = field.value()
        if field.field.disabled or value is None or value is False:
            continue
        data[field.html_name] = value
    data.update(
        name="Wintercompetitie",
        start_date="2026-09-01",
        end_date="2027-05-31",
        rounds_per_evening=2,
        hands_per_game=1,
        sitout_score=81,
    )
    for name, value in settings.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = "on" if value is True else value
    response = director_client.post(
        reverse("tournaments:competition-create", kwargs={"club": club.slug}), data
    )
    assert response.status_code == 302, response.context["form"].errors
    return Competition.objects.get(club=club, name="Wintercompetitie")


def seat(monkeypatch, players, rounds):
    """Make the draw seat ``rounds``: per round (["ABCD", "EFGH"], "I") in N E S W order."""
    plan = iter(rounds)

    def fixed(present, **_kwargs):
        tables, sitouts = next(plan)
        return draw.RoundDraw(
            tables=tuple(
                draw.TableDraw(number=n, seats=tuple(players[p].pk for p in names))
                for n, names in enumerate(tables, start=1)
            ),
            sitouts=tuple(players[p].pk for p in sitouts),
        )

    monkeypatch.setattr(draw, "individual_draw", fixed)


def play_round(evening, director, hands):
    """Draw the next round and enter one hand per table: (points of team A, roem A, roem B)."""
    round_ = services.round_draw(evening=evening, by=director)
    rows = []
    for hand in hands:
        points_a, roem_a, roem_b = (*hand, 0, 0)[:3] if isinstance(hand, tuple) else (hand, 0, 0)
        rows.append(factories.hand_input("A", points_a, roem_a=roem_a, roem_b=roem_b))
    return factories.round_played(round_, rows, by=director)


def the_evening(monkeypatch, competition, players, director, *, date=None, counts=True):
    """The evening of the module docstring, closed."""
    evening = services.evening_create(
        competition=competition,
        date=date or datetime.date(2026, 10, 6),
        by=director,
        counts_for_ranking=counts,
    )
    check_in(evening, players, "ABCDEFGHI", director)
    services.attendance_set(evening=evening, member=players["X"], status="excused", by=director)
    seat(monkeypatch, players, [(["ABCD", "EFGH"], "I"), (["ABCD", "EFGI"], "")])
    play_round(evening, director, [100, 150])
    services.attendance_set(evening=evening, member=players["H"], status="left", by=director)
    play_round(evening, director, [90, 120])
    return services.evening_set_status(evening=evening, status="finished", by=director)


def check_in(evening, players, names, director, status="present"):
    for name in names:
        services.attendance_set(evening=evening, member=players[name], status=status, by=director)


def new_evening(competition, director, date, **options):
    return services.evening_create(competition=competition, date=date, by=director, **options)


def by_name(result, players):
    names = {member.pk: name for name, member in players.items()}
    return {names[line.key]: line for line in result.lines}


EVENING = {"E": 270, "G": 270, "A": 190, "C": 190, "B": 134, "D": 134, "I": 123, "F": 54, "H": 12}


def test_the_lowest_score_for_an_absentee_is_the_lowest_of_a_whole_evening(
    monkeypatch, director_client, club, players, director
):
    competition = configure(director_client, club, absence_policy="lowest")
    evening = the_evening(monkeypatch, competition, players, director)

    result = by_name(standings.evening_result(evening=evening), players)
    assert {name: line.points for name, line in result.items() if name != "X"} == EVENING
    # H left after one round with 12: F's 54 is the lowest of those who played it all.
    assert (result["X"].points, result["X"].games, result["X"].rank) == (54, 2, None)
    season = by_name(standings.season_standings(competition=competition), players)
    assert season["X"].points == 54
    assert season["X"].evenings == 0  # an absence score is not attendance


def test_a_fixed_absence_score_never_takes_a_place_or_a_prize_on_the_evening(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, absence_policy="fixed", absence_score=500, absence_unit="evening"
    )
    evening = the_evening(monkeypatch, competition, players, director)

    result = standings.evening_result(evening=evening)
    lines = by_name(result, players)
    # 500 for the evening, whatever the number of rounds: more than anyone played,
    # yet below the line, without a prize, while the season counts it.
    assert (lines["X"].points, lines["X"].rank) == (500, None)
    assert [name for name, line in lines.items() if line.rank == 1] == ["E", "G"]
    keys = {member.pk: name for name, member in players.items()}
    assert {keys[k] for k in result.winners} == {"E", "G"}
    # Not H, who left after round 1 with 12: F, the lowest of a whole evening.
    assert {keys[k] for k in result.poedel} == {"F"}
    season = by_name(standings.season_standings(competition=competition), players)
    assert season["X"].points == 500
    assert season["X"].rank == 1  # it counts for the season (no minimum attendance)


def test_a_fixed_absence_score_per_round_counts_each_round(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client, club, absence_policy="fixed", absence_score=30, absence_unit="round"
    )
    evening = the_evening(monkeypatch, competition, players, director)
    assert by_name(standings.evening_result(evening=evening), players)["X"].points == 60


@pytest.mark.parametrize(
    ("rule", "places", "prizes", "poedel"),
    [
        # The poedelprijs: the lowest of those who played both rounds, F's 54 (H left
        # after round 1 with 12 and takes none).
        ("winner", "", {"E", "G"}, "F"),
        # The first 3: E and G share place 1, A and C share place 3 (3 and 4).
        ("first_n", "3", {"E", "G", "A", "C"}, "F"),
        # 9 players: 2 prizes, both to E and G.
        ("per_four", "", {"E", "G"}, "F"),
        # Places 1-4 and 8: F is 8th and wins a prize, so the poedelprijs goes to the
        # lowest without one: I's 123 (B and D have 134).
        ("formule_van_4", "", {"E", "G", "A", "C", "F"}, "I"),
    ],
)
def test_evening_prizes_follow_the_prize_rule(
    monkeypatch, director_client, club, players, director, rule, places, prizes, poedel
):
    competition = configure(
        director_client, club, absence_policy="lowest", prize_rule=rule, prize_places=places
    )
    evening = the_evening(monkeypatch, competition, players, director)
    result = standings.evening_result(evening=evening)
    keys = {member.pk: name for name, member in players.items()}
    assert {keys[k] for k in result.prizes} == prizes
    assert {keys[k] for k in result.poedel} == {poedel}

    page = director_client.get(
        reverse("results:evening", kwargs={"club": club.slug, "pk": evening.pk})
    )
    html = page.content.decode()
    assert html.count("badge prize") == len(prizes) + 1  # with the poedelprijs
    report = reports.evening_report(evening=evening)
    prize_of = {row["name"]: row["prize"] for row in report.rows}
    assert {name[-1] for name, prize in prize_of.items() if prize} == prizes | {poedel}
    text = "".join(
        page.extract_text() for page in PdfReader(io.BytesIO(pdf.report_pdf(report))).pages
    )
    # The rows' prizes, and the prize rule in words above the table.
    in_notes = sum(note.count("poedelprijs") for note in report.notes)
    assert text.count("poedelprijs") == in_notes + 1
    assert ("formule van 4" in text) == (rule == "formule_van_4")


def test_a_provisional_evening_names_no_prizes(
    monkeypatch, director_client, club, players, director
):
    competition = configure(director_client, club, prize_rule="formule_van_4")
    evening = services.evening_create(
        competition=competition, date=datetime.date(2026, 10, 6), by=director
    )
    check_in(evening, players, "ABCDEFGHI", director)
    seat(monkeypatch, players, [(["ABCD", "EFGH"], "I")])
    play_round(evening, director, [100, 150])
    result = standings.evening_result(evening=evening)
    assert not result.final
    assert result.prizes == set() and result.poedel == set()


def test_a_late_arrival_scores_the_late_score_for_each_round_missed(
    monkeypatch, director_client, club, players, director
):
    competition = configure(director_client, club, late_score=50, absence_policy="lowest")
    evening = services.evening_create(
        competition=competition, date=datetime.date(2026, 10, 6), by=director
    )
    check_in(evening, players, "ABCDEFGH", director)
    # Announced before check-in: I comes late, and is not drawn while late.
    services.attendance_set(evening=evening, member=players["I"], status="late", by=director)
    services.attendance_set(evening=evening, member=players["X"], status="excused", by=director)
    seat(monkeypatch, players, [(["ABCD", "EFGH"], ""), (["ABCD", "EFGI"], "H")])
    play_round(evening, director, [100, 150])
    services.attendance_set(evening=evening, member=players["I"], status="present", by=director)
    play_round(evening, director, [90, 120])
    evening = services.evening_set_status(evening=evening, status="finished", by=director)

    lines = by_name(standings.evening_result(evening=evening), players)
    # I: 50 for round 1 (missed) + 42; H: 12 + 81 sitting out round 2.
    assert (lines["I"].points, lines["I"].games) == (92, 2)
    assert lines["H"].points == 93
    # The lowest of the whole evening: F (12 + 42 = 54); I came late and does not set it.
    assert lines["X"].points == 54
    result = standings.evening_result(evening=evening)
    assert result.rounds[players["I"].pk] == {1: 50, 2: 42}


def test_a_sit_out_can_count_as_a_mars(monkeypatch, director_client, club, players, director):
    competition = configure(
        director_client, club, sitout_score=181, sitout_mars=True, side_rankings=["marsen"]
    )
    the_evening(monkeypatch, competition, players, director)
    season = standings.season_standings(competition=competition)
    lines = by_name(season, players)
    assert (lines["I"].points, lines["I"].marsen) == (181 + 42, 1)
    assert sum(line.marsen for line in season.lines) == 1
    ((key, marsen),) = standings.side_standings(competition=competition)
    assert key == "marsen"
    first = [line for line in marsen.lines if line.rank == 1]
    assert [line.key for line in first] == [players["I"].pk]


def test_the_puntenkampioen_counts_every_evening_beside_best_n(
    monkeypatch, director_client, club, players, director
):
    competition = configure(director_client, club, best_of=1, side_rankings=["points", "marsen"])
    the_evening(monkeypatch, competition, players, director)
    # A second evening where A and C win big: A plays 160 - 2 twice.
    evening = services.evening_create(
        competition=competition, date=datetime.date(2026, 10, 13), by=director
    )
    check_in(evening, players, "ABCDEFGH", director)
    seat(monkeypatch, players, [(["ABCD", "EFGH"], ""), (["ABCD", "EFGH"], "")])
    play_round(evening, director, [160, 100])
    play_round(evening, director, [160, 100])
    services.evening_set_status(evening=evening, status="finished", by=director)

    main = by_name(standings.season_standings(competition=competition), players)
    # Best 1 evening: A 320 (evening 2) against E 270 (evening 1, better than 200).
    assert (main["A"].points, main["A"].rank) == (320, 1)
    assert main["E"].points == 270
    sides = dict(standings.side_standings(competition=competition))
    points = by_name(sides["points"], players)
    # Every evening: E 270 + 200 = 470, A 190 + 320 = 510.
    assert (points["A"].points, points["E"].points) == (510, 470)
    assert points["A"].rank == 1

    page = director_client.get(
        reverse("results:standings", kwargs={"club": club.slug, "pk": competition.pk})
    )
    html = page.content.decode()
    assert 'id="ranking-points"' in html and 'id="ranking-marsen"' in html
    assert "510" in html


def test_the_player_page_says_what_its_totals_count(
    monkeypatch, director_client, club, players, director
):
    competition = configure(director_client, club)
    the_evening(monkeypatch, competition, players, director)
    # An opening night that does not count: A and C make 160 twice.
    evening = new_evening(
        competition, director, datetime.date(2026, 9, 29), counts_for_ranking=False
    )
    check_in(evening, players, "ABCDEFGH", director)
    seat(monkeypatch, players, [(["ABCD", "EFGH"], ""), (["ABCD", "EFGH"], "")])
    play_round(evening, director, [160, 100])
    play_round(evening, director, [160, 100])
    services.evening_set_status(evening=evening, status="finished", by=director)

    stats = standings.player_stats(member=players["A"], competition=competition)
    assert stats.points == 190 + 320  # every evening played
    assert stats.standing.points == 190  # what the standings count
    assert [e.counts for e in stats.evenings] == ["not_counted", "counted"]
    main = by_name(standings.season_standings(competition=competition), players)
    assert main["A"].points == stats.standing.points

    page = director_client.get(
        reverse("results:player", kwargs={"club": club.slug, "pk": players["A"].pk})
        + f"?competition={competition.pk}"
    )
    html = page.content.decode()
    assert "510" in html and "190" in html


def test_roem_goes_to_the_team_that_banked_it(
    monkeypatch, director_client, club, players, director
):
    # Rotterdam: the playing team's roem goes to the defenders when it is nat.
    competition = configure(director_client, club)
    evening = services.evening_create(
        competition=competition, date=datetime.date(2026, 10, 6), by=director
    )
    check_in(evening, players, "ABCD", director)
    seat(monkeypatch, players, [(["ABCD"], ""), (["ABCD"], "")])
    # Round 1: A plays 60 + 20 roem against 102: nat, the defenders bank 162 + 20.
    play_round(evening, director, [(60, 20, 0)])
    # Round 2: A plays 100 + 50 roem against 62 + 20 roem: made, each its own.
    play_round(evening, director, [(100, 50, 20)])
    services.evening_set_status(evening=evening, status="finished", by=director)
    lines = by_name(standings.season_standings(competition=competition), players)
    assert (lines["A"].points, lines["A"].roem) == (0 + 150, 50)
    assert (lines["B"].points, lines["B"].roem) == (182 + 82, 40)


def test_the_rules_are_stated_above_the_standings_and_the_evening(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client,
        club,
        absence_policy="fixed",
        absence_score=500,
        absence_unit="evening",
        late_score=50,
        sitout_mars=True,
        prize_rule="formule_van_4",
        side_rankings=["points"],
    )
    evening = the_evening(monkeypatch, competition, players, director)
    # In English, the language the sentences below are written in.
    standings_page = director_client.get(
        reverse("results:standings", kwargs={"club": club.slug, "pk": competition.pk}),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    evening_page = director_client.get(
        reverse("results:evening", kwargs={"club": club.slug, "pk": evening.pk}),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    for sentence in (
        "Players who called in get 500 for the evening.",
        "A player who arrives late scores 50 for each round missed.",
        "Sitting out a round scores 81 and counts as a mars.",
        "formule van 4",
        "never takes a place, a prize",
    ):
        assert sentence in evening_page
        assert sentence in standings_page
    assert "puntenkampioen" in standings_page


def test_a_first_n_rule_needs_its_number(director_client, club):
    page = director_client.get(
        reverse("tournaments:competition-create", kwargs={"club": club.slug})
    )
    assert "prize_rule" in page.context["form"].fields
    with pytest.raises(AssertionError):
        configure(director_client, club, prize_rule="first_n", prize_places="")
    assert not Competition.objects.filter(club=club).exists()


def two_evenings(monkeypatch, competition, players, director):
    """The evening of the module docstring (I sits out round 1), then a second one
    without I where A and C win big:

        evening 1  E, G 270   A, C 190   B, D 134   I 123   F 54   H 12
        evening 2  A, C 320 (160 twice)   E, G 200   F, H 124   B, D 4
    """
    the_evening(monkeypatch, competition, players, director)
    evening = new_evening(competition, director, datetime.date(2026, 10, 13))
    check_in(evening, players, "ABCDEFGH", director)
    seat(monkeypatch, players, [(["ABCD", "EFGH"], ""), (["ABCD", "EFGH"], "")])
    play_round(evening, director, [160, 100])
    play_round(evening, director, [160, 100])
    services.evening_set_status(evening=evening, status="finished", by=director)


def test_each_side_ranking_has_its_own_best_n_and_minimum(
    monkeypatch, director_client, club, players, director
):
    competition = configure(
        director_client,
        club,
        sitout_mars=True,
        side_rankings=["points", "marsen"],
        points_best_of=1,
        points_min_attendance=2,
        marsen_min_attendance=2,
    )
    assert competition.side_rankings == [
        {"kind": "points", "best_of": 1, "min_attendance": 2},
        {"kind": "marsen", "best_of": None, "min_attendance": 2},
    ]
    two_evenings(monkeypatch, competition, players, director)

    # The main standings: every evening, no minimum (the competition's own definition).
    main = by_name(standings.season_standings(competition=competition), players)
    assert (main["A"].points, main["E"].points, main["I"].points) == (510, 470, 123)
    assert main["I"].rank is not None

    sides = dict(standings.side_standings(competition=competition))
    points = by_name(sides["points"], players)
    # Best 1 evening each: A, C 320 (evening 2), E, G 270 (evening 1, not 200),
    # B, D 134, F and H 124 (evening 2: H's 12 is dropped); I played once: below the line.
    assert {name: line.points for name, line in points.items()} == {
        "A": 320,
        "C": 320,
        "E": 270,
        "G": 270,
        "B": 134,
        "D": 134,
        "F": 124,
        "H": 124,
        "I": 123,
    }
    assert {name: line.rank for name, line in points.items()} == {
        "A": 1,
        "C": 1,
        "E": 3,
        "G": 3,
        "B": 5,
        "D": 5,
        "F": 7,
        "H": 7,
        "I": None,
    }
    marsen = by_name(sides["marsen"], players)
    # I's sit-out is the season's only mars, but I played one evening of the two needed.
    assert (marsen["I"].marsen, marsen["I"].rank) == (1, None)
    assert {line.rank for name, line in marsen.items() if name != "I"} == {1}

    page = director_client.get(
        reverse("results:standings", kwargs={"club": club.slug, "pk": competition.pk}),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    text = html.unescape(page.content.decode())
    assert 'id="ranking-points"' in text and 'id="ranking-marsen"' in text
    for sentence in (
        "Also ranked: the puntenkampioen: most total points (each player's best evening; "
        "ranked from 2 evenings played, others below the line).",
        "Also ranked: the most marsen (all counting evenings; ranked from 2 evenings "
        "played, others below the line).",
    ):
        assert sentence in text
        assert sentence in html.unescape(
            director_client.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").text
        )
    with translation.override("en"):
        report = reports.standings_report(competition=competition)
    assert any("each player's best evening" in note for note in report.notes)


def test_the_settings_page_changes_a_side_ranking_and_keeps_it(director_client, club):
    competition = configure(
        director_client, club, side_rankings=["points"], points_best_of=6, points_min_attendance=4
    )
    url = reverse("tournaments:competition-edit", kwargs={"club": club.slug, "pk": competition.pk})
    form = director_client.get(url).context["form"]
    assert form["side_rankings"].value() == ["points"]
    assert (form["points_best_of"].value(), form["points_min_attendance"].value()) == (6, 4)
    data = {
        field.html_name: field.value()
        for field in form
        if not field.field.disabled and field.value() is not None and field.value() is not False
    }
    # Every evening counts now (the field emptied); the minimum stays.
    data["points_best_of"] = ""
    response = director_client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    competition.refresh_from_db()
    assert competition.side_rankings == [{"kind": "points", "best_of": None, "min_attendance": 4}]
    # A post without the numbers (not from this form) keeps the competition's.
    data.pop("points_min_attendance")
    data["points_best_of"] = 5
    assert director_client.post(url, data).status_code == 302
    competition.refresh_from_db()
    assert competition.side_rankings == [{"kind": "points", "best_of": 5, "min_attendance": 4}]
    # Untick it: it is gone, with its numbers.
    data.pop("side_rankings")
    assert director_client.post(url, data).status_code == 302
    competition.refresh_from_db()
    assert competition.side_rankings == []


@pytest.mark.parametrize(
    "bad", [{"points_best_of": 0}, {"points_min_attendance": -1}, {"marsen_best_of": "two"}]
)
def test_the_settings_page_refuses_a_bad_side_ranking(director_client, club, bad):
    with pytest.raises(AssertionError):
        configure(director_client, club, side_rankings=["points", "marsen"], **bad)
    assert not Competition.objects.filter(club=club).exists()
