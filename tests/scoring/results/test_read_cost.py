"""What a read costs (``common.pagecache``): the polled pages answer 304 to their ETag,
an anonymous visitor gets the bytes another's request rendered, every change to what
they show gives them a new ETag, one viewer never gets another's page, and public
pages set no cookie and say how a proxy may keep them."""

import datetime
import inspect

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.test import Client
from django.urls import reverse

from clubs import services as club_services
from clubs.models import Club
from common.catalog import catalog_url
from common.pagecache import versioned
from scoring import services as scoring_services
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import Evening

pytestmark = pytest.mark.django_db
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def empty_page_cache():
    caches["default"].clear()


@pytest.fixture
def admin(club):
    return factories.role(club, "admin")


@pytest.fixture
def play(club, admin):
    return factories.drawn_round(club, admin, players=4)


def result_url(evening, **query):
    url = reverse(
        "results:evening", kwargs={"club": evening.competition.club.slug, "pk": evening.pk}
    )
    return url + ("?board=1" if query.get("board") else "")


def page_urls(play):
    club = play.evening.competition.club.slug
    return [
        result_url(play.evening, board=True),
        reverse("results:standings", kwargs={"club": club, "pk": play.season.pk}),
        reverse("results:player", kwargs={"club": club, "pk": play.members[0].pk}),
    ]


def fragment_url(evening):
    url = reverse(
        "scoring:evening-scores",
        kwargs={"club": evening.competition.club.slug, "pk": evening.pk},
    )
    return f"{url}?fragment=1"


@pytest.mark.parametrize("page", [0, 1, 2], ids=["board", "standings", "player"])
def test_a_second_poll_with_the_etag_gets_a_304_without_a_body(client, play, page):
    url = page_urls(play)[page]
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"].startswith('"')
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200


def test_the_first_visitor_renders_and_the_next_get_the_cached_bytes(
    client, play, django_assert_num_queries
):
    url = result_url(play.evening, board=True)
    first = client.get(url)
    # The club (the permission check) and the evening's version: nothing else.
    with django_assert_num_queries(2):
        cached = Client().get(url)
    assert cached.status_code == 200 and cached.content == first.content
    assert cached["ETag"] == first["ETag"]
    with django_assert_num_queries(2):
        assert Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_an_anonymous_public_page_sets_no_cookie_and_a_proxy_may_keep_it(client, play):
    for url in page_urls(play):
        response = client.get(url)
        assert response.status_code == 200
        assert not response.cookies, url
        assert "csrfmiddlewaretoken" not in response.text
        control = {part.strip() for part in response["Cache-Control"].split(",")}
        assert control == {"public", "max-age=0", "must-revalidate"}, url
        assert "Accept-Language" in response["Vary"]
    # The language switch still works: a GET that sets only the language cookie.
    switched = client.get(reverse("language"), {"language": "en", "next": url})
    assert switched.status_code == 302 and switched["Location"] == url
    assert switched.cookies["django_language"].value == "en"
    assert client.get(url).headers["Content-Language"] == "en"
    assert client.get(reverse("language"), {"next": "https://evil.example/"})["Location"] == "/"


def test_a_logged_in_viewer_gets_a_page_of_their_own_and_the_posting_switch(client, play, admin):
    url = result_url(play.evening)
    anonymous = client.get(url)
    client.force_login(admin)
    own = client.get(url)
    assert own.status_code == 200 and own["ETag"] != anonymous["ETag"]
    assert admin.get_username() in own.text
    assert admin.get_username() not in anonymous.text
    assert "private" in own["Cache-Control"] and "public" not in own["Cache-Control"]
    assert 'action="/i18n/setlang/" method="post"' in own.text
    assert "csrfmiddlewaretoken" in own.text
    # Their browser sending the anonymous copy's ETag gets their page, not a 304.
    assert client.get(url, HTTP_IF_NONE_MATCH=anonymous["ETag"]).status_code == 200
    # Another account, another page; and no anonymous visitor gets theirs.
    other = factories.role(play.evening.competition.club, "member")
    second = Client()
    second.force_login(other)
    theirs = second.get(url)
    assert theirs["ETag"] not in (own["ETag"], anonymous["ETag"])
    assert admin.get_username() not in theirs.text
    assert admin.get_username() not in Client().get(url).text
    # The GET switch changes no logged-in viewer's language.
    assert not client.get(reverse("language"), {"language": "en"}).cookies


def test_each_language_has_its_own_etag_and_cached_page(client, play):
    url = result_url(play.evening)
    dutch = client.get(url)
    english = Client().get(url, **ENGLISH)
    assert dutch["ETag"] != english["ETag"]
    assert dutch.text != english.text
    assert Client().get(url, HTTP_IF_NONE_MATCH=dutch["ETag"], **ENGLISH).status_code == 200
    assert Client().get(url).content == dutch.content


