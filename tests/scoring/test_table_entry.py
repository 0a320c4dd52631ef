"""The table's page behind its private link: entering, previewing, undoing and confirming."""

import re
import uuid
from types import SimpleNamespace

import pytest
from django.core.cache import caches
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from clubs.auth import pin_matches
from clubs.services import member_pin_set
from scoring import services
from scoring.models import AuditEntry, Game, Hand
from scoring.services import HandInput
from tests import factories
from tournaments.models import Evening, Seat

pytestmark = pytest.mark.django_db


def names_of(table):
    seats = {s.position: s.player_name for s in Seat.objects.filter(table=table)}
    return SimpleNamespace(
        north=seats["N"],
        east=seats["E"],
        south=seats["S"],
        west=seats["W"],
        a=[seats["N"], seats["S"]],
        b=[seats["E"], seats["W"]],
    )


def entry_url(table, name="table-entry"):
    return reverse(f"scoring:{name}", kwargs={"token": table.token})


def hand_data(of=None, **fields):
    """A valid POST of the hand form for the next hand of game ``of``: wij played
    and made 100 against 62."""
    game = of or SimpleNamespace(hands_entered=0, version=0)
    data = {
        "keeper": "A",
        "playing": "A",
        "points_a": "100",
        "points_b": "",
        "roem_a": "",
        "roem_b": "",
        "pit": "",
        "trump": "",
        "client_id": uuid.uuid4().hex,
        "number": str(game.hands_entered + 1),
        "version": str(game.version),
    }
    data.update({k: str(v) for k, v in fields.items()})
    return data


def test_page_shows_table_round_names_hand_of_16_and_the_dealer(client, table):
    names = names_of(table)
    response = client.get(entry_url(table))
    assert response.status_code == 200
    text = response.text
    for name in names.a + names.b:
        assert name in text
    state = response.context["state"]
    assert (state.next_number, state.length, state.dealer_position) == (1, 16, "N")
    assert state.dealer_name == names.north
    assert 'name="client_id"' in text and 'name="number" value="1"' in text
    assert "noindex" in text
    # The phone's browser keeps it and asks again with its ETag; no proxy keeps it.
    control = {part.strip() for part in response.headers["Cache-Control"].split(",")}
    assert control == {"private", "no-cache"}


def test_dealer_rotates_clockwise_from_north(client, table):
    names = names_of(table)
    factories.hands(table.game, 5, keeper="A")
    state = client.get(entry_url(table)).context["state"]
    assert (state.next_number, state.dealer_position, state.dealer_name) == (6, "E", names.east)
    assert [row.dealer for row in state.hands[:4]] == [
        names.north,
        names.east,
        names.south,
        names.west,
    ]


def test_saving_one_teams_card_points_derives_the_others(client, table):
    response = client.post(entry_url(table, "table-hand"), hand_data(roem_a=20))
    assert response.status_code == 302
    assert response["Location"].startswith(entry_url(table))
    hand = Hand.objects.get()
    assert (hand.points_a, hand.points_b, hand.roem_a, hand.score_a, hand.score_b) == (
        100,
        62,
        20,
        120,
        62,
    )
    game = Game.objects.get(pk=table.game.pk)
    assert (game.total_a, game.total_b, game.hands_entered, game.scorer_team) == (120, 62, 1, "A")
    entry = AuditEntry.objects.get()
    assert entry.action == "create" and entry.user is None
    assert str(table.number) in entry.actor


def test_zij_points_alone_and_pit_fill_in_the_rest(client, table):
    client.post(entry_url(table, "table-hand"), hand_data(points_a="", points_b="40"))
    game = Game.objects.get(pk=table.game.pk)
    data = hand_data(game, points_a="", pit="A", roem_a="100")
    assert client.post(entry_url(table, "table-hand"), data).status_code == 302
    first, second = Hand.objects.order_by("number")
    assert (first.points_a, first.points_b) == (122, 40)
    assert (second.points_a, second.points_b, second.score_a) == (162, 0, 362)


def test_nat_is_stored_and_shown_plainly(client, table):
    client.post(entry_url(table, "table-hand"), hand_data(points_a="81"))
    hand = Hand.objects.get()
    assert hand.nat and (hand.score_a, hand.score_b) == (0, 162)
    page = client.get(entry_url(table)).text
    assert 'class="nat"' in page


