"""Security headers on every answer."""

import pytest

pytestmark = pytest.mark.django_db


def test_every_page_forbids_camera_microphone_location_and_the_like(client):
    policy = client.get("/")["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in policy


def test_every_page_allows_only_the_sites_own_scripts_and_styles(client):
    policy = client.get("/")["Content-Security-Policy"]
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_no_template_holds_inline_script_style_or_event_handlers():
    """What a strict policy would block: the templates keep none of it."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    inline_script = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
    json_script = re.compile(r"\|json_script:")
    style_attribute = re.compile(r"\sstyle\s*=", re.I)
    handler = re.compile(r"\son[a-z]+\s*=", re.I)
    found = []
    for path in root.glob("**/templates/**/*.html"):
        if ".venv" in path.parts:
            continue
        text = json_script.sub("", path.read_text(encoding="utf-8"))
        for name, pattern in [
            ("inline <script>", inline_script),
            ("style=", style_attribute),
            ("on...=", handler),
        ]:
            if pattern.search(text):
                found.append(f"{path.relative_to(root)}: {name}")
    assert found == []
