"""An uploaded file is never written to disk under the name its sender chose.

The member import and the results import are posted files named
``../../evil-<uuid>.csv``, one of ~100 KB (kept in memory by Django) and one of
~6 MB (larger than ``FILE_UPLOAD_MAX_MEMORY_SIZE``, so Django spools it to a
temporary file). Afterwards no file or folder whose name holds the uuid exists
under the project, the data folder, the upload temp folder or the system's
temporary folder, and nothing was written where the ``../..`` would lead.
"""

import os
import tempfile
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

SMALL = 100 * 1024
LARGE = 6 * 1024 * 1024


def _member_csv(size):
    """A member list of ~``size`` bytes: 100 members with a long address (a column
    the import ignores), padded with empty rows."""
    lines = ["naam;lidnummer;adres"]
    lines += [f"Uploadlid {n:03d};U{n:03d};Dorpsstraat {n} {'x' * 980}" for n in range(1, 101)]
    data = ("\n".join(lines) + "\n").encode()
    return data + b";;\n" * max(0, (size - len(data)) // 3)


def _places():
    places = {
        Path(settings.BASE_DIR),
        Path(settings.DATA_DIR),
        Path(tempfile.gettempdir()),
        Path.cwd(),
    }
    for name in ("FILE_UPLOAD_TEMP_DIR", "MEDIA_ROOT"):
        if getattr(settings, name, None):
            places.add(Path(getattr(settings, name)))
    return sorted(places)


def _found(marker):
    hits = []
    for place in _places():
        for root, dirs, files in os.walk(place):
            hits += [os.path.join(root, n) for n in dirs + files if marker in n]
        for up in ("..", "../.."):
            target = (place / up / f"evil-{marker}.csv").resolve()
            if target.exists():
                hits.append(str(target))
    return sorted(set(hits))


@pytest.fixture
def admin_client(world):
    client = Client()
    client.force_login(world[0].admin)
    return client


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["100KB", "6MB"])
def test_member_import_keeps_no_file_under_the_senders_name(admin_client, world, size):
    marker = uuid.uuid4().hex
    upload = SimpleUploadedFile(f"../../evil-{marker}.csv", _member_csv(size), "text/csv")
    url = reverse("clubs:member-import", kwargs={"club": world[0].club.slug})
    response = admin_client.post(url, {"file": upload})
    assert response.status_code == 200
    if size == SMALL:
        assert "Uploadlid 001" in response.text, "the preview shows the rows"
    else:
        assert "Uploadlid" not in response.text, "a file above 5 MB is refused"
    assert _found(marker) == []


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["100KB", "6MB"])
def test_results_import_keeps_no_file_under_the_senders_name(admin_client, world, size):
    a = world[0]
    marker = uuid.uuid4().hex
    export = reverse("exports:hands-csv", kwargs={"club": a.club.slug, "pk": a.season.pk})
    data = b"".join(admin_client.get(export).streaming_content)
    # Padded with one long quoted cell: the reader refuses it at once. (Padding
    # with blank lines instead makes the importer walk millions of empty rows.)
    data += b'"' + b"x" * max(0, size - len(data) - 3) + b'"\n'
    upload = SimpleUploadedFile(f"../../evil-{marker}.csv", data, "text/csv")
    url = reverse(
        "exports:results-import", kwargs={"club": a.club.slug, "pk": a.extra["pairs_season"].pk}
    )
    response = admin_client.post(url, {"file": upload})
    assert response.status_code == 200
    assert _found(marker) == []