def test_a_double_tap_stores_the_hand_once(client, table):
    data = hand_data()
    first = client.post(entry_url(table, "table-hand"), data)
    again = client.post(entry_url(table, "table-hand"), data)
    assert first.status_code == again.status_code == 302
    assert Hand.objects.count() == 1
    assert AuditEntry.objects.count() == 1


BAD_INPUT = [
    ("sum_not_162", {"points_b": "61"}, "points_a"),
    ("roem_30", {"roem_a": "30"}, "roem_a"),
    ("roem_30_zij", {"roem_b": "30"}, "roem_b"),
    ("pit_without_162", {"pit": "A", "points_a": "150"}, "pit"),
    ("letters_in_points", {"points_a": "honderd"}, "points_a"),
    ("letters_in_roem", {"roem_a": "twintig"}, "roem_a"),
    ("huge_points", {"points_a": str(10**12)}, "points_a"),
    ("huge_roem", {"roem_b": str(10**12)}, "roem_b"),
    ("negative_points", {"points_a": "-5"}, "points_a"),
    ("one_point", {"points_a": "1"}, "points_a"),
    ("no_points", {"points_a": ""}, "points_a"),
    ("no_team", {"playing": ""}, "playing"),
    ("unknown_team", {"playing": "C"}, "playing"),
    ("no_keeper", {"keeper": ""}, "keeper"),
    ("unknown_trump", {"trump": "X"}, "trump"),
    ("huge_hand_number", {"number": str(10**12)}, "number"),
    ("letters_in_version", {"version": "v2"}, "version"),
    ("huge_client_id", {"client_id": "x" * 500}, "client_id"),
]


@pytest.mark.parametrize(("case", "fields", "field"), BAD_INPUT, ids=[c[0] for c in BAD_INPUT])
def test_bad_input_is_a_field_error_and_nothing_is_saved(client, table, case, fields, field):
    response = client.post(entry_url(table, "table-hand"), hand_data(**fields))
    assert response.status_code == 422
    form = response.context["hand_form"]
    assert form.errors.get(field), form.errors
    assert 'class="errorlist' in response.text
    assert not Hand.objects.exists()
    assert Game.objects.get(pk=table.game.pk).version == 0


def test_the_error_is_in_english_when_the_scorer_reads_english(client, table):
    client.cookies["django_language"] = "en"
    response = client.post(entry_url(table, "table-hand"), hand_data(points_b="61"))
    assert response.status_code == 422
    assert "The card points of both teams must add up to 162." in response.text
    assert not Hand.objects.exists()


def test_hand_17_of_a_finished_boompje_is_refused(client, table):
    game = factories.hands(table.game, 16, keeper="A")
    assert game.status == Game.Status.COMPLETE
    response = client.post(entry_url(table, "table-hand"), hand_data(game))
    assert response.status_code == 422
    assert "compleet" in " ".join(str(p) for p in response.context["problems"])
    assert Hand.objects.count() == 16


def test_a_tie_after_16_plays_an_extra_hand(client, table):
    game = table.game
    for playing, points_a in [("A", 100)] * 8 + [("B", 62)] * 8:
        services.hand_record(
            game=game, data=HandInput(playing=playing, points_a=points_a, points_b=162 - points_a)
        )
    game.refresh_from_db()
    assert game.total_a == game.total_b and game.status == Game.Status.OPEN
    response = client.get(entry_url(table))
    assert response.context["state"].is_extra_hand
    assert response.context["state"].next_number == 17


def test_a_stale_form_after_someone_else_saved_is_a_conflict(client, table):
    page = client.get(entry_url(table))
    mine = dict(page.context["hand_form"].initial)
    other = client.post(entry_url(table, "table-hand"), hand_data(points_a="90"))
    assert other.status_code == 302
    data = hand_data(points_a="120", client_id=mine["client_id"])
    response = client.post(entry_url(table, "table-hand"), data)
    assert response.status_code == 409
    assert "1" in " ".join(response.context["problems"])
    assert Hand.objects.get().points_a == 90
    # The current state is shown, with a fresh form for the next hand.
    assert len(response.context["state"].hands) == 1
    assert response.context["hand_form"].initial["number"] == 2
    assert response.context["hand_form"].initial["client_id"] != mine["client_id"]


def test_a_stale_version_is_a_conflict(client, table):
    client.post(entry_url(table, "table-hand"), hand_data())
    game = Game.objects.get(pk=table.game.pk)
    data = hand_data(game, version=0)
    response = client.post(entry_url(table, "table-hand"), data)
    assert response.status_code == 409
    assert Hand.objects.count() == 1


