"""Logging in, with a brake on guessing passwords."""

import datetime

import pytest
from django.urls import reverse

from clubs.auth import MAX_PER_ADDRESS, MAX_PER_USERNAME
from clubs.models import LoginFailure
from tests import factories

pytestmark = pytest.mark.django_db


def attempt(client, username, password, ip="127.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_after_five_failures_even_the_right_password_must_wait(client):
    factories.user("secretaris", password="juist-wachtwoord")
    for _ in range(MAX_PER_USERNAME):
        assert attempt(client, "secretaris", "fout").status_code == 200
    response = attempt(client, "secretaris", "juist-wachtwoord")
    assert response.status_code == 200
    assert "kwartier" in response.text
    assert "_auth_user_id" not in client.session


def test_the_wait_ends_after_the_window(client):
    factories.user("secretaris", password="juist-wachtwoord")
    for _ in range(MAX_PER_USERNAME):
        attempt(client, "secretaris", "fout")
    LoginFailure.objects.update(created_at=datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC))
    response = attempt(client, "secretaris", "juist-wachtwoord")
    assert response.status_code == 302
    assert not LoginFailure.objects.filter(username="secretaris").exists()


def test_many_usernames_from_one_address_are_slowed_down(client):
    factories.user("echte", password="juist-wachtwoord")
    for n in range(MAX_PER_ADDRESS):
        attempt(client, f"gok{n}", "fout", ip="192.0.2.7")
    assert "kwartier" in attempt(client, "echte", "juist-wachtwoord", ip="192.0.2.7").text
    assert attempt(client, "echte", "juist-wachtwoord", ip="192.0.2.8").status_code == 302


def test_a_wrong_password_says_so_in_dutch(client):
    response = attempt(client, "niemand", "fout")
    assert "komen niet overeen" in response.text
