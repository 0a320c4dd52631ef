"""Verzaken as a hand (service, entry page, JSON, grid, adjustments, statistics) and
the roefel of a match-500 game (service, entry page, grid)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring import services
from scoring.models import Adjustment, Game, Hand
from scoring.results import standings
from scoring.services import SheetErrors
from tests import factories
from tests.scoring.test_director_pages import sheet_url
from tests.scoring.test_offline import Phone
from tests.scoring.test_offline import hand as json_hand
from tests.scoring.test_table_entry import entry_url, hand_data

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(settings):
    """The source strings: pages follow the browser, services the active language."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def boompje(club, director):
    return factories.drawn_round(club, director, players=4)


@pytest.fixture
def match(club, director):
    return factories.drawn_round(club, director, players=4, ruleset_preset="match-500")


# --- The service ---------------------------------------------------------------------------


def test_a_verzaken_hand_counts_in_the_game_total_and_is_not_nat(boompje):
    services.hand_record(game=boompje.game, data=factories.hand_input("A", 100))
    stored = services.hand_record(
        game=boompje.game,
        data=factories.hand_input(verzaakt="A", playing="A", roem_a=20, roem_b=50),
    )
    assert (stored.score_a, stored.score_b, stored.nat, stored.verzaakt) == (0, 332, False, "A")
    game = Game.objects.get(pk=boompje.game.pk)
    assert (game.total_a, game.total_b) == (100, 62 + 332)
    assert (game.verzaken_a, game.verzaken_b, game.nat_a, game.nat_b) == (1, 0, 0, 0)
    assert (game.marsen_a, game.marsen_b) == (0, 0)


def test_the_defenders_verzaken_gives_the_playing_team_the_penalty(boompje):
    stored = services.hand_record(
        game=boompje.game, data=factories.hand_input(verzaakt="B", playing="A")
    )
    assert (stored.points_a, stored.points_b, stored.score_a, stored.score_b) == (162, 0, 262, 0)
    game = Game.objects.get(pk=boompje.game.pk)
    assert (game.verzaken_b, game.nat_a, game.nat_b) == (1, 0, 0)


def test_verzaken_uses_the_competitions_bonus(club, director):
    table = factories.drawn_round(
        club, director, players=4, ruleset_overrides={"verzaken_bonus": 50}
    )
    stored = services.hand_record(game=table.game, data=factories.hand_input(verzaakt="B"))
    assert (stored.score_a, stored.score_b) == (212, 0)


def test_verzaken_with_card_points_that_do_not_follow_is_refused(boompje):
    with pytest.raises(ValidationError) as info:
        services.hand_record(game=boompje.game, data=factories.hand_input("A", 100, verzaakt="B"))
    assert "points_a" in info.value.message_dict
    assert "leave the card points empty" in info.value.message_dict["points_a"][0]
    assert not Hand.objects.exists()


def test_verzaken_with_pit_is_refused(boompje):
    with pytest.raises(ValidationError) as info:
        services.hand_record(game=boompje.game, data=factories.hand_input(verzaakt="B", pit="A"))
    assert info.value.message_dict["pit"] == ["A hand that ends in verzaken has no pit."]


def test_verzaken_decides_a_match_to_500(match):
    game = match.game
    services.hand_record(
        game=game, data=factories.hand_input("B", 62, trump="C")
    )  # the roefel: zij play
    services.hand_record(game=game, data=factories.hand_input("A", 150))
    services.hand_record(game=game, data=factories.hand_input("A", 150))
    game.refresh_from_db()
    assert (game.total_a, game.total_b, game.status) == (362, 124, "open")
    services.hand_record(game=game, data=factories.hand_input(verzaakt="B", roem_a=20))
    game.refresh_from_db()
    assert (game.total_a, game.total_b) == (362 + 282, 124)
    assert (game.status, game.winner, game.verzaken_b) == ("complete", "A", 1)


