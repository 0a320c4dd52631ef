"""Security headers on every answer."""

import pytest

pytestmark = pytest.mark.django_db


def test_every_page_forbids_camera_microphone_location_and_the_like(client):
    policy = client.get("/")["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in policy
