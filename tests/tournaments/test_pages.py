"""Running a season from the club's pages, without the admin site."""

import datetime
import html
import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from scoring.models import Game
from tests import factories
from tests.security.forms import page_forms
from tournaments import selectors, services
from tournaments.forms import EveningForm, PeriodForm
from tournaments.models import Attendance, Competition, Evening, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(club):
    return factories.role(club, "director")


@pytest.fixture
def logged_in(client, director):
    client.force_login(director)
    return client


def url(name, club, **kwargs):
    return reverse(f"tournaments:{name}", kwargs={"club": club.slug, **kwargs})


def test_create_a_season_and_an_evening_from_the_club_page(logged_in, club):
    page = logged_in.get(club.get_absolute_url())
    assert url("competition-create", club) in page.text
    response = logged_in.post(
        url("competition-create", club),
        {
            "name": "Wintercompetitie",
            "format": "season",
            "kind": "individual",
            "start_date": "2026-09-01",
            "end_date": "2027-05-31",
            "ruleset_preset": "rotterdam",
            "hands_per_game": 16,
            "rounds_per_evening": 3,
            "odd_players": "sitout",
            "sitout_score": 1600,
            "absence_policy": "nothing",
            "absence_score": 0,
            "ranking_basis": "total",
            "min_attendance": 0,
            "tie_breaks": ["fewer_nat", "marsen"],
        },
    )
    competition = Competition.objects.get(name="Wintercompetitie")
    assert response.status_code == 302
    assert competition.tie_breaks == ["marsen", "fewer_nat"]
    response = logged_in.post(
        url("evening-create", club, pk=competition.pk),
        {"date": "2026-10-06", "counts_for_ranking": "on"},
    )
    evening = Evening.objects.get(competition=competition)
    assert response["Location"] == evening.get_absolute_url()


def test_a_directors_home_page_links_tonights_evening_and_the_next_one(
    client, club, other_club, django_assert_num_queries
):
    today = timezone.localdate()
    director = factories.role(club, "director")
    factories.role(other_club, "scorer", director)
    season = factories.competition(
        club,
        start_date=today - datetime.timedelta(days=60),
        end_date=today + datetime.timedelta(days=200),
    )
    factories.evening(season, today - datetime.timedelta(weeks=1))
    tonight = factories.evening(season, today)
    next_week = factories.evening(season, today + datetime.timedelta(weeks=1))
    factories.evening(season, today + datetime.timedelta(weeks=2))
    theirs = factories.competition(
        other_club,
        start_date=today - datetime.timedelta(days=60),
        end_date=today + datetime.timedelta(days=200),
    )
    scored_only = factories.evening(theirs, today)
    client.force_login(director)
    with django_assert_num_queries(5):  # session, user, clubs, evenings, a fresh site?
        page = client.get("/", headers={"accept-language": "en"}).text
    tonight_section = page.split('id="tonight"')[1].split("</section>")[0]
    assert [tonight.get_absolute_url(), next_week.get_absolute_url()] == re.findall(
        r'href="([^"]+)"', tonight_section
    )
    assert "Tonight · " + club.name in tonight_section
    assert scored_only.get_absolute_url() not in page


def test_nobody_logged_in_sees_no_evenings_on_the_home_page(client, club):
    assert 'id="tonight"' not in client.get("/").text


def test_a_new_evening_is_on_the_next_club_night(logged_in, club):
    season = factories.competition(club)  # 2026-09-01 .. 2027-05-31
    tuesday = datetime.date(2026, 10, 6)
    assert selectors.next_club_night(competition=season, today=tuesday) == tuesday
    before = datetime.date(2026, 8, 1)
    assert selectors.next_club_night(competition=season, today=before) == season.start_date
    factories.evening(season, tuesday)
    for today, expected in [
        (datetime.date(2026, 10, 7), datetime.date(2026, 10, 13)),  # a week later
        (datetime.date(2026, 10, 13), datetime.date(2026, 10, 13)),
        (datetime.date(2026, 10, 14), datetime.date(2026, 10, 20)),  # a week skipped
        (datetime.date(2026, 11, 2), datetime.date(2026, 11, 3)),
    ]:
        assert selectors.next_club_night(competition=season, today=today) == expected
    page = logged_in.get(url("evening-create", club, pk=season.pk)).text
    proposed = re.search(r'name="date" value="([\d-]+)"', page).group(1)
    night = datetime.date.fromisoformat(proposed)
    assert night.weekday() == tuesday.weekday() and night >= tuesday + datetime.timedelta(weeks=1)