def test_verzaken_breaks_a_boompje_tie(club, director):
    table = factories.drawn_round(club, director, players=4, hands_per_game=2)
    game = table.game
    services.hand_record(game=game, data=factories.hand_input("A", 100))
    services.hand_record(game=game, data=factories.hand_input("B", 62))
    game.refresh_from_db()
    assert (game.total_a, game.total_b, game.status) == (162, 162, "open")
    services.hand_record(game=game, data=factories.hand_input(verzaakt="A", playing="B"))
    game.refresh_from_db()
    assert (game.total_a, game.total_b, game.status, game.winner) == (162, 424, "complete", "B")


def test_undoing_a_verzaken_hand_takes_its_count_away(boompje):
    services.hand_record(game=boompje.game, data=factories.hand_input(verzaakt="A"))
    services.hand_undo(game=boompje.game)
    game = Game.objects.get(pk=boompje.game.pk)
    assert (game.verzaken_a, game.total_b, game.hands_entered) == (0, 0, 0)


def test_the_database_ties_verzaakt_to_the_stored_points(boompje):
    from django.db import IntegrityError, transaction

    stored = services.hand_record(game=boompje.game, data=factories.hand_input(verzaakt="A"))
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.filter(pk=stored.pk).update(points_a=100, points_b=62)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.filter(pk=stored.pk).update(verzaakt="C")


def test_a_teams_verzaken_adjustment_is_refused_a_players_penalty_stays(boompje, director):
    evening = boompje.table.round.evening
    with pytest.raises(ValidationError) as info:
        services.adjustment_record(
            evening=evening,
            kind="verzaken",
            points=262,
            reason="Oost verzaakt",
            by=director,
            game=boompje.game,
            team="A",
        )
    assert "kind" in info.value.message_dict
    penalty = services.adjustment_record(
        evening=evening,
        kind="verzaken",
        points=-100,
        reason="Oost verzaakt",
        by=director,
        member=boompje.members[0],
    )
    assert Adjustment.objects.get() == penalty


def test_player_statistics_count_verzaken_apart_from_nat(boompje):
    services.hand_record(game=boompje.game, data=factories.hand_input("A", 81))  # nat
    services.hand_record(game=boompje.game, data=factories.hand_input(verzaakt="A"))
    for _ in range(14):
        services.hand_record(game=boompje.game, data=factories.hand_input("A", 100))
    # The statistics count confirmed games.
    services.game_confirm(game=boompje.game, name="Cor")
    north = boompje.table.seats.get(position="N").member
    stats = standings.player_stats(member=north, competition=boompje.season)
    assert (stats.nat, stats.verzaken) == (1, 1)


# --- The roefel through the service --------------------------------------------------------


def test_the_roefel_by_the_wrong_team_is_refused_with_the_reason(match):
    with pytest.raises(ValidationError) as info:
        services.hand_record(game=match.game, data=factories.hand_input("A", 100))
    assert info.value.message_dict["playing"] == [
        "Hand 1 is the roefel: clubs are trumps and the forehand's team (zij) plays."
    ]
    assert not Hand.objects.exists()


def test_the_roefel_with_another_trump_is_refused(match):
    with pytest.raises(ValidationError) as info:
        services.hand_record(game=match.game, data=factories.hand_input("B", 62, trump="H"))
    assert "trump" in info.value.message_dict


def test_the_roefel_without_a_trump_is_stored_with_clubs(match):
    stored = services.hand_record(game=match.game, data=factories.hand_input("B", 62))
    assert (stored.playing, stored.trump) == ("B", "C")
    second = services.hand_record(game=match.game, data=factories.hand_input("A", 100, trump="H"))
    assert (second.playing, second.trump) == ("A", "H")


def test_a_boompje_has_no_roefel(boompje):
    stored = services.hand_record(game=boompje.game, data=factories.hand_input("A", 100, trump="H"))
    assert stored.trump == "H"


