"""The player page's chart of points per evening: SVG wants plain numbers in every
language, so a Dutch page must not write its coordinates with a decimal comma."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["nl", "en"])
def test_the_charts_coordinates_are_plain_numbers_in_every_language(client, season_once, language):
    club, _competition, members, _evenings, _ = season_once
    url = reverse("results:player", kwargs={"club": club.slug, "pk": members[0].pk})
    text = client.get(url, HTTP_ACCEPT_LANGUAGE=language).text
    circles = re.findall(r'<circle cx="([^"]*)" cy="([^"]*)"', text)
    assert len(circles) == 3
    for value in (v for circle in circles for v in circle):
        assert re.fullmatch(r"\d+(\.\d+)?", value), value
    polyline = re.search(r'<polyline points="([^"]*)"', text).group(1)
    assert polyline == " ".join(f"{x},{y}" for x, y in circles)
