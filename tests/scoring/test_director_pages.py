"""The director's pages: paper sheets, the evening overview, adjustments, the audit log,
and who may open which score page."""

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from scoring import services
from scoring.messages import MARK_LEGENDS
from scoring.models import Adjustment, AuditEntry, Game, Hand
from scoring.rules.sheet import MarkStyle
from tests import factories
from tests.scoring.test_table_entry import hand_data, names_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def scorer(club):
    return factories.role(club, "scorer")


def sheet_url(table):
    club = table.round.evening.competition.club
    return reverse("scoring:game-sheet", kwargs={"club": club.slug, "pk": table.pk})


def overview_url(evening, name="evening-scores"):
    return reverse(
        f"scoring:{name}", kwargs={"club": evening.competition.club.slug, "pk": evening.pk}
    )


def sheet_data(rows, *, total_rows=17, version=0, reason="", confirm=True):
    """POST data of the grid: ``rows`` are dicts of a row's fields (strings)."""
    data = {"rows": str(total_rows), "version": str(version), "reason": reason}
    if confirm:
        data["confirm"] = "on"
    for number in range(1, total_rows + 1):
        row = rows[number - 1] if number <= len(rows) else {}
        for name in (
            "playing",
            "points_a",
            "points_b",
            "roem_a",
            "roem_b",
            "pit",
            "mark_a",
            "mark_b",
            "verzaakt",
        ):
            data[f"h{number}-{name}"] = str(row.get(name, ""))
    return data


def made(points_a=100, **fields):
    return {"playing": "A", "points_a": str(points_a), **fields}


# --- The paper sheet -------------------------------------------------------------------


def test_the_grid_has_a_row_per_hand_and_one_for_a_tie(director_client, table):
    response = director_client.get(sheet_url(table))
    assert response.status_code == 200
    assert len(response.context["sheet"].forms) == 17
    assert response.text.count('name="h1-points_a"') == 1
    assert 'name="h17-points_a"' in response.text


def test_a_whole_sheet_is_saved_and_confirmed(director_client, director, table):
    rows = [made(100, roem_a="20")] * 15 + [{"playing": "B", "points_b": "162", "pit": "B"}]
    response = director_client.post(sheet_url(table), sheet_data(rows))
    assert response.status_code == 302
    game = Game.objects.get(pk=table.game.pk)
    assert game.hands_entered == 16
    assert game.status == Game.Status.CONFIRMED
    assert (game.total_a, game.total_b) == (15 * 120, 15 * 62 + 262)
    assert set(Hand.objects.values_list("entered_via", flat=True)) == {"sheet"}
    assert set(AuditEntry.objects.values_list("action", flat=True)) == {"create", "confirm"}
    assert director.username in game.confirmed_by


def pit_cell(html, number):
    """The marks in row ``number``'s mark cells of the grid (wij's, zij's)."""

    def value(team):
        field = re.search(rf'<input[^>]*name="h{number}-mark_{team}"[^>]*>', html).group(0)
        found = re.search(r'value="([^"]*)"', field)
        return found.group(1) if found else ""

    return value("a"), value("b")


def test_the_grid_marks_a_defenders_pit_tp_and_the_playing_teams_pit_m(director_client, table):
    """As the score sheets write them (one formatter): hand 1 wij play and zij take
    every trick (a tegenpit: TP), hand 2 zij play and take every trick (a mars: M).
    A posted pit team (the grid's former select) is still read."""
    rows = [
        {"playing": "A", "points_a": "0", "mark_b": "TP"},
        {"playing": "B", "points_b": "162", "pit": "B"},
    ] + [made(100)] * 14
    assert director_client.post(sheet_url(table), sheet_data(rows)).status_code == 302
    game = Game.objects.get(pk=table.game.pk)
    assert (game.tegenpit_a, game.tegenpit_b, game.marsen_a, game.marsen_b) == (0, 1, 0, 1)
    html = director_client.get(sheet_url(table)).text
    assert (pit_cell(html, 1), pit_cell(html, 2)) == (("", "TP"), ("", "M"))
    # The legend of the club's marks (today's by default), in the page's language.
    with translation.override("nl"):
        assert escape(str(MARK_LEGENDS[MarkStyle.PIT_TEAM])) in html
    assert pit_cell(html, 3) == pit_cell(html, 17) == ("", "")
    # A refused sheet shows the marks of the rows as sent.
    rows = [{"playing": "B", "points_b": "0", "mark_a": "tp"}, made(100, roem_a="30")]
    response = director_client.post(
        sheet_url(table), sheet_data(rows, total_rows=16, reason="typo", version=game.version)
    )
    assert response.status_code == 422
    assert pit_cell(response.text, 1) == ("tp", "")
    assert pit_cell(response.text, 2) == ("", "")