def test_the_grid_service_refuses_a_wrong_roefel_row(match, director):
    with pytest.raises(SheetErrors) as info:
        services.game_enter_sheet(
            game=match.game, rows=[factories.hand_input("A", 100)], by=director
        )
    assert "playing" in info.value.rows[1].message_dict
    assert not Hand.objects.exists()


# --- The entry page and its JSON -------------------------------------------------------


def test_the_entry_page_offers_verzaakt_per_team(client, boompje):
    response = client.get(entry_url(boompje.table))
    assert response.status_code == 200
    for value in ("", "A", "B"):
        assert f'name="verzaakt" value="{value}"' in response.text
    assert "wij verzaakt" in response.text and "zij verzaakt" in response.text


def test_a_verzaken_hand_is_entered_at_the_table_without_card_points(client, boompje):
    data = hand_data(boompje.game, playing="A", points_a="", verzaakt="B", roem_b="50")
    response = client.post(entry_url(boompje.table, "table-hand"), data)
    assert response.status_code == 302
    stored = Hand.objects.get()
    assert (stored.points_a, stored.points_b, stored.score_a, stored.score_b) == (162, 0, 312, 0)
    page = client.get(entry_url(boompje.table))
    assert '<span class="verzaakt"' in page.text


def test_the_preview_says_who_verzaakt(client, boompje):
    query = {"playing": "A", "verzaakt": "A", "roem_a": "20"}
    answer = client.get(entry_url(boompje.table, "table-preview"), query).json()
    assert answer["ok"] and (answer["a"], answer["b"], answer["verzaakt"]) == (0, 282, "A")
    assert answer["text"] == "wij verzaakt: wij bank 0, zij bank 282"


def test_the_phone_sends_a_verzaken_hand_as_json(boompje):
    phone = Phone(boompje.table)
    payload = json_hand(points_a=None, points_b=None, verzaakt="A", roem_b=20)
    response = phone.send(payload)
    assert response.status_code == 201
    body = response.json()["hand"]
    assert (body["verzaakt"], body["score_a"], body["score_b"]) == ("A", 0, 282)
    assert body["text"].endswith(", wij verzaakt")


def test_the_trick_checkers_link_opens_the_entry_page_as_verzaakt(client, boompje):
    query = {"verzaakt": "B", "playing": "A", "roem_a": "20", "trump": "S", "hand": "1"}
    response = client.get(entry_url(boompje.table), query)
    form = response.context["hand_form"]
    assert (form.initial["verzaakt"], form.initial["roem_a"], form.initial["trump"]) == (
        "B",
        "20",
        "S",
    )
    assert '<input type="radio" name="verzaakt" value="B" id="id_verzaakt_2" checked>' in (
        response.text
    )


def test_the_entry_page_prefills_and_fixes_the_roefel(client, match):
    response = client.get(entry_url(match.table))
    form = response.context["hand_form"]
    assert (form.initial["playing"], form.initial["trump"]) == ("B", "C")
    text = response.text
    assert "clubs are trumps, the forehand plays (zij)." in text
    assert response.context["entry_config"]["roefel"] == 1
    # The other team and the other suits are shown but cannot be chosen.
    assert text.count("data-roefel-locked") == 1 + 4  # wij; "–", D, H, S
    assert 'name="playing" value="A" id="id_playing_0" required disabled' in text
    assert '<option value="H" disabled data-roefel-locked="">' in text
    assert '<option value="C" selected>' in text


def test_hand_two_of_a_roefel_game_is_free(client, match):
    services.hand_record(game=match.game, data=factories.hand_input("B", 62))
    response = client.get(entry_url(match.table))
    assert "data-roefel-locked" not in response.text
    assert response.context["entry_config"]["roefel"] is None
    assert "roefel" in response.text  # the score sheet marks hand 1