def test_bad_dates_show_a_message_and_save_nothing(logged_in, club):
    response = logged_in.post(
        url("competition-create", club),
        {"name": "Verkeerd", "start_date": "2027-05-31", "end_date": "2026-09-01"},
    )
    assert response.status_code == 200
    assert not Competition.objects.exists()


def test_check_in_is_one_tap_per_player(logged_in, club):
    season = factories.competition(club)
    evening = factories.evening(season)
    member = factories.member(club, "Truus d'Oliveira <Tante>")
    page = logged_in.get(url("evening-attendance", club, pk=evening.pk))
    assert "Truus d&#x27;Oliveira &lt;Tante&gt;" in page.text
    logged_in.post(
        url("evening-attendance", club, pk=evening.pk),
        {"member": member.pk, "status": "present"},
    )
    assert Attendance.objects.get(evening=evening, member=member).status == "present"
    logged_in.post(
        url("evening-attendance", club, pk=evening.pk), {"member": member.pk, "status": ""}
    )
    assert not Attendance.objects.filter(evening=evening, member=member).exists()


def test_attendance_buttons_say_what_they_do_and_a_tap_answers_with_the_row(logged_in, club):
    season = factories.competition(club)
    evening = factories.evening(season)
    member, other = factories.member(club, "Truus"), factories.member(club, "Kees")
    page_url = url("evening-attendance", club, pk=evening.pk)
    page = logged_in.get(page_url, headers={"accept-language": "en"}).text
    row = page.split(f'id="m{member.pk}"')[1].split("</li>")[0]
    assert "Present" in row and "Call in absent" in row
    # Not present: the toggle is not pressed and shows no tick.
    toggle = row.split('class="mark-present"')[1].split("</button>")[0]
    assert 'aria-pressed="false"' in toggle and "✓" not in toggle
    assert "/static/js/attendance.js" in page
    response = logged_in.post(
        page_url,
        {"member": member.pk, "status": "present"},
        headers={"accept": "application/json", "accept-language": "en"},
    )
    answer = response.json()
    assert answer["present"] == 1
    assert answer["row"].strip().startswith(f'<li id="m{member.pk}"')
    assert "status-present" in answer["row"] and 'aria-pressed="true"' in answer["row"]
    assert 'aria-pressed="false"' not in answer["row"]
    # Without the script the same buttons are a plain form post and a redirect.
    response = logged_in.post(page_url, {"member": other.pk, "status": "excused"})
    assert response.status_code == 302
    assert Attendance.objects.get(evening=evening, member=other).status == "excused"


def test_a_refused_tap_answers_with_the_reason(logged_in, club, director):
    season = factories.competition(club)
    evening = factories.evening(season)
    member = factories.member(club)
    services.evening_set_status(evening=evening, status="finished", by=director)
    response = logged_in.post(
        url("evening-attendance", club, pk=evening.pk),
        {"member": member.pk, "status": "present"},
        headers={"accept": "application/json", "accept-language": "en"},
    )
    assert response.status_code == 400
    assert response.json() == {"errors": ["This evening is closed."]}
    assert not Attendance.objects.exists()


def test_draw_from_the_evening_page_and_show_the_table_plan(logged_in, club):
    season = factories.competition(club)
    evening = factories.evening(season, present=factories.members(club, 13))
    response = logged_in.post(url("round-draw", club, pk=evening.pk))
    round_ = Round.objects.get(evening=evening)
    assert response["Location"] == round_.get_absolute_url()
    page = logged_in.get(round_.get_absolute_url())
    for seat in round_.seats.select_related("member"):
        assert seat.member.name in page.text


