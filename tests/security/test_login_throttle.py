"""Guessing a password over the network: after five failures even the right one waits.

End to end through a real server (the live server, real HTTP, the login
page's CSRF cookie and token), as a script guessing passwords would meet it.
The rules themselves (per username, per address, the window) are tested in
``tests/clubs/test_auth.py``.
"""

import http.client
import re
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

import pytest

from clubs.auth import MAX_PER_USERNAME
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def attempt(port, username, password):
    """One login as a fresh client would send it: (status, cookies set)."""
    cookies = {}

    def request(method, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, "/accounts/login/", body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                cookies[name] = morsel.value
        return response.status, text

    _status, page = request("GET")
    token = CSRF_FIELD.search(page).group(1)
    fields = {"csrfmiddlewaretoken": token, "username": username, "password": password}
    status, _text = request("POST", urlencode(fields))
    return status, set(cookies)


def test_guessing_a_password_over_http_is_stopped(live_server):
    factories.user("secretaris", password="juist-wachtwoord")
    port = urlsplit(live_server.url).port
    assert attempt(port, "secretaris", "juist-wachtwoord") == (302, {"csrftoken", "sessionid"})
    for _ in range(MAX_PER_USERNAME):
        status, cookies = attempt(port, "secretaris", "fout")
        assert status == 200 and "sessionid" not in cookies
    status, cookies = attempt(port, "secretaris", "juist-wachtwoord")
    assert status == 200, "the right password is refused while the brake is on"
    assert "sessionid" not in cookies