def test_the_roefel_posted_by_the_wrong_team_is_refused_on_the_page(client, match):
    data = hand_data(match.game, playing="A", keeper="A")
    response = client.post(entry_url(match.table, "table-hand"), data)
    assert response.status_code == 422
    assert "Hand 1 is the roefel" in response.text
    assert not Hand.objects.exists()


# --- The director's grid --------------------------------------------------------------------


def grid(rows, *, total_rows=4):
    data = {"rows": str(total_rows), "version": "0", "reason": "", "confirm": "on"}
    names = ("playing", "points_a", "points_b", "roem_a", "roem_b", "pit", "verzaakt")
    for number in range(1, total_rows + 1):
        row = rows[number - 1] if number <= len(rows) else {}
        for name in names:
            data[f"h{number}-{name}"] = str(row.get(name, ""))
    return data


def test_the_grid_records_a_verzaken_row(director_client, boompje):
    # Written as the score sheet writes it: the other team's roem column holds the
    # penalty of 100 plus the roem of the hand (20).
    rows = [{"playing": "A", "points_a": "100"}, {"playing": "B", "verzaakt": "A", "roem_b": "120"}]
    response = director_client.post(sheet_url(boompje.table), grid(rows))
    assert response.status_code == 302
    stored = Hand.objects.get(number=2)
    assert (stored.verzaakt, stored.score_a, stored.score_b) == ("A", 0, 282)
    game = Game.objects.get(pk=boompje.game.pk)
    assert (game.total_a, game.total_b, game.verzaken_a) == (100, 62 + 282, 1)
    page = director_client.get(sheet_url(boompje.table))
    assert page.context["sheet"].forms[1].initial["verzaakt"] == "A"
    assert page.context["sheet"].forms[1].initial["roem_b"] == 120


def test_the_grid_refuses_the_roefel_by_the_wrong_team(director_client, match):
    rows = [{"playing": "A", "points_a": "100"}]
    response = director_client.post(sheet_url(match.table), grid(rows))
    assert response.status_code == 422
    assert "Hand 1 is the roefel: clubs are trumps and the forehand&#x27;s team (zij) plays." in (
        response.text
    )
    assert not Hand.objects.exists()


def test_the_grid_takes_the_roefel_by_the_forehands_team_and_marks_it(director_client, match):
    rows = [{"playing": "B", "points_b": "100"}]
    response = director_client.post(sheet_url(match.table), grid(rows))
    assert response.status_code == 302
    assert Hand.objects.get().trump == "C"
    page = director_client.get(sheet_url(match.table))
    assert 'class="roefel"' in page.text


def test_the_evening_page_no_longer_offers_a_teams_verzaken(director_client, boompje):
    evening = boompje.table.round.evening
    url = reverse(
        "scoring:evening-scores", kwargs={"club": evening.competition.club.slug, "pk": evening.pk}
    )
    form = director_client.get(url).context["form"]
    assert "A team's verzaken is entered as the hand" in str(form.fields["points"].help_text)


def test_the_audit_log_says_which_team_verzaakt(boompje):
    from scoring.models import AuditEntry
    from scoring.tables import describe_hand

    services.hand_record(game=boompje.game, data=factories.hand_input(verzaakt="B", roem_a=20))
    entry = AuditEntry.objects.get(action="create")
    assert entry.after["verzaakt"] == "B"
    assert describe_hand(entry.after).endswith(", zij verzaakt")


def test_the_preview_of_hand_one_says_it_is_the_roefel(client, match):
    query = {"playing": "A", "points_a": "100", "number": "1"}
    answer = client.get(entry_url(match.table, "table-preview"), query).json()
    assert not answer["ok"]
    assert answer["errors"]["playing"][0]["code"] == "roefel_playing"
    query = {"playing": "B", "points_a": "62", "number": "1"}
    assert client.get(entry_url(match.table, "table-preview"), query).json()["ok"]