def test_a_private_clubs_page_is_never_served_to_a_stranger(client, club, play, admin):
    Club.objects.filter(pk=club.pk).update(results_public=False)
    url = result_url(play.evening)
    client.force_login(admin)
    seen = client.get(url)
    assert seen.status_code == 200
    assert Client().get(url).status_code == 404
    assert Client().get(url, HTTP_IF_NONE_MATCH=seen["ETag"]).status_code == 404


def test_the_directors_fragment_is_shared_per_role_and_answers_304(client, club, play, admin):
    scorer = factories.role(club, "scorer")
    url = fragment_url(play.evening)
    client.force_login(admin)
    director_page = client.get(url)
    assert director_page.status_code == 200 and "private" in director_page["Cache-Control"]
    assert "no-store" not in director_page["Cache-Control"]
    sheet = reverse("scoring:game-sheet", kwargs={"club": club.slug, "pk": play.table.pk})
    assert sheet in director_page.text
    scorer_client = Client()
    scorer_client.force_login(scorer)
    scorer_page = scorer_client.get(url)
    assert sheet not in scorer_page.text and scorer_page["ETag"] != director_page["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=director_page["ETag"]).status_code == 304
    factories.hand(play.game)
    changed = client.get(url, HTTP_IF_NONE_MATCH=director_page["ETag"])
    assert changed.status_code == 200 and changed.content != director_page.content


def test_a_tables_page_answers_its_phone_304_until_a_hand_and_is_never_shared(client, play):
    url = reverse("scoring:table-entry", kwargs={"token": play.table.token})
    first = client.get(url)
    assert first.status_code == 200 and first.cookies["csrftoken"]  # its forms' token
    control = {part.strip() for part in first["Cache-Control"].split(",")}
    assert control == {"private", "no-cache"}
    page = client.get(url)  # now with the CSRF cookie the page's tokens fit
    assert client.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    other_phone = Client()
    other_phone.get(url)
    assert other_phone.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 200
    factories.hand(play.game)
    changed = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
    assert changed.status_code == 200 and 'name="number" value="2"' in changed.text


# --- Every change to what the pages show gives them a new ETag --------------------------


def _hand_entered(play, admin):
    factories.hand(play.game)


def _hand_undone(play, admin):
    scoring_services.hand_undo(game=play.game, by=admin)


def _sheet_corrected(play, admin):
    scoring_services.game_enter_sheet(game=play.game, rows=[factories.hand_input()] * 2, by=admin)


def _game_confirmed(play, admin):
    scoring_services.game_enter_sheet(game=play.game, rows=[factories.hand_input()] * 16, by=admin)
    play.game.refresh_from_db()
    yield
    scoring_services.game_confirm(game=play.game, name="Tegenpartij")


def _adjusted(play, admin):
    scoring_services.adjustment_record(
        evening=play.evening,
        kind="director",
        points=10,
        reason="laat",
        by=admin,
        member=play.members[0],
    )


def _checked_in(play, admin):
    member = factories.member(play.evening.competition.club)
    tournament_services.attendance_set(
        evening=play.evening, member=member, status="present", by=admin
    )


def _check_in_undone(play, admin):
    member = factories.member(play.evening.competition.club)
    tournament_services.attendance_set(
        evening=play.evening, member=member, status="present", by=admin
    )
    yield
    tournament_services.attendance_set(evening=play.evening, member=member, status=None, by=admin)


def _all_checked_in(play, admin):
    factories.member(play.evening.competition.club)
    tournament_services.attendance_all_present(evening=play.evening, by=admin)


def _round_taken_back(play, admin):
    tournament_services.round_delete(round_=play.round, by=admin)


def _round_drawn(play, admin):
    tournament_services.round_delete(round_=play.round, by=admin)
    yield
    tournament_services.round_draw(evening=play.evening, by=admin, seed=2)


def _seats_swapped(play, admin):
    first, second = play.round.seats.order_by("pk")[:2]
    tournament_services.seat_swap(round_=play.round, first=first, second=second, by=admin)


def _closed(play, admin):
    for _step in _game_confirmed(play, admin):
        pass  # entered and confirmed
    yield
    tournament_services.evening_set_status(evening=play.evening, status="finished", by=admin)


def _reopened(play, admin):
    for _step in _closed(play, admin):
        pass  # closed
    yield
    tournament_services.evening_set_status(evening=play.evening, status="in_play", by=admin)


def _competition_renamed(play, admin):
    tournament_services.competition_update(competition=play.season, by=admin, name="Zomer")


def _period_added(play, admin):
    tournament_services.period_add(
        competition=play.season,
        name="Najaar",
        start_date=datetime.date(2026, 9, 1),
        end_date=datetime.date(2026, 12, 31),
        by=admin,
    )


def _member_renamed(play, admin):
    club_services.member_update(member=play.members[0], by=admin, name="Speler Nieuw")


def _members_merged(play, admin):
    club = play.evening.competition.club
    keep, remove = factories.member(club), factories.member(club)
    club_services.member_merge(keep=keep, remove=remove, by=admin)


def _member_erased(play, admin):
    member = play.members[1]
    club_services.member_forget(member=member, by=admin, confirm_name=member.name)


def _club_renamed(play, admin):
    club_services.club_update(club=play.evening.competition.club, by=admin, name="De Troef")


def _evening_added(play, admin):
    tournament_services.evening_create(
        competition=play.season, date=datetime.date(2027, 1, 5), by=admin
    )


WRITES = [
    _hand_entered,
    _hand_undone,
    _sheet_corrected,
    _game_confirmed,
    _adjusted,
    _checked_in,
    _check_in_undone,
    _all_checked_in,
    _round_taken_back,
    _round_drawn,
    _seats_swapped,
    _closed,
    _reopened,
    _competition_renamed,
    _period_added,
    _member_renamed,
    _members_merged,
    _member_erased,
    _club_renamed,
    _evening_added,
]


@pytest.mark.parametrize("write", WRITES, ids=[w.__name__.strip("_") for w in WRITES])
def test_every_change_gives_the_pages_a_new_etag(client, play, admin, write):
    """A write is a function (the change) or a generator (what goes before, then the
    change after its ``yield``)."""
    if write is _hand_undone:
        factories.hand(play.game)
    steps = write(play, admin) if inspect.isgeneratorfunction(write) else None
    if steps is not None:
        next(steps)
    urls = page_urls(play)
    before = [client.get(url) for url in urls]
    assert all(page.status_code == 200 for page in before)
    if steps is None:
        write(play, admin)
    else:
        next(steps, None)
    for url, page in zip(urls, before, strict=True):
        again = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
        assert again.status_code == 200, (write.__name__, url)
        assert again["ETag"] != page["ETag"]


def test_a_hand_changes_the_boards_bytes_for_the_next_visitor(client, play):
    url = result_url(play.evening, board=True)
    before = client.get(url)
    factories.hand(play.game)
    after = Client().get(url)
    assert after.content != before.content


def test_a_stale_copy_saved_after_a_change_still_gives_a_new_version(play, admin):
    # An evening read before a hand, saved after it, writes its old version back; the
    # save gives it a new one, never one handed out before.
    stale = Evening.objects.get(pk=play.evening.pk)
    factories.hand(play.game)
    seen = Evening.objects.get(pk=play.evening.pk).version
    stale.note = "later"
    stale.save()
    assert Evening.objects.get(pk=play.evening.pk).version not in (seen, stale.version)


# --- The JavaScript catalog ------------------------------------------------------------


def test_the_catalog_at_its_versioned_address_is_kept_a_year(client):
    dutch_url, english_url = catalog_url("nl"), catalog_url("en")
    assert dutch_url != english_url and dutch_url.startswith(reverse("javascript-catalog"))
    dutch = client.get(dutch_url, **ENGLISH)  # the address says the language
    control = {part.strip() for part in dutch["Cache-Control"].split(",")}
    assert control == {"public", "max-age=31536000", "immutable"}
    assert dutch["Content-Language"] == "nl"
    assert dutch.content != client.get(english_url).content
    assert not dutch.cookies
    plain = client.get(reverse("javascript-catalog"))
    assert "immutable" not in plain["Cache-Control"] and "no-cache" in plain["Cache-Control"]
    stale = client.get(reverse("javascript-catalog"), {"l": "nl", "v": "old"})
    assert "immutable" not in stale["Cache-Control"]


def test_the_table_page_loads_the_versioned_catalog(client, play):
    response = client.get(reverse("scoring:table-entry", kwargs={"token": play.table.token}))
    assert catalog_url("nl").replace("&", "&amp;") in response.text


def test_hashed_static_files_are_kept_for_ever(settings, tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "board.0123456789ab.js").write_text("// board")
    (tmp_path / "staticfiles.json").write_text(
        '{"paths": {"js/board.js": "js/board.0123456789ab.js"}, "version": "1.1"}'
    )
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    response = Client().get("/static/js/board.0123456789ab.js")
    assert response.status_code == 200
    control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"public", "immutable"} <= control
    assert int(next(p for p in control if p.startswith("max-age="))[8:]) >= 31536000


def test_a_shared_page_that_holds_a_csrf_token_is_neither_kept_nor_tagged(rf):
    @versioned(lambda request: "1")
    def page(request):
        return HttpResponse(f"<form>{get_token(request)}</form>")

    request = rf.get("/a-form/")
    request.user = AnonymousUser()
    response = page(request)
    assert response.status_code == 200 and "ETag" not in response
    assert "private" in response["Cache-Control"] and "public" not in response["Cache-Control"]
    assert caches["default"].get(f"page:{request.page_tag}") is None