def test_a_sheet_with_bad_rows_shows_each_rows_error_and_saves_nothing(director_client, table):
    rows = [made(100)] * 16
    rows[2] = made(100, points_b="61")
    rows[6] = made(100, roem_a="30")
    rows[8] = made("honderd")
    rows[9] = made(10**12)
    rows[11] = {"playing": "A", "points_a": "150", "pit": "A"}
    rows[12] = {"points_a": "100"}
    response = director_client.post(sheet_url(table), sheet_data(rows))
    assert response.status_code == 422
    forms = response.context["sheet"].forms
    bad = {form.number: sorted(form.errors) for form in forms if form.errors}
    assert bad == {
        3: ["points_a"],
        7: ["roem_a"],
        9: ["points_a"],
        10: ["points_a"],
        12: ["pit"],
        13: ["playing"],
    }
    assert not Hand.objects.exists()
    assert response.text.count('class="row-errors"') == 6


def test_core_errors_are_reported_per_row_after_the_forms_pass(director_client, table):
    rows = [made(100)] * 16
    rows[4] = made(100, roem_a="30")
    rows[5] = made(100, points_b="60")
    response = director_client.post(sheet_url(table), sheet_data(rows))
    assert response.status_code == 422
    errors = {f.number: list(f.errors) for f in response.context["sheet"].forms if f.errors}
    assert errors == {5: ["roem_a"], 6: ["points_a"]}


def test_an_empty_row_in_the_middle_is_an_error(director_client, table):
    rows = [made(100)] * 3 + [{}] + [made(100)]
    response = director_client.post(sheet_url(table), sheet_data(rows))
    assert response.status_code == 422
    assert response.context["sheet"].forms[3].non_field_errors()
    assert not Hand.objects.exists()


def test_a_sheet_past_the_end_of_the_game_is_refused(director_client, table):
    rows = [made(100)] * 17
    response = director_client.post(sheet_url(table), sheet_data(rows))
    assert response.status_code == 422
    assert "16" in " ".join(response.context["sheet"].non_form_errors)
    assert not Hand.objects.exists()


def test_a_stale_sheet_is_a_conflict(director_client, table):
    factories.hands(table.game, 2, keeper="A")
    response = director_client.post(sheet_url(table), sheet_data([made(90)] * 3, reason="x"))
    assert response.status_code == 409
    assert Hand.objects.count() == 2


def test_correcting_a_confirmed_game_needs_a_reason_and_is_logged(director_client, table):
    game = factories.hands(table.game, 16, keeper="A")
    services.game_confirm(game=game, name=names_of(table).east)
    game.refresh_from_db()
    page = director_client.get(sheet_url(table))
    assert page.context["sheet"].forms[0]["points_a"].value() == 100
    rows = [made(100)] * 15 + [made(120)]
    data = sheet_data(rows, version=game.version)
    response = director_client.post(sheet_url(table), data)
    assert response.status_code == 422
    assert response.context["sheet"].meta.errors["reason"]
    data["reason"] = "Hand 16: 120 in plaats van 100"
    response = director_client.post(sheet_url(table), data)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED and game.total_a == 15 * 100 + 120
    entry = AuditEntry.objects.get(action="correct")
    assert entry.reason == "Hand 16: 120 in plaats van 100"
    assert entry.before[15]["points_a"] == 100 and entry.after[15]["points_a"] == 120


def test_changing_one_sides_points_of_a_stored_row_moves_the_other_side(director_client, table):
    game = factories.hands(table.game, 2, keeper="A")  # two hands of 100 - 62
    rows = [made(90, points_b="62"), made(100, points_b="70")]
    data = sheet_data(rows, version=game.version, reason="Spel 1 en 2 verkeerd overgenomen")
    response = director_client.post(sheet_url(table), data)
    assert response.status_code == 302, response.context["sheet"].forms[0].errors
    points = list(Hand.objects.order_by("number").values_list("points_a", "points_b"))
    assert points == [(90, 72), (92, 70)]


def test_changing_both_sides_of_a_stored_row_must_add_up(director_client, table):
    game = factories.hands(table.game, 2, keeper="A")
    rows = [made(90, points_b="60"), made(100, points_b="62")]
    data = sheet_data(rows, version=game.version, reason="x")
    response = director_client.post(sheet_url(table), data)
    assert response.status_code == 422
    assert list(Hand.objects.values_list("points_a", flat=True)) == [100, 100]


