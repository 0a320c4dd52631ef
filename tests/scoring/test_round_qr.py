"""A round's QR codes: one per table, opening that table's entry page on a phone.

The codes are read back: the SVG's path is turned into modules again and
compared with the encoder's modules of the expected link, and the PDF's text is
extracted (it writes each link out under its code).
"""

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from common import qr
from tests import factories
from tests.scoring.test_table_entry import names_of

pytestmark = pytest.mark.django_db

RUN = re.compile(r"M(\d+) (\d+)h(\d+)v1h-\d+z")
LAPTOP = "192.168.1.20:8000"


def svg_modules(svg):
    """The dark modules of an SVG made by ``qr.qr_svg``, without the quiet zone."""
    side = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    size = side - 2 * qr.QUIET_ZONE
    grid = [[False] * size for _ in range(size)]
    for x, y, length in RUN.findall(re.search(r' d="([^"]*)"', svg).group(1)):
        for column in range(int(x), int(x) + int(length)):
            grid[int(y) - qr.QUIET_ZONE][column - qr.QUIET_ZONE] = True
    return grid


@pytest.fixture
def scorer(club):
    return factories.role(club, "scorer")


@pytest.fixture
def play(club, director):
    return factories.drawn_round(club, director, players=12)


def qr_url(play, name="round-qr"):
    club = play.season.club
    return reverse(f"scoring:{name}", kwargs={"club": club.slug, "pk": play.round.pk})


@pytest.fixture
def laptop(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.20"]


def test_the_svg_is_the_encoders_code_with_a_quiet_zone():
    url = "http://192.168.1.20:8000/t/abc/"
    svg = qr.qr_svg(url, label='Table "1" <b>')
    assert svg_modules(svg) == qr.qr_modules(url)
    side = len(qr.qr_modules(url)) + 8
    assert f'viewBox="0 0 {side} {side}"' in svg
    assert 'aria-label="Table &quot;1&quot; &lt;b&gt;"' in svg
    assert " id=" not in svg and "<script" not in svg and "http" not in svg


def test_each_table_gets_a_code_of_its_own_link_at_the_address_asked(client, scorer, play, laptop):
    client.force_login(scorer)
    response = client.get(qr_url(play), HTTP_HOST=LAPTOP)
    assert response.status_code == 200
    text = response.text
    svgs = re.findall(r"<svg class=\"qr-code\".*?</svg>", text)
    assert len(svgs) == len(play.tables) == 3
    for table, svg in zip(play.tables, svgs, strict=True):
        url = f"http://{LAPTOP}/t/{table.token}/"
        assert svg_modules(svg) == qr.qr_modules(url)
        assert f'href="{url}"' in text
        names = names_of(table)
        assert all(name in text for name in names.a + names.b)
    assert "noindex" in text
    assert "no-store" in response["Cache-Control"]
    assert "localhost" not in text.split("<main")[1]
    assert (
        reverse("scoring:round-qr-pdf", kwargs={"club": play.season.club.slug, "pk": play.round.pk})
        in text
    )


def test_opened_as_localhost_the_page_points_to_the_laptops_address(client, scorer, play, laptop):
    client.force_login(scorer)
    response = client.get(qr_url(play), HTTP_HOST="localhost:8000")
    assert response.context["addresses"] == [f"http://{LAPTOP}{qr_url(play)}"]
    assert 'class="qr-warning' in response.text
    on_laptop = client.get(qr_url(play), HTTP_HOST=LAPTOP)
    assert on_laptop.context["addresses"] == [] and not on_laptop.context["loopback"]
    assert 'class="qr-warning' not in on_laptop.text


def test_the_pdf_has_every_table_its_players_and_its_link(client, scorer, play, laptop):
    client.force_login(scorer)
    response = client.get(qr_url(play, "round-qr-pdf"), HTTP_HOST=LAPTOP)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("inline")
    # Named in the reader's language (Dutch by default) and stored nowhere.
    assert f'filename="{play.season.club.slug}-ronde-' in response["Content-Disposition"]
    assert response["Content-Disposition"].endswith('-qr.pdf"')
    assert {"private", "no-store", "no-cache"} <= {
        part.strip().split("=")[0] for part in response["Cache-Control"].split(",")
    }
    reader = PdfReader(io.BytesIO(b"".join(response.streaming_content)))
    text = "".join(page.extract_text() for page in reader.pages)
    flat = re.sub(r"\s+", "", text)
    assert play.season.name in text
    for table in play.tables:
        assert f"http://{LAPTOP}/t/{table.token}/" in flat
        names = names_of(table)
        assert all(re.sub(r"\s+", "", name) in flat for name in names.a + names.b)
    assert len(reader.pages) == 1  # six cards to a page


def pdf_text(response):
    reader = PdfReader(io.BytesIO(b"".join(response.streaming_content)))
    return re.sub(r"\s+", " ", "".join(page.extract_text() for page in reader.pages))


@pytest.mark.parametrize("name", ["scoring:round-qr-pdf", "exports:round-scoresheets"])
def test_pdfs_printed_as_localhost_warn_that_their_codes_will_not_work(
    client, scorer, play, laptop, name
):
    client.force_login(scorer)
    url = reverse(name, kwargs={"club": play.season.club.slug, "pk": play.round.pk})
    english = {"accept-language": "en"}
    for host in ("localhost:8000", "127.0.0.1:8000"):
        text = pdf_text(client.get(url, HTTP_HOST=host, headers=english))
        assert "Printed from localhost: these codes lead to the computer" in text
    text = pdf_text(client.get(url, HTTP_HOST=LAPTOP, headers=english))
    assert "Printed from localhost" not in text


def test_seven_tables_take_two_pages():
    codes = tuple(qr.TableCode(number=n, url=f"http://laptop/t/{n}/") for n in range(1, 8))
    sheet = qr.CodeSheet(
        title="Wintercompetitie",
        subtitle="Ronde 1",
        table_label="Tafel %(number)s",
        wij="wij",
        zij="zij",
        hint="",
        codes=codes,
    )
    reader = PdfReader(io.BytesIO(qr.code_sheet_pdf(sheet)))
    assert len(reader.pages) == 2
    assert "Tafel 7" in reader.pages[1].extract_text()


@pytest.mark.parametrize("name", ["round-qr", "round-qr-pdf"])
def test_only_scorers_and_directors_see_the_codes(client, club, play, name):
    url = qr_url(play, name)
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    client.force_login(factories.role(club, "member"))
    assert client.get(url).status_code == 403
    client.force_login(factories.role(club, "director"))
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("name", ["round-qr", "round-qr-pdf"])
def test_another_clubs_round_is_404(client, club, other_club, play, name):
    client.force_login(factories.role(other_club, "director"))
    assert client.get(qr_url(play, name)).status_code == 404
    other = reverse(f"scoring:{name}", kwargs={"club": other_club.slug, "pk": play.round.pk})
    assert client.get(other).status_code == 404


def test_qr_page_query_count_is_pinned(client, scorer, play, django_assert_num_queries):
    client.force_login(scorer)
    # session, user, club, role, round, tables, seats
    with django_assert_num_queries(7):
        response = client.get(qr_url(play))
    assert response.status_code == 200