def test_draw_with_too_few_players_shows_a_message(logged_in, club):
    season = factories.competition(club)
    evening = factories.evening(season, present=factories.members(club, 3))
    response = logged_in.post(url("round-draw", club, pk=evening.pk), follow=True)
    assert response.status_code == 200
    assert "4" in response.text
    assert not Round.objects.exists()


def test_swap_through_the_round_page(logged_in, club, director):
    season = factories.competition(club)
    evening = factories.evening(season, present=factories.members(club, 8))
    round_ = services.round_draw(evening=evening, by=director, seed=2)
    a, b = round_.seats.order_by("pk")[:2]
    logged_in.post(url("seat-swap", club, pk=round_.pk), {"first": a.pk, "second": b.pk})
    assert round_.seats.get(table=a.table, position=a.position).member_id == b.member_id


def test_undo_and_swap_are_offered_only_while_the_round_has_no_scores(logged_in, club, director):
    season = factories.competition(club)
    evening = factories.evening(season, present=factories.members(club, 8))
    first = services.round_draw(evening=evening, by=director, seed=1)
    delete, swap = url("round-delete", club, pk=first.pk), url("seat-swap", club, pk=first.pk)
    page = logged_in.get(first.get_absolute_url()).text
    assert delete in page and swap in page
    second = services.round_draw(evening=evening, by=director, seed=2)
    page = logged_in.get(first.get_absolute_url()).text
    assert delete not in page and swap in page  # only the last draw can be taken back
    game = second.tables.first().game
    factories.hand(game, "A", 100, keeper="A")
    page = logged_in.get(second.get_absolute_url()).text
    assert url("round-delete", club, pk=second.pk) not in page
    assert url("seat-swap", club, pk=second.pk) not in page


def test_the_wall_view_shows_no_director_buttons_and_no_entry_links(logged_in, club, director):
    season = factories.competition(club)
    evening = factories.evening(season, present=factories.members(club, 8))
    round_ = services.round_draw(evening=evening, by=director, seed=1)
    page = logged_in.get(round_.get_absolute_url() + "?wall=1").text
    for table in round_.tables.all():
        assert f"/t/{table.token}/" not in page
        assert f"/tables/{table.pk}/sheet/" not in page
    assert url("round-delete", club, pk=round_.pk) not in page
    assert url("seat-swap", club, pk=round_.pk) not in page
    assert "/qr/" not in page
    seat = round_.seats.select_related("member").first()
    assert seat.member.name in page


def test_closing_with_rounds_not_drawn_says_which_before_and_after(logged_in, club, director):
    season = factories.competition(club, rounds_per_evening=3)
    evening = factories.evening(season, present=factories.members(club, 8))
    services.round_draw(evening=evening, by=director, seed=1)
    english = {"accept-language": "en"}
    page = logged_in.get(evening.get_absolute_url(), headers=english).text
    assert 'data-confirm="Close the evening? Its result becomes final. Rounds 2, 3 have not' in page
    Game.objects.filter(table__round__evening=evening).update(
        status="confirmed", confirmed_at=timezone.now()
    )
    response = logged_in.post(
        url("evening-status", club, pk=evening.pk),
        {"status": "finished"},
        headers=english,
        follow=True,
    )
    evening.refresh_from_db()
    assert evening.status == "finished"
    assert "The evening is closed. Rounds 2, 3 have not been played." in response.text
    assert "Reopen the evening? Its result is provisional again" in response.text


def test_closing_with_one_table_open_says_so_in_the_singular(logged_in, club, director):
    season = factories.competition(club, rounds_per_evening=1)
    evening = factories.evening(season, present=factories.members(club, 8))
    round_ = services.round_draw(evening=evening, by=director, seed=1)
    table = round_.tables.order_by("number").first()
    Game.objects.exclude(table=table).update(status="confirmed", confirmed_at=timezone.now())
    factories.hand(table.game, "A", 100, keeper="A")
    english = {"accept-language": "en"}
    response = logged_in.post(
        url("evening-status", club, pk=evening.pk),
        {"status": "finished"},
        headers=english,
        follow=True,
    )
    assert "1 table has not confirmed its game yet." in response.text
    page = logged_in.get(round_.get_absolute_url(), headers=english).text
    assert "1 hand ·" in page and "1 hands" not in page