def test_a_corrected_game_says_so_and_the_log_names_the_changed_hand(
    director_client, director, table
):
    game = factories.hands(table.game, 16, keeper="A")
    services.game_confirm(game=game, name=names_of(table).east)
    game.refresh_from_db()
    rows = [made(100)] * 15 + [made(120)]
    reason = "Spel 16 verkeerd overgenomen"
    data = sheet_data(rows, version=game.version, reason=reason)
    assert director_client.post(sheet_url(table), data).status_code == 302
    entry = AuditEntry.objects.get(action="correct")
    assert entry.hand_number == 16
    english = {"accept-language": "en"}
    said = f"corrected by {director.get_username()}: {reason}"
    evening = table.round.evening
    for page in (sheet_url(table), overview_url(evening)):
        assert said in director_client.get(page, headers=english).text
    log = director_client.get(overview_url(evening, "evening-audit"), headers=english).text
    changed = re.findall(r"<p class='audit-changed'>([^<]*)</p>", log)
    assert changed == [
        "hand 16: wij played, 100+0 – 62+0, banked 100–62",
        "hand 16: wij played, 120+0 – 42+0, banked 120–42",
    ]


def test_confirming_a_complete_game_from_the_sheet_needs_no_reason(director_client, table):
    game = factories.hands(table.game, 16, keeper="A")
    rows = [made(100)] * 16
    response = director_client.post(sheet_url(table), sheet_data(rows, version=game.version))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert not AuditEntry.objects.filter(action="correct").exists()


# --- The evening overview and adjustments ------------------------------------------------


def test_overview_shows_every_tables_progress_and_what_is_missing(director_client, play):
    first, second = play.tables
    factories.hands(first.game, 16, keeper="A")
    services.game_confirm(game=first.game, name=names_of(first).east)
    factories.hands(second.game, 9, keeper="A")
    response = director_client.get(overview_url(play.evening))
    assert response.status_code == 200
    progress = response.context["progress"]
    assert (progress.confirmed, progress.in_play, progress.to_confirm) == (1, 1, 0)
    assert [t.table.pk for t in progress.missing] == [second.pk]
    text = response.text
    assert 'http-equiv="refresh" content="15"' in text
    assert "data-refresh-url" in text
    assert "9/16" in text
    assert f'id="table-{second.pk}" class="status-open"' in text
    assert second.token in text


def test_the_overview_fragment_reloads_only_the_tables(director_client, play):
    response = director_client.get(overview_url(play.evening), {"fragment": "1"})
    assert response.status_code == 200
    assert "<html" not in response.text
    assert f"table-{play.tables[0].pk}" in response.text


def test_overview_query_count_is_pinned(
    director_client, club, director, django_assert_num_queries, drawn_evening
):
    # A bigger evening: 5 tables, hands everywhere, adjustments.
    play = drawn_evening(club, director, players=21)
    for game in play.games:
        factories.hands(game, 4, keeper="A")
    services.adjustment_record(
        evening=play.evening,
        kind="director",
        points=262,
        reason="verzaakt (before verzaken was a hand)",
        by=director,
        game=play.games[0],
        team="B",
    )
    url = overview_url(play.evening)
    # session, user, club, role; evening; tables with games; seats; corrections;
    # adjustments; members
    with django_assert_num_queries(10):
        response = director_client.get(url)
    assert response.status_code == 200
    assert len(response.context["progress"].tables) == 5
    # The 15-second reload: no adjustments, no members; the evening's version (the ETag).
    with django_assert_num_queries(9):
        assert director_client.get(url, {"fragment": "1"}).status_code == 200


def test_a_teams_verzaken_is_refused_as_an_adjustment_it_is_a_hand(director_client, play, table):
    game = factories.hands(table.game, 4, keeper="A")
    target = f"g{game.pk}B"
    data = {"kind": "verzaken", "target": target, "points": "262", "reason": "Noord verzaakt"}
    response = director_client.post(overview_url(play.evening, "evening-adjust"), data)
    assert response.status_code == 422
    assert "vult u in als het spel dat ermee eindigde" in response.text  # Dutch, the default
    assert not Adjustment.objects.exists()


