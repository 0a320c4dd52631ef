"""Dutch is the default language; the committed .mo files match their .po files."""

import ast
import gettext
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.needs import missing

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = sorted(ROOT.glob("locale/*/LC_MESSAGES/*.po"))


def _unquote(line):
    return ast.literal_eval(line)


def parse_po(path, *, translated_only=True):
    """Entries of a .po file: {(context, msgid): msgstr or plural tuple}.

    With ``translated_only`` (the default) fuzzy and untranslated entries are left
    out, as msgfmt leaves them out of the .mo file.
    """
    entries, entry, key, fuzzy = {}, {}, None, False

    def flush():
        nonlocal entry, fuzzy
        if entry.get("msgid") and not (fuzzy and translated_only):
            if "msgid_plural" in entry:
                value = tuple(v for k, v in sorted(entry.items()) if k.startswith("msgstr["))
            else:
                value = entry.get("msgstr", "")
            if (all(value) if isinstance(value, tuple) else value) or not translated_only:
                entries[(entry.get("msgctxt"), entry["msgid"])] = value
        entry, fuzzy = {}, False

    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            flush()
            key = None
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[key] += _unquote(line)
        else:
            key, _, rest = line.partition(" ")
            entry[key] = _unquote(rest)
    return entries


def test_there_is_a_dutch_catalog():
    assert ROOT / "locale/nl/LC_MESSAGES/django.po" in CATALOGS


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_mo_file_matches_its_po_file(po):
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run make messages"
    with mo.open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)._catalog
    compiled = {}
    for key, value in catalog.items():
        if key == "":
            continue
        if isinstance(key, tuple):
            msgid, index = key
            context, _, msgid = msgid.rpartition("\x04") if "\x04" in msgid else (None, "", msgid)
            compiled.setdefault((context or None, msgid), {})[index] = value
        else:
            context, _, msgid = key.rpartition("\x04") if "\x04" in key else (None, "", key)
            compiled[(context or None, msgid)] = value
    compiled = {
        k: tuple(v[i] for i in sorted(v)) if isinstance(v, dict) else v for k, v in compiled.items()
    }
    source = parse_po(po)
    # Plural entries are keyed by their singular msgid in both.
    assert set(source) == set(compiled), "run make messages: .po and .mo disagree"
    assert source == compiled


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_dutch_message_is_translated(domain):
    po = ROOT / f"locale/nl/LC_MESSAGES/{domain}.po"
    text = po.read_text(encoding="utf-8")
    blocks = [b for b in text.split("\n\n")[1:] if "msgid" in b]
    untranslated = [b for b in blocks if b.rstrip().endswith('msgstr ""') or "#, fuzzy" in b]
    assert untranslated == [], (
        f"{len(untranslated)} untranslated entries, first: {untranslated[:1]}"
    )


def test_every_translatable_string_is_in_the_catalog(tmp_path):
    """makemessages on a copy finds no msgid that the committed catalogs lack."""
    if not shutil.which("xgettext"):
        missing("GNU gettext is not installed (apt-get install gettext)")
    copy = tmp_path / "site"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv",
            ".git",
            "var",
            "staticfiles",
            "__pycache__",
            "*.egg-info",
            "test-artifacts",
            "tests",
        ),
    )
    absent = []
    for domain in ("django", "djangojs"):
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-d", domain, "-l", "nl"]
            + ["--no-obsolete", "--no-location"],
            cwd=copy,
            check=True,
            capture_output=True,
            env={"DJANGO_SETTINGS_MODULE": "config.settings.test", "PATH": "/usr/bin:/bin"},
        )
        po = f"locale/nl/LC_MESSAGES/{domain}.po"
        fresh = set(parse_po(copy / po, translated_only=False))
        committed = set(parse_po(ROOT / po, translated_only=False))
        absent += [f"{domain}: {msgid}" for _context, msgid in sorted(fresh - committed)]
    assert absent == [], f"not in the catalog, run make messages: {absent[:10]}"