def test_preview_shows_what_each_team_banks_and_saves_nothing(client, table):
    url = entry_url(table, "table-preview")
    made = client.get(url, {"playing": "A", "points_a": "100", "roem_a": "20"}).json()
    assert made == {
        "ok": True,
        "a": 120,
        "b": 62,
        "nat": False,
        "verzaakt": "",
        "playing": "A",
        "text": made["text"],
    }
    nat = client.get(url, {"playing": "B", "points_a": "81", "roem_b": ""}).json()
    assert nat["ok"] and nat["nat"] and (nat["a"], nat["b"]) == (162, 0)
    wrong = client.get(url, {"playing": "A", "points_a": "100", "roem_a": "30"}).json()
    assert not wrong["ok"] and "roem_a" in wrong["errors"]
    assert not Hand.objects.exists()


def test_preview_without_javascript_renders_the_page_and_saves_nothing(client, table):
    response = client.post(entry_url(table, "table-hand"), hand_data(points_a="70", preview="1"))
    assert response.status_code == 200
    assert response.context["preview"]["result"].nat
    assert response.context["hand_form"]["points_a"].value() == "70"
    assert not Hand.objects.exists()


def test_undo_removes_the_last_hand_until_the_game_is_confirmed(client, table):
    game = factories.hands(table.game, 2, keeper="A")
    page = client.get(entry_url(table))
    assert "Undo" in page.text or entry_url(table, "table-undo") in page.text
    response = client.post(entry_url(table, "table-undo"), {"version": game.version})
    assert response.status_code == 302
    assert list(Hand.objects.values_list("number", flat=True)) == [1]
    assert AuditEntry.objects.filter(action="delete").count() == 1
    stale = client.post(entry_url(table, "table-undo"), {"version": game.version})
    assert stale.status_code == 409
    assert Hand.objects.count() == 1


def test_the_other_team_confirms_and_the_game_is_locked(client, table):
    names = names_of(table)
    game = factories.hands(table.game, 16, keeper="A")
    page = client.get(entry_url(table))
    form = page.context["confirm_form"]
    assert [label for _value, label in form.fields["name"].choices] == names.b
    assert page.context["hand_form"] is None
    wrong = client.post(
        entry_url(table, "table-confirm"), {"name": names.north, "version": game.version}
    )
    assert wrong.status_code == 422 and wrong.context["confirm_form"].errors["name"]
    response = client.post(
        entry_url(table, "table-confirm"), {"name": names.east, "version": game.version}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.confirmed_by) == (Game.Status.CONFIRMED, names.east)
    assert AuditEntry.objects.filter(action="confirm", actor=names.east).exists()
    # Locked: no hand, no undo from the table.
    refused = client.post(entry_url(table, "table-undo"), {"version": game.version})
    assert refused.status_code == 422
    assert "vergrendeld" in " ".join(refused.context["problems"])
    refused = client.post(entry_url(table, "table-hand"), hand_data(game))
    assert refused.status_code == 422
    assert Hand.objects.count() == 16
    page = client.get(entry_url(table))
    assert page.context["hand_form"] is None and not page.context["can_undo"]


def test_confirming_before_the_last_hand_is_refused(client, table):
    names = names_of(table)
    game = factories.hands(table.game, 3, keeper="A")
    response = client.post(
        entry_url(table, "table-confirm"), {"name": names.east, "version": game.version}
    )
    assert response.status_code == 422
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN


def test_after_the_evening_is_closed_the_link_says_so_and_cannot_write(client, play, table):
    game = factories.hands(table.game, 3, keeper="A")
    Evening.objects.filter(pk=play.evening.pk).update(status=Evening.Status.FINISHED)
    page = client.get(entry_url(table))
    assert page.status_code == 200
    assert 'class="notice"' in page.text and "hand-form" not in page.text
    for name, data in [
        ("table-hand", hand_data(game)),
        ("table-undo", {"version": game.version}),
        ("table-confirm", {"name": names_of(table).east, "version": game.version}),
    ]:
        response = client.post(entry_url(table, name), data)
        assert response.status_code == 403, name
    assert Hand.objects.count() == 3
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_table_link_reaches_only_its_own_game(client, play):
    first, second = play.tables
    second_names = names_of(second)
    page = client.get(entry_url(first)).text
    assert not any(name in page for name in second_names.a + second_names.b)
    data = hand_data(game=str(second.game.pk), table=str(second.pk))
    assert client.post(entry_url(first, "table-hand"), data).status_code == 302
    assert Hand.objects.get().game_id == first.game.pk
    assert Game.objects.get(pk=second.game.pk).hands_entered == 0