def test_a_directors_score_is_recorded_for_a_team_beside_the_game_total(
    director_client, play, table
):
    game = factories.hands(table.game, 4, keeper="A")
    progress_form = director_client.get(overview_url(play.evening)).context["form"]
    target = f"g{game.pk}B"
    assert target in dict(progress_form.fields["target"].choices[2][1])
    data = {"kind": "director", "target": target, "points": "262", "reason": "Noord verzaakt"}
    response = director_client.post(overview_url(play.evening, "evening-adjust"), data)
    assert response.status_code == 302
    adjustment = Adjustment.objects.get(kind="director")
    assert (adjustment.game_id, adjustment.team, adjustment.points) == (game.pk, "B", 262)
    assert adjustment.round_id == table.round_id
    game.refresh_from_db()
    assert game.total_b == 4 * 62  # the hands' total; the adjustment stands beside it
    entry = AuditEntry.objects.get(action="adjust")
    assert entry.reason == "Noord verzaakt" and entry.after["points"] == 262
    page = director_client.get(overview_url(play.evening))
    assert page.context["progress"].tables[0].adjustment_b == 262
    assert "+262" in page.text


def test_a_player_penalty_and_an_absence_score(director_client, play, club):
    player = play.evening.attendances.first().member
    url = overview_url(play.evening, "evening-adjust")
    data = {"kind": "verzaken", "target": f"m{player.pk}", "points": "-100", "reason": "verzaakt"}
    assert director_client.post(url, data).status_code == 302
    absent = factories.member(club, "Afwezige Albert")
    play.evening.attendances.create(member=absent, status="excused")
    data = {
        "kind": "absence",
        "target": f"m{absent.pk}",
        "points": "1450",
        "reason": "afgemeld",
        "round": str(play.round.pk),
    }
    assert director_client.post(url, data).status_code == 302
    again = director_client.post(url, data)
    assert again.status_code == 422
    assert Adjustment.objects.filter(kind="absence").count() == 1
    assert Adjustment.objects.get(kind="verzaken").points == -100


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"points": str(10**12)}, "points"),
        ({"points": "veel"}, "points"),
        ({"reason": ""}, "reason"),
        ({"target": "m999999"}, "target"),
        ({"kind": "absence", "round": ""}, "round"),
        ({"kind": "cadeau"}, "kind"),
    ],
)
def test_a_wrong_adjustment_is_a_field_error(director_client, play, fields, field):
    player = play.evening.attendances.first().member
    data = {"kind": "director", "target": f"m{player.pk}", "points": "50", "reason": "x"}
    data.update(fields)
    response = director_client.post(overview_url(play.evening, "evening-adjust"), data)
    assert response.status_code == 422
    assert response.context["form"].errors.get(field)
    assert not Adjustment.objects.exclude(kind="sitout").exists()


def test_the_audit_log_shows_who_when_before_after_and_why(client, director, play, table):
    entry = reverse("scoring:table-entry", kwargs={"token": table.token})
    client.post(entry + "hand/", hand_data(roem_a="20"))
    game = Game.objects.get(pk=table.game.pk)
    client.post(entry + "undo/", {"version": game.version})
    client.force_login(director)
    client.cookies["django_language"] = "en"
    response = client.get(overview_url(play.evening, "evening-audit"))
    assert response.status_code == 200
    rows = [r.record for r in response.context["entries"].page.object_list]
    assert [r.action for r in rows] == ["delete", "create"]
    assert all(str(table.number) in r.actor for r in rows)
    assert "hand 1: wij played, 100+20 – 62+0, banked 120–62" in response.text
    only = client.get(overview_url(play.evening, "evening-audit"), {"table": play.tables[1].pk})
    assert list(only.context["entries"].page.object_list) == []


def test_audit_page_query_count_is_pinned(director_client, play, django_assert_num_queries):
    for game in play.games:
        factories.hands(game, 5, keeper="A")
    with django_assert_num_queries(7):  # session, user, club, role, evening, count, page
        response = director_client.get(overview_url(play.evening, "evening-audit"))
    assert len(response.context["entries"].page.object_list) == 10


# --- Links on the tournament pages ------------------------------------------------------


def test_the_evening_and_round_pages_link_to_the_score_pages(director_client, play, table):
    club = play.season.club
    evening_page = director_client.get(play.evening.get_absolute_url()).text
    assert overview_url(play.evening) in evening_page
    assert overview_url(play.evening, "evening-audit") in evening_page
    round_page = director_client.get(play.round.get_absolute_url()).text
    assert reverse("scoring:table-entry", kwargs={"token": table.token}) in round_page
    assert reverse("scoring:game-sheet", kwargs={"club": club.slug, "pk": table.pk}) in round_page


