"""Guessing a password over the network: after five failures even the right one waits.

End to end through a real server (the live server, real HTTP, the login
page's CSRF cookie and token), as a script guessing passwords would meet it.
The rules themselves (per username, per address, the window) are tested in
``tests/clubs/test_auth.py``.
"""

import http.client
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth.backends import ModelBackend

from tests import factories

MAX_PER_USERNAME = settings.LOGIN_FAILURE_LIMITS["username"]

pytestmark = pytest.mark.django_db(transaction=True)

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def attempt(port, username, password, *, before_post=None, path="/accounts/login/"):
    """One login as a fresh client would send it: (status, cookies set)."""
    cookies = {}

    def request(method, body=None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for retry in range(5):  # the test server's short listen queue resets a crowd
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                text = response.read().decode()
                break
            except ConnectionResetError:
                if retry == 4:
                    raise
            finally:
                connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                cookies[name] = morsel.value
        return response.status, text

    _status, page = request("GET")
    token = CSRF_FIELD.search(page).group(1)
    fields = {"csrfmiddlewaretoken": token, "username": username, "password": password}
    if before_post:
        before_post()
    status, _text = request("POST", urlencode(fields))
    return status, set(cookies)


def test_guessing_a_password_over_http_is_stopped(live_server):
    factories.user("secretaris", password="juist-wachtwoord")
    port = urlsplit(live_server.url).port
    assert attempt(port, "secretaris", "juist-wachtwoord") == (302, {"csrftoken", "sessionid"})
    for n in range(MAX_PER_USERNAME):
        status, cookies = attempt(port, "secretaris", "fout")
        assert status == (429 if n == MAX_PER_USERNAME - 1 else 200)
        assert "sessionid" not in cookies
    status, cookies = attempt(port, "secretaris", "juist-wachtwoord")
    assert status == 429, "the right password is refused while the brake is on"
    assert "sessionid" not in cookies


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_concurrent_guesses_get_no_more_password_checks_than_the_limit(
    live_server, monkeypatch, path
):
    """Thirty guesses sent at the same moment: only five passwords are checked."""
    factories.user("secretaris", password="juist-wachtwoord", is_staff=True)
    port = urlsplit(live_server.url).port
    checks = []
    real_authenticate = ModelBackend.authenticate

    def counting_authenticate(self, request, username=None, password=None, **kwargs):
        checks.append(password)
        return real_authenticate(self, request, username=username, password=password, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counting_authenticate)
    guesses = 30
    start = threading.Barrier(guesses, timeout=60)

    def guess(n):
        return attempt(port, "secretaris", f"gok-{n}", before_post=start.wait, path=path)

    with ThreadPoolExecutor(max_workers=guesses) as pool:
        results = list(pool.map(guess, range(guesses)))
    assert len(checks) == MAX_PER_USERNAME
    assert all("sessionid" not in cookies for _status, cookies in results)
    assert sum(status == 429 for status, _cookies in results) >= guesses - MAX_PER_USERNAME + 1
    status, cookies = attempt(port, "secretaris", "juist-wachtwoord", path=path)
    assert status == 429 and "sessionid" not in cookies
