"""A member's PIN is stored as a keyed hash: fast to check (the brake, not a slow hash,
stops guessing), useless without the site's secret key, and PINs stored by an earlier
version (a password hash) keep working and are stored anew on their first right use."""

from unittest import mock

import pytest
from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError

from clubs import auth, services
from clubs.models import Member
from clubs.services import member_pin_check, member_pin_set
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(club):
    return factories.member(club)


def right(member, pin):
    try:
        member_pin_check(member=Member.objects.get(pk=member.pk), pin=pin)
    except ValidationError:
        return False
    return True


def stored(member):
    return Member.objects.get(pk=member.pk).pin


def test_the_pin_is_stored_keyed_and_salted_never_as_itself(club, member):
    admin = factories.role(club, "admin")
    member_pin_set(member=member, pin="4711", by=admin)
    first = stored(member)
    assert first.startswith(auth.PIN_HASH_PREFIX) and "4711" not in first
    member_pin_set(member=member, pin="4711", by=admin)
    assert stored(member) != first  # a salt of its own each time
    assert right(member, "4711") and not right(member, "4712") and not right(member, "")


def test_a_pin_check_uses_no_password_hasher(club, member, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    member_pin_set(member=member, pin="123456", by=factories.role(club, "admin"))
    with mock.patch.object(auth, "check_password", side_effect=AssertionError("slow hash")):
        assert right(member, "123456")
        assert not right(member, "654321")


def test_the_key_decides_a_copied_database_does_not_open_with_another_key(club, member, settings):
    member_pin_set(member=member, pin="4711", by=factories.role(club, "admin"))
    settings.SECRET_KEY = "another site's secret key, long enough for the test settings"
    settings.SECRET_KEY_FALLBACKS = []
    assert not right(member, "4711")


def test_a_rotated_key_in_the_fallbacks_keeps_the_pins_and_stores_them_anew(club, member, settings):
    member_pin_set(member=member, pin="4711", by=factories.role(club, "admin"))
    before = stored(member)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "the new secret key of this site, long enough for the tests"
    assert right(member, "4711")
    after = stored(member)
    assert after != before and after.startswith(auth.PIN_HASH_PREFIX)
    settings.SECRET_KEY_FALLBACKS = []
    assert right(member, "4711") and stored(member) == after


def test_a_pin_stored_as_a_password_hash_is_accepted_then_stored_keyed(member):
    Member.objects.filter(pk=member.pk).update(pin=make_password("0815"))
    assert not right(member, "0816")
    assert not stored(member).startswith(auth.PIN_HASH_PREFIX)  # a wrong PIN changes nothing
    assert right(member, "0815")
    assert stored(member).startswith(auth.PIN_HASH_PREFIX)
    assert right(member, "0815") and not right(member, "0816")


def test_a_malformed_stored_value_is_refused_not_an_error(member):
    for value in ("pin-hmac-sha256$", "pin-hmac-sha256$salt", "garbage", "pbkdf2_sha256$1$x$y"):
        Member.objects.filter(pk=member.pk).update(pin=value)
        assert not right(member, "4711")


def refusal(member, pin, place=""):
    try:
        member_pin_check(member=Member.objects.get(pk=member.pk), pin=pin, place=place)
    except ValidationError as exc:
        return " ".join(exc.message_dict["pin"])
    return None


def test_one_table_cannot_go_round_its_players_five_tries_each(club):
    admin = factories.role(club, "admin")
    players = [factories.member(club) for _ in range(4)]
    for n, player in enumerate(players):
        member_pin_set(member=player, pin=f"{4711 + n}", by=admin)
    tries = 0
    for player in players[:3]:
        for _ in range(services.PIN_TRIES - 1):
            tries += 1
            assert "klopt niet" in refusal(player, "0000", "table:1")
            if tries == services.PIN_PLACE_TRIES:
                break
        if tries == services.PIN_PLACE_TRIES:
            break
    assert tries == services.PIN_PLACE_TRIES
    # the fourth player's right PIN is refused at that table, not at another
    assert "Te vaak" in refusal(players[3], "4714", "table:1")
    assert refusal(players[3], "4714", "table:2") is None


def test_a_member_has_twenty_wrong_pins_a_day_however_slowly_they_come(club, member):
    member_pin_set(member=member, pin="4711", by=factories.role(club, "admin"))
    now = [1_800_000_000.0]
    with mock.patch("time.time", lambda: now[0]):
        for _ in range(services.PIN_DAY_TRIES // (services.PIN_TRIES - 1)):
            for _ in range(services.PIN_TRIES - 1):
                assert "klopt niet" in refusal(member, "0000")
            now[0] += services.PIN_LOCK_SECONDS + 1
        assert "Vandaag te vaak" in refusal(member, "4711")
        now[0] += services.PIN_DAY_SECONDS + 1
        assert refusal(member, "4711") is None
        assert "klopt niet" in refusal(member, "0000")  # the right PIN cleared the day's count
