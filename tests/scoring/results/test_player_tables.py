"""The player page's evenings and partners: django-tables2 tables drawn from their
column specs (issue 16)."""

from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from common.formatting import day_text, format_decimal
from scoring.results import standings
from scoring.results.tables import partner_columns, player_evening_columns
from tests.htmltables import read_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def player_page(client, season_once):
    club, competition, members, _evenings, _director = season_once
    member = members[0]
    url = reverse("results:player", kwargs={"club": club.slug, "pk": member.pk})
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    with translation.override("en"):
        stats = standings.player_stats(member=member, competition=competition)
    return club, stats, response.content.decode()


def test_player_pages_headers_are_the_specs_titles(player_page):
    _club, _stats, html = player_page
    with translation.override("en"):
        evening_titles = [column.title for column in player_evening_columns()]
        partner_titles = [column.title for column in partner_columns()]
    (evenings,) = read_tables(html, "player-evenings")
    (partners,) = read_tables(html, "player-partners")
    assert evenings.titles == evening_titles
    assert evening_titles == ["Date", "Points", "Games", "Place", "Players", "In the standings"]
    assert partners.titles == partner_titles == ["Partner", "Games together", "Average together"]


def test_player_pages_rows_are_the_players_evenings_and_partners(player_page):
    club, stats, html = player_page
    (evenings,) = read_tables(html, "player-evenings")
    assert len(stats.evenings) == len(evenings.rows) == 3
    with translation.override("en"):
        for evening, (_classes, cells) in zip(stats.evenings, evenings.rows, strict=True):
            assert cells[0] == day_text(evening.evening.date)
            assert cells[1:5] == [
                str(evening.points),
                str(evening.games),
                str(evening.rank) if evening.rank is not None else "–",
                str(evening.players),
            ]
            link = reverse("results:evening", kwargs={"club": club.slug, "pk": evening.evening.pk})
            assert f'href="{link}"' in html
    (partners,) = read_tables(html, "player-partners")
    assert len(partners.rows) == len(stats.partners) > 0
    for partner, (_classes, cells) in zip(stats.partners, partners.rows, strict=True):
        assert cells[:2] == [partner.name, str(partner.games)]
        with translation.override("en"):
            assert cells[2] == format_decimal(Fraction(partner.points, partner.games), 1)