def test_dates_in_words_follow_the_language(club):
    season = factories.competition(club)
    evening = factories.evening(season, datetime.date(2026, 10, 6))
    evening.counts_for_ranking = False
    evening.save()
    from tournaments.words import describe_settings

    with translation.override("nl"):
        assert str(evening).endswith("6 oktober 2026")
        assert any("6 oktober 2026" in str(words) for words in describe_settings(season))
    with translation.override("en"):
        assert str(evening).endswith("Oct. 6, 2026")


def test_what_destroys_or_closes_asks_first(logged_in, club, director):
    season = factories.competition(club, rounds_per_evening=1)
    evening = factories.evening(season, present=factories.members(club, 8))
    round_ = services.round_draw(evening=evening, by=director, seed=1)
    english = {"accept-language": "en"}
    page = logged_in.get(evening.get_absolute_url(), headers=english).text
    assert 'data-confirm="Close the evening? Its result becomes final."' in page
    assert "/static/js/confirm.js" in page
    page = logged_in.get(round_.get_absolute_url(), headers=english).text
    assert 'data-confirm="Take back this draw?' in page
    table = round_.tables.first()
    factories.hand(table.game, "A", 100, keeper="A")
    page = logged_in.get(f"/t/{table.token}/", headers=english).text
    assert 'data-confirm="Undo the last hand?' in page


def test_round_page_query_count_does_not_grow_with_tables(
    client, club, director, django_assert_max_num_queries
):
    season = factories.competition(club)
    small = factories.evening(season, present=factories.members(club, 8))
    large = factories.evening(season, present=factories.members(club, 40))
    rounds = [services.round_draw(evening=e, by=director) for e in (small, large)]
    client.force_login(director)
    with django_assert_max_num_queries(12) as small_queries:
        client.get(rounds[0].get_absolute_url())
    with django_assert_max_num_queries(12) as large_queries:
        client.get(rounds[1].get_absolute_url())
    assert len(large_queries) == len(small_queries)


def test_competition_page_lists_evenings_with_constant_queries(
    client, club, django_assert_max_num_queries
):
    season = factories.competition(club)
    for n in range(6):
        factories.evening(season, datetime.date(2026, 10, 1) + datetime.timedelta(weeks=n))
    with django_assert_max_num_queries(6):
        response = client.get(season.get_absolute_url())
    assert response.text.count("/evenings/") == 6


def test_competition_page_counts_each_present_player_once_however_many_rounds(
    client, club, director, django_assert_num_queries
):
    season = factories.competition(club)
    evening = factories.evening(season, present=factories.members(club, 14))
    for _ in range(3):
        services.round_draw(evening=evening, by=director)
    evenings = list(selectors.competition_evenings(competition=season))
    assert [(e.present, e.round_count) for e in evenings] == [(14, 3)]
    # One of them: the evenings that do not count, which the rules above the list name; the
    # competition comes through its club, so its links need no query for the club again.
    with django_assert_num_queries(5):
        response = client.get(season.get_absolute_url())
    assert '<td class="num">14</td><td class="num">3</td>' in response.text


ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def as_the_browser_sends(page_url, html, action):
    """The form's data as a browser posts it: a date input drops any value that is not ISO."""
    (form,) = [f for f in page_forms(page_url, html) if f.action == action]
    data = form.data()
    for field in form.fields:
        if field.kind == "date" and not ISO_DATE.fullmatch(field.value):
            data[field.name] = ""
    return data


def test_in_dutch_the_competition_edit_form_shows_its_dates_and_saves_them_unchanged(
    logged_in, club
):
    season = factories.competition(
        club, start_date=datetime.date(2026, 12, 1), end_date=datetime.date(2027, 5, 31)
    )
    edit_url = url("competition-edit", club, pk=season.pk)
    with translation.override("nl"):
        page = logged_in.get(edit_url, headers={"accept-language": "nl"})
        assert 'value="2026-12-01"' in page.text
        data = as_the_browser_sends(edit_url, page.text, edit_url)
        response = logged_in.post(edit_url, data, headers={"accept-language": "nl"})
    assert response.status_code == 302, response.context["form"].errors
    season.refresh_from_db()
    assert (season.start_date, season.end_date) == (
        datetime.date(2026, 12, 1),
        datetime.date(2027, 5, 31),
    )