def test_a_table_link_of_another_evening_cannot_touch_this_one(
    client, club, director, play, drawn_evening
):
    other = drawn_evening(club, director, seed=2)
    response = client.post(entry_url(other.tables[0], "table-hand"), hand_data())
    assert response.status_code == 302
    assert set(Hand.objects.values_list("game_id", flat=True)) == {other.games[0].pk}
    assert not Hand.objects.filter(game__table__round__evening=play.evening).exists()


@pytest.mark.parametrize("token", ["bestaat-niet", "x" * 24, "a" * 100])
def test_an_unknown_link_is_404(client, token, play):
    assert client.get(f"/t/{token}/").status_code == 404
    assert client.post(f"/t/{token}/hand/", hand_data()).status_code == 404


def test_a_table_link_opens_no_club_page(client, play, table):
    club_slug = play.season.club.slug
    for url in [
        reverse("scoring:game-sheet", kwargs={"club": club_slug, "pk": table.pk}),
        reverse("scoring:evening-scores", kwargs={"club": club_slug, "pk": play.evening.pk}),
        reverse("scoring:evening-audit", kwargs={"club": club_slug, "pk": play.evening.pk}),
    ]:
        client.get(entry_url(table))
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_logged_in_scorer_on_the_link_is_recorded_as_the_one_who_entered(client, club, table):
    scorer = factories.role(club, "scorer")
    client.force_login(scorer)
    assert client.post(entry_url(table, "table-hand"), hand_data()).status_code == 302
    hand = Hand.objects.get()
    assert hand.entered_by == scorer
    assert AuditEntry.objects.get().actor == scorer.username


def test_the_page_works_without_javascript(client, table):
    """Every action is a plain form with a submit button; the script only adds speed."""
    text = client.get(entry_url(table)).text
    form = re.search(r'<form id="hand-form".*?</form>', text, re.S).group(0)
    assert 'method="post"' in form
    buttons = re.findall(r"<button[^>]*>", form)
    submit = [b for b in buttons if 'type="submit"' in b]
    assert 'class="primary save"' in submit[0], "Enter must save: Save is the first submit"
    assert all('tabindex="-1"' in b for b in buttons if "data-add" in b or "data-set" in b)


