"""A club's short name in links is never one of the site's own words, nor empty of
letters: one validator on the model field (``common.text.validate_club_slug``), so
the "Start a club" form, the service, the admin and the archive import all refuse
it. The words come from the URL conf, so a new page is covered when it is added.
"""

import html

import pytest
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.urls import path, reverse

from clubs import services
from clubs.models import Club
from common.text import reserved_slugs
from config.urls import urlpatterns as site_urlpatterns
from scoring.exports import archive
from tests import factories

pytestmark = pytest.mark.django_db
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}

#: The site's own words today (new-club, import-club: its pages; t: a table's link).
RESERVED = [
    "admin",
    "Admin",
    "static",
    "media",
    "accounts",
    "i18n",
    "jsi18n",
    "clubs",
    "new-club",
    "import-club",
    "leagues",
    "my-results",
    "trickcheck",
    "t",
]
NO_LETTER = ["-", "--", "_", "-_-"]

#: A URL conf with one page more than the site's: ``urlpatterns`` of this module.
urlpatterns = [*site_urlpatterns, path("scorebord-2027/", lambda request: HttpResponse())]


def test_the_reserved_words_are_the_url_confs_first_segments_and_a_few_more():
    assert set(map(str.casefold, RESERVED)) <= reserved_slugs()
    assert {"de-hoge-troef", "klaverjasclub", "club-1"}.isdisjoint(reserved_slugs())


@pytest.mark.parametrize("slug", RESERVED + NO_LETTER)
def test_the_model_refuses_a_reserved_or_letterless_slug(slug):
    with pytest.raises(ValidationError) as refused:
        Club(name="Een club", slug=slug).full_clean()
    assert "slug" in refused.value.message_dict


@pytest.mark.parametrize("slug", RESERVED + NO_LETTER)
def test_starting_a_club_with_a_reserved_or_letterless_slug_is_refused(slug):
    with pytest.raises(ValidationError) as refused:
        services.club_create(
            by=factories.user(is_staff=True), name="Een club", slug=slug, ruleset_preset="rotterdam"
        )
    assert "slug" in refused.value.message_dict
    assert not Club.objects.exists()


@pytest.mark.parametrize(
    ("name", "slug", "message"),
    [
        ("Admin", "", "admin is a word of the site's own addresses"),
        ("Een club", "import-club", "import-club is a word of the site's own addresses"),
        ("Een club", "-", "A short name needs at least one letter or digit."),
    ],
)
def test_the_start_a_club_page_says_why(client, name, slug, message):
    client.force_login(factories.user(is_staff=True))
    response = client.post(
        reverse("clubs:club-create"),
        {"name": name, "slug": slug, "ruleset_preset": "rotterdam"},
        **ENGLISH,
    )
    assert response.status_code == 200
    assert html.escape(message) in response.text
    assert not Club.objects.exists()


def test_the_admin_refuses_a_reserved_slug(client):
    client.force_login(factories.user(is_staff=True, is_superuser=True))
    response = client.post(
        reverse("admin:clubs_club_add"),
        {"name": "Een club", "slug": "static", "ruleset_preset": "rotterdam", "town": ""},
        **ENGLISH,
    )
    assert response.status_code == 200
    assert html.escape("static is a word of the site's own addresses") in response.text
    assert not Club.objects.exists()


def test_the_archive_import_refuses_a_reserved_slug():
    club = factories.club(name="Klaverboer", slug="klaverboer")
    data = archive.club_archive_zip(club)
    with pytest.raises(ValidationError):
        archive.club_archive_import(data=data, by=factories.user(is_staff=True), slug="accounts")
    assert list(Club.objects.values_list("slug", flat=True)) == ["klaverboer"]


def test_a_new_top_level_page_is_reserved_the_day_it_is_added(settings):
    assert "scorebord-2027" not in reserved_slugs()
    settings.ROOT_URLCONF = __name__
    assert "scorebord-2027" in reserved_slugs()
    with pytest.raises(ValidationError):
        Club(name="Scorebord", slug="scorebord-2027").full_clean()
