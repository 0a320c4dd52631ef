"""The site's frame: layout, languages, accounts, admin, no outside assets."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_home_page_is_dutch_by_default(client):
    response = client.get(reverse("clubs:home"))
    assert response.status_code == 200
    assert response.headers["Content-Language"] == "nl"
    assert 'lang="nl"' in response.text
    assert "Inloggen" in response.text


@pytest.mark.django_db
def test_english_is_the_second_language(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    response = client.get(reverse("clubs:home"))
    assert 'lang="en"' in response.text
    assert "Log in" in response.text


@pytest.mark.django_db
def test_login_and_logout_use_the_site_layout(client):
    from tests import factories

    factories.user("secretaris", password="geheim-wachtwoord")
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert "site-header" in page.text
    response = client.post(
        reverse("login"), {"username": "secretaris", "password": "geheim-wachtwoord"}
    )
    assert response.status_code == 302
    assert "secretaris" in client.get(reverse("clubs:home")).text
    response = client.post(reverse("logout"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("clubs:home")
    assert "secretaris" not in response.text
    assert "Inloggen" in response.text


@pytest.mark.django_db
def test_wrong_password_gets_a_message_in_dutch(client):
    response = client.post(reverse("login"), {"username": "niemand", "password": "fout"})
    assert response.status_code == 200
    assert "komen niet overeen" in response.text


@pytest.mark.django_db
def test_admin_site_is_enabled(admin_client):
    response = admin_client.get("/admin/")
    assert response.status_code == 200
    assert "clubs" in response.text


@pytest.mark.django_db
def test_unknown_page_is_a_friendly_404(client):
    response = client.get("/bestaat-niet/")
    assert response.status_code == 404
    assert "Niet gevonden" in response.text


def test_static_css_is_served_by_the_site_itself():
    css = (ROOT / "static/css/site.css").read_text()
    assert "@media print" in css


@pytest.mark.django_db
def test_every_page_has_the_clubs_favicon(client):
    page = client.get("/").text
    icon = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    assert icon and icon.group(1).endswith("img/favicon.svg")
    svg = (ROOT / "static/img/favicon.svg").read_text()
    assert svg.startswith("<svg") and "<script" not in svg
    assert 'rel="icon"' in (ROOT / "templates/base_print.html").read_text()


EXTERNAL = re.compile(r"""(src|href)\s*=\s*["'](https?:)?//""", re.I)
IMPORT_EXTERNAL = re.compile(r"@import\s+url\(\s*['\"]?(https?:)?//|url\(\s*['\"]?https?://", re.I)


def test_no_page_loads_anything_from_another_site():
    """Club halls often have no internet: every asset comes from the site itself."""
    offenders = []
    for path in list(ROOT.glob("templates/**/*.html")) + list(ROOT.glob("*/templates/**/*.html")):
        if ".venv" in path.parts:
            continue
        if EXTERNAL.search(path.read_text()):
            offenders.append(str(path.relative_to(ROOT)))
    for path in ROOT.glob("static/**/*"):
        if (
            path.is_file()
            and path.suffix in {".css", ".js"}
            and (IMPORT_EXTERNAL.search(path.read_text()) or "https://" in path.read_text())
        ):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