def test_in_dutch_the_evening_and_period_forms_write_iso_dates(logged_in, club):
    season = factories.competition(club)
    evening = factories.evening(season, datetime.date(2026, 12, 1))
    with translation.override("nl"):
        assert 'value="2026-12-01"' in str(EveningForm(instance=evening)["date"])
        period = PeriodForm(initial={"start_date": datetime.date(2026, 12, 1)})
        assert 'value="2026-12-01"' in str(period["start_date"])


PAGES = [
    "competition-detail",
    "evening-detail",
    "round-detail",
    "competition-edit",
    "evening-attendance",
]


@pytest.mark.parametrize("page", PAGES)
def test_another_clubs_objects_answer_404(client, club, other_club, director, page):
    theirs = factories.competition(other_club)
    evening = factories.evening(theirs, present=factories.members(other_club, 4))
    their_director = factories.role(other_club, "director")
    round_ = services.round_draw(evening=evening, by=their_director)
    pk = {
        "competition-detail": theirs.pk,
        "competition-edit": theirs.pk,
        "evening-detail": evening.pk,
        "evening-attendance": evening.pk,
        "round-detail": round_.pk,
    }[page]
    client.force_login(director)
    # Their object under our club's address: 404, whatever our role.
    assert client.get(url(page, club, pk=pk)).status_code == 404


def test_scorer_cannot_draw(client, club):
    season = factories.competition(club)
    evening = factories.evening(season, present=factories.members(club, 8))
    client.force_login(factories.role(club, "scorer"))
    assert client.post(url("round-draw", club, pk=evening.pk)).status_code == 403
    assert not Round.objects.exists()


def test_pairs_and_periods_are_managed_on_the_competition_page(logged_in, club):
    season = factories.competition(club, kind="pairs")
    a, b, c = factories.members(club, 3)
    pairs_url = url("pair-add", club, pk=season.pk)
    logged_in.post(pairs_url, {"first": a.pk, "second": b.pk})
    response = logged_in.post(pairs_url, {"first": a.pk, "second": c.pk}, follow=True)
    assert "one pair" in response.text or "één" in response.text
    assert [(p.number, p.first, p.second) for p in season.pairs.all()] == [(1, a, b)]
    logged_in.post(
        url("period-add", club, pk=season.pk),
        {"name": "Najaar", "start_date": "2026-09-01", "end_date": "2026-12-31"},
    )
    response = logged_in.post(
        url("period-add", club, pk=season.pk),
        {"name": "Overlap", "start_date": "2026-12-01", "end_date": "2027-02-28"},
        follow=True,
    )
    assert list(season.periods.values_list("name", flat=True)) == ["Najaar"]
    page = logged_in.get(season.get_absolute_url()).text
    assert "Najaar" in page and a.name in page


def test_pairs_competition_without_pairs_says_to_form_them_and_links_there(logged_in, club):
    season = factories.competition(club, kind="pairs")
    evening = factories.evening(season, present=factories.members(club, 16))
    pairs_link = f'href="{season.get_absolute_url()}#pairs"'
    words = translation.gettext(
        "This pairs competition has no pairs yet: form the pairs on the competition "
        "page first, then draw the round."
    )
    page = logged_in.get(evening.get_absolute_url())
    assert words in html.unescape(page.text)
    assert pairs_link in page.text
    assert url("round-draw", club, pk=evening.pk) not in page.text  # no draw button
    # A draw posted anyway is refused with the same words, not "16 present".
    response = logged_in.post(url("round-draw", club, pk=evening.pk), follow=True)
    assert [str(m) for m in response.context["messages"]] == [words]
    assert pairs_link in response.text
    assert not Round.objects.exists()
    competition_page = logged_in.get(season.get_absolute_url())
    assert 'id="pairs"' in competition_page.text