def test_entry_page_query_count_is_pinned(client, table, django_assert_num_queries):
    factories.hands(table.game, 9, keeper="A")
    # The evening's version (the page's ETag); table with game and evening, seats, hands.
    with django_assert_num_queries(4):
        response = client.get(entry_url(table))
    assert response.status_code == 200
    # The phone asking again (with the CSRF cookie the first answer set) with the ETag:
    # the version only, and a 304.
    tag = client.get(entry_url(table))["ETag"]
    with django_assert_num_queries(1):
        again = client.get(entry_url(table), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304


# table; savepoint; game locked; entry id looked up; hands; hand inserted; game
# updated; the evening locked, it and its competition given new versions of their pages,
# and its stored totals thrown away; audit entry; release: the same for every hand.
SAVE_QUERIES = 13


@pytest.mark.parametrize("hands_before", [0, 9], ids=["hand_1", "hand_10"])
def test_saving_a_hand_takes_a_constant_number_of_queries(
    client, table, hands_before, django_assert_num_queries
):
    game = factories.hands(table.game, hands_before, keeper="A")
    data = hand_data(game)
    with django_assert_num_queries(SAVE_QUERIES):
        response = client.post(entry_url(table, "table-hand"), data)
    assert response.status_code == 302
    assert Hand.objects.count() == hands_before + 1


def test_the_trick_checkers_copy_link_fills_the_next_hand(client, db):
    game = factories.game(factories.club())
    query = "playing=B&points_a=79&points_b=83&roem_a=20&roem_b=0&pit=&trump=C&hand=1"
    url = f"/t/{game.table.token}/?{query}"
    response = client.get(url)
    form = response.context["hand_form"]
    assert form.initial["playing"] == "B"
    assert form.initial["points_a"] == "79"
    assert form.initial["trump"] == "C"
    assert "trickcheck" in response.text
    response = client.get(url.replace("hand=1", "hand=5"))
    assert any("hand 5" in str(p) or "spel 5" in str(p) for p in response.context["problems"])


# --- Confirming with a PIN (a club setting, off by default) ------------------------------


def test_without_the_club_setting_no_pin_is_asked(client, table):
    factories.hands(table.game, 16, keeper="A")
    page = client.get(entry_url(table))
    assert not page.context["confirm_form"].with_pin
    assert 'name="pin"' not in page.text


@pytest.fixture
def pin_table(club, table):
    club.confirm_with_pin = True
    club.save()
    east = Seat.objects.get(table=table, position="E").member
    member_pin_set(member=east, pin="4711", by=factories.role(club, "admin"))
    caches["throttle"].clear()
    factories.hands(table.game, 16, keeper="A")
    return table


def test_the_other_team_confirms_with_their_pin(client, pin_table):
    names = names_of(pin_table)
    game = pin_table.game
    page = client.get(entry_url(pin_table))
    assert page.context["confirm_form"].with_pin and 'name="pin"' in page.text
    response = client.post(
        entry_url(pin_table, "table-confirm"),
        {"name": names.east, "pin": "4711", "version": game.version},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.confirmed_by) == (Game.Status.CONFIRMED, names.east)


def test_a_wrong_or_missing_pin_confirms_nothing_and_says_so(client, pin_table):
    names = names_of(pin_table)
    game = pin_table.game
    for data, message in (
        ({"pin": "1234"}, "pincode klopt niet"),  # Dutch, the site's default language
        ({"pin": ""}, "verplicht"),
        ({"name": names.west, "pin": "4711"}, "heeft nog geen pincode"),  # west set none
    ):
        post = {"name": names.east, "version": game.version, **data}
        response = client.post(entry_url(pin_table, "table-confirm"), post)
        assert response.status_code == 422
        assert message in " ".join(response.context["confirm_form"].errors["pin"])
        assert 'role="alert"' in response.text
    game.refresh_from_db()
    assert game.status == Game.Status.COMPLETE and not game.confirmed_by


def test_wrong_pins_are_throttled_even_the_right_one_after(client, pin_table):
    names = names_of(pin_table)
    game = pin_table.game
    for _ in range(5):
        client.post(
            entry_url(pin_table, "table-confirm"),
            {"name": names.east, "pin": "0000", "version": game.version},
        )
    response = client.post(
        entry_url(pin_table, "table-confirm"),
        {"name": names.east, "pin": "4711", "version": game.version},
    )
    assert response.status_code == 422
    assert "Te vaak een verkeerde pincode" in " ".join(
        response.context["confirm_form"].errors["pin"]
    )
    game.refresh_from_db()
    assert game.status == Game.Status.COMPLETE


def test_a_pin_is_stored_hashed_and_set_by_the_member_or_an_admin(club, table):
    member = Seat.objects.get(table=table, position="N").member
    with pytest.raises(PermissionDenied):
        member_pin_set(member=member, pin="1234", by=factories.role(club, "director"))
    member.user = factories.user("noord")
    member.save()
    member_pin_set(member=member, pin="123456", by=member.user)
    member.refresh_from_db()
    assert member.pin and "123456" not in member.pin and pin_matches("123456", member.pin)[0]
    with pytest.raises(ValidationError) as refused:
        member_pin_set(member=member, pin="12a4", by=member.user)
    assert "pin" in refused.value.message_dict
    member_pin_set(member=member, pin="", by=member.user)
    member.refresh_from_db()
    assert member.pin == ""


def test_the_member_page_sets_a_pin_only_when_the_club_asks_for_one(client, club, table):
    member = Seat.objects.get(table=table, position="N").member
    member.user = factories.user("noord")
    member.save()
    factories.role(club, "member", member.user)
    client.force_login(member.user)
    page = reverse("clubs:member-detail", kwargs={"club": club.slug, "pk": member.pk})
    address = reverse("clubs:member-pin", kwargs={"club": club.slug, "pk": member.pk})
    assert 'name="pin"' not in client.get(page).text
    assert client.post(address, {"pin": "1234"}).status_code == 403
    club.confirm_with_pin = True
    club.save()
    assert 'name="pin"' in client.get(page).text
    assert client.post(address, {"pin": "1234"}).status_code == 302
    member.refresh_from_db()
    assert pin_matches("1234", member.pin)[0]
    other = Seat.objects.get(table=table, position="E").member
    other_address = reverse("clubs:member-pin", kwargs={"club": club.slug, "pk": other.pk})
    assert client.post(other_address, {"pin": "1234"}).status_code == 403
    client.post(address, {"pin": "12"})
    member.refresh_from_db()
    assert pin_matches("1234", member.pin)[0]  # a refused PIN changes nothing