def test_a_scorer_sees_entry_links_but_not_the_sheet(client, scorer, play, table):
    client.force_login(scorer)
    round_page = client.get(play.round.get_absolute_url()).text
    assert reverse("scoring:table-entry", kwargs={"token": table.token}) in round_page
    assert sheet_url(table) not in round_page
    evening_page = client.get(play.evening.get_absolute_url()).text
    assert overview_url(play.evening) in evening_page
    assert overview_url(play.evening, "evening-audit") not in evening_page


# --- Permissions -----------------------------------------------------------------------


def score_url(table, club=None):
    club = club or table.round.evening.competition.club
    return reverse("scoring:table-score", kwargs={"club": club.slug, "pk": table.pk})


def test_a_scorer_enters_any_table_of_the_club_through_the_club_link(client, scorer, table):
    client.force_login(scorer)
    response = client.get(score_url(table))
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:table-entry", kwargs={"token": table.token})
    assert client.post(response["Location"] + "hand/", hand_data()).status_code == 302
    assert Hand.objects.get().entered_by == scorer


def test_a_scorer_of_another_club_gets_404(client, other_club, play, table):
    stranger = factories.role(other_club, "scorer")
    client.force_login(stranger)
    for url in [
        score_url(table),
        sheet_url(table),
        overview_url(play.evening),
        overview_url(play.evening, "evening-audit"),
    ]:
        assert client.get(url).status_code == 404, url
    # Nor through their own club's address.
    assert client.get(score_url(table, club=other_club)).status_code == 404
    response = client.post(overview_url(play.evening, "evening-adjust"), {"points": "1"})
    assert response.status_code == 404


def test_a_director_of_another_club_cannot_open_this_clubs_sheet(client, other_club, table):
    client.force_login(factories.role(other_club, "director"))
    assert client.get(sheet_url(table)).status_code == 404
    other_sheet = reverse("scoring:game-sheet", kwargs={"club": other_club.slug, "pk": table.pk})
    assert client.get(other_sheet).status_code == 404


def test_a_scorer_can_enter_but_not_correct_a_confirmed_game(client, scorer, play, table):
    game = factories.hands(table.game, 16, keeper="A")
    services.game_confirm(game=game, name=names_of(table).east)
    game.refresh_from_db()
    client.force_login(scorer)
    entry = reverse("scoring:table-entry", kwargs={"token": table.token})
    assert client.post(entry + "undo/", {"version": game.version}).status_code == 422
    assert client.get(sheet_url(table)).status_code == 403
    rows = [made(90)] * 16
    response = client.post(sheet_url(table), sheet_data(rows, version=game.version, reason="r"))
    assert response.status_code == 403
    adjust = {"kind": "director", "target": f"g{game.pk}A", "points": "10", "reason": "r"}
    assert client.post(overview_url(play.evening, "evening-adjust"), adjust).status_code == 403
    assert client.get(overview_url(play.evening, "evening-audit")).status_code == 403
    assert client.get(overview_url(play.evening)).status_code == 200
    game.refresh_from_db()
    assert game.total_a == 1600 and Hand.objects.count() == 16


def test_the_director_can_correct_a_confirmed_game(director_client, table):
    game = factories.hands(table.game, 16, keeper="A")
    services.game_confirm(game=game, name=names_of(table).east)
    game.refresh_from_db()
    rows = [made(90)] * 16
    data = sheet_data(rows, version=game.version, reason="Telfout")
    assert director_client.post(sheet_url(table), data).status_code == 302
    game.refresh_from_db()
    assert game.total_a == 1440 and game.status == Game.Status.CONFIRMED


def test_anonymous_users_are_sent_to_log_in_for_club_pages(client, play, table):
    for url in [score_url(table), sheet_url(table), overview_url(play.evening)]:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_admin_shows_scores_read_only(admin_client, table):
    factories.hands(table.game, 2, keeper="A")
    for model in ("game", "hand", "adjustment", "auditentry"):
        assert admin_client.get(f"/admin/scoring/{model}/").status_code == 200, model
        assert admin_client.get(f"/admin/scoring/{model}/", {"q": "x"}).status_code == 200
    assert admin_client.get("/admin/scoring/hand/add/").status_code == 403
    page = admin_client.get(f"/admin/scoring/game/{table.game.pk}/change/")
    assert page.status_code == 200 and 'type="submit" value="Save"' not in page.text


def test_the_director_on_a_table_page_finds_the_way_to_correct_it(director_client, table):
    page = director_client.get(reverse("scoring:table-entry", kwargs={"token": table.token}))
    assert page.context["can_correct"]
    assert sheet_url(table) in page.text
