"""Markup every player can use (Issue 18): a unique title per page, the language
switcher's options in their own language, sortable headers that say how they sort,
tables that scroll sideways reachable by keyboard, the played team not only underlined."""

import re

import pytest
from django.utils import translation
from django.utils.html import escape

from scoring.messages import MARK_LEGENDS
from scoring.models import Game
from scoring.rules.sheet import MarkStyle
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(club, drawn_evening):
    director = factories.role(club, "director", factories.user("leider"))
    played = drawn_evening(club, director)
    factories.hand(Game.objects.get(pk=played.games[0].pk), "B", 60, keeper="A")
    factories.hand(Game.objects.get(pk=played.games[0].pk), "A", 162, pit="A")
    return played


def main_pages(club, played):
    base = f"/clubs/{club.slug}"
    member = played.tables[0].seats.first().member
    return [
        "/",
        f"{base}/",
        f"{base}/members/",
        f"{base}/competitions/{played.season.pk}/",
        f"{base}/competitions/{played.season.pk}/standings/",
        f"{base}/evenings/{played.evening.pk}/",
        f"{base}/evenings/{played.evening.pk}/scores/",
        f"{base}/evenings/{played.evening.pk}/result/",
        f"{base}/rounds/{played.round.pk}/",
        f"{base}/tables/{played.tables[0].pk}/sheet/",
        f"{base}/players/{member.pk}/",
        f"/t/{played.tables[0].token}/",
        f"/t/{played.tables[1].token}/",
        "/trickcheck/",
        f"/trickcheck/clubs/{club.slug}/",
        f"{base}/members/new/",
        f"{base}/members/{member.pk}/",
        f"{base}/members/{member.pk}/edit/",
        f"{base}/competitions/new/",
        f"{base}/competitions/{played.season.pk}/edit/",
        f"{base}/competitions/{played.season.pk}/evenings/new/",
        f"{base}/evenings/{played.evening.pk}/attendance/",
        f"{base}/evenings/{played.evening.pk}/audit/",
        f"{base}/rounds/{played.round.pk}/qr/",
    ]


def title(html):
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()


def test_the_main_pages_have_titles_of_their_own(client, club, played):
    client.force_login(factories.user("gast"))
    client.get("/accounts/login/")
    titles = {"/accounts/login/": title(client.get("/accounts/login/").text)}
    client.force_login(played.tables[0].round.evening.competition.club.roles.first().user)
    for path in main_pages(club, played):
        response = client.get(path)
        assert response.status_code == 200, path
        titles[path] = title(response.text)
    seen = {}
    for path, text in titles.items():
        seen.setdefault(text, []).append(path)
    assert {text: paths for text, paths in seen.items() if len(paths) > 1} == {}


def test_the_language_options_are_marked_in_their_own_language(client):
    html = client.get("/").text
    assert re.search(r'<option value="en" lang="en"', html)
    assert re.search(r'<option value="nl" lang="nl"', html)


def test_sortable_headers_say_how_the_table_is_sorted(client, club, played):
    client.force_login(club.roles.first().user)
    html = client.get(f"/clubs/{club.slug}/members/?sort=-name").text
    headers = re.findall(r"<th[^>]*aria-sort=\"(\w+)\"", html)
    assert "descending" in headers and set(headers) <= {"none", "ascending", "descending"}


def test_tables_that_scroll_sideways_are_reachable_by_keyboard(client, club, played):
    client.force_login(club.roles.first().user)
    scores = f"/clubs/{club.slug}/evenings/{played.evening.pk}/scores/"
    for path in (f"/t/{played.tables[0].token}/", scores):
        wraps = re.findall(r'<div class="table-wrap"[^>]*>', client.get(path).text)
        assert wraps, path
        for wrap in wraps:
            assert 'role="region"' in wrap and 'tabindex="0"' in wrap and "aria-label=" in wrap


def test_the_played_team_is_shown_by_a_symbol_and_a_word(client, played):
    html = client.get(f"/t/{played.tables[0].token}/").text
    row = re.search(r'<tr id="hand-1">.*?</tr>', html, re.S).group(0)
    zij = re.search(r'<td class="num zij played">(.*?)</td>', row, re.S).group(1)
    assert "▶" in zij
    assert "visually-hidden" in zij


def test_pit_is_spelled_out_beside_its_m(client, played):
    html = client.get(f"/t/{played.tables[0].token}/").text
    row = re.search(r'<tr id="hand-2">.*?</tr>', html, re.S).group(0)
    assert re.search(r'<span aria-hidden="true">M</span>', row)
    assert re.search(r'<span class="visually-hidden">pit \(mars\)</span>', row)
    # The legend under the sheet, visible: the club's marks (today's by default).
    with translation.override("nl"):
        assert escape(str(MARK_LEGENDS[MarkStyle.PIT_TEAM])) in html
