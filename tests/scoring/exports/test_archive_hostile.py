"""Issue 24: the club archive imports only the club it carries.

A hostile corpus of club archives, each uploaded by a fresh sign-up next to a
private club with a played evening: foreign ids by every spelling, models and
fields the archive does not carry, accounts and PIN hashes, wrong types, huge and
nested files, wrong versions. Each is refused whole with the one clear message,
and afterwards every table of the site holds as many rows as before and the other
club's rows are as they were. Run on SQLite and on PostgreSQL.
"""

import copy
import io
import json
import zipfile

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from clubs.models import Club, ClubLog, Member
from clubs.services import CLUB_FIELDS, club_data_models, club_rows, member_pin_set
from scoring.exports import archive
from scoring.models import Adjustment, Game, Hand
from tests import factories
from tournaments.models import Evening, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def world(module_db, play_season):
    """A private club with a played evening and its administrator's account linked to a
    member; a fresh sign-up's own club with a played evening, and its archive."""
    victim = factories.club(name="Besloten Club", results_public=False)
    victim_admin = factories.role(victim, "admin")
    season, members, evenings, _director = play_season(victim, evenings=1, players=8, rounds=1)
    Member.objects.filter(pk=members[0].pk).update(user=victim_admin)
    attacker = factories.user("nieuwkomer")
    mine = factories.club(name="Mijn Club")
    factories.role(mine, "admin", attacker)
    play_season(mine, evenings=1, players=9, rounds=1)  # 9 players: a sit-out adjustment
    ClubLog.objects.create(
        club=mine,
        user=attacker,
        action=ClubLog.Action.MEMBER_IMPORT,
        summary="Leden ingelezen",
        detail={"phone": "0612345678"},
    )
    base = json.loads(archive.club_archive_json(mine))
    game = Game.objects.filter(table__round__evening__competition__club=victim).first()
    return {
        "victim": victim,
        "victim_admin": victim_admin,
        "attacker": attacker,
        "base": base,
        "member": members[1].pk,
        "game": game.pk,
        "table": game.table.pk,
        "round": game.table.round.pk,
        "evening": evenings[0].pk,
        "competition": season.pk,
        "token": game.table.token,
    }


@pytest.fixture(autouse=True)
def anyone_starts_a_club(settings):
    settings.CLUB_CREATION = "anyone"


def counts():
    """{model label: its table's rows} for every model of the site, in one query."""
    models = apps.get_models()
    quote = connection.ops.quote_name
    columns = ", ".join(f"(SELECT COUNT(*) FROM {quote(m._meta.db_table)})" for m in models)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns}")
        row = cursor.fetchone()
    return {model._meta.label: count for model, count in zip(models, row, strict=True)}


def club_state(club):
    state = {"club": list(Club.objects.filter(pk=club.pk).values())}
    for model, paths in club_data_models():
        state[model._meta.label] = list(club_rows(model, paths, club.pk).order_by("pk").values())
    return state


def first(data, label):
    return data["rows"][label][0]


def _set(label, **fields):
    def change(data, w):
        first(data, label).update({k: v(w) if callable(v) else v for k, v in fields.items()})

    return change


def _add_model(label, row):
    def change(data, w):
        data["rows"][label] = [row]

    return change


def _nested(depth):
    value = []
    for _ in range(depth):
        value = [value]
    return value


def _version(value):
    def change(data, w):
        data["version"] = value

    return change


def _old_layout(data, w):
    data.pop("rows")
    data["version"] = 1
    data["objects"] = [
        {"model": "clubs.member", "pk": 1, "fields": {"club": w["victim"].pk, "name": "X"}}
    ]


def _seat_at_another_rounds_table(data, w):
    """A second round with a table of its own; a seat of round 1 at that table."""
    round_ = first(data, "tournaments.round")
    data["rows"]["tournaments.round"].append({**round_, "id": 10**6, "number": 2})
    table = first(data, "tournaments.table")
    data["rows"]["tournaments.table"].append({**table, "id": 10**6, "round": 10**6})
    first(data, "tournaments.seat").update(table=10**6)


def _adjustment_in_another_evening(data, w):
    """A second evening; the sit-out of round 1 moved to it, its round left."""
    evening = first(data, "tournaments.evening")
    data["rows"]["tournaments.evening"].append(
        {**evening, "id": 10**6, "date": "2026-12-29", "status": "planned"}
    )
    first(data, "scoring.adjustment").update(evening=10**6)


def _member_numbers_twice(data, w):
    for row in data["rows"]["clubs.member"][:2]:
        row["membership_number"] = "17"


NOT_HERE = "which is not in this archive"
NO_FIELD = "a club archive has no such field"
NOT_CARRIED = "which a club archive does not carry"

#: (id, change to the attacker's own archive, a part of the message).
CORPUS = [
    # Foreign ids by every spelling: an unknown field, or a relation outside the file.
    (
        "member-club",
        _set("clubs.member", club=lambda w: w["victim"].pk),
        "field “club”: " + NO_FIELD,
    ),
    ("member-club_id", _set("clubs.member", club_id=lambda w: w["victim"].pk), "“club_id”"),
    (
        "member-user",
        _set("clubs.member", user=lambda w: w["victim_admin"].pk),
        "“user”: " + NO_FIELD,
    ),
    ("member-user_id", _set("clubs.member", user_id=lambda w: w["victim_admin"].pk), "“user_id”"),
    ("log-user_id", _set("clubs.clublog", user_id=lambda w: w["victim_admin"].pk), "“user_id”"),
    ("log-club_id", _set("clubs.clublog", club_id=lambda w: w["victim"].pk), "“club_id”"),
    ("hand-game", _set("scoring.hand", game=lambda w: w["game"]), NOT_HERE),
    ("hand-game_id", _set("scoring.hand", game_id=lambda w: w["game"]), "“game_id”"),
    ("adjustment-evening", _set("scoring.adjustment", evening=lambda w: w["evening"]), NOT_HERE),
    (
        "adjustment-evening_id",
        _set("scoring.adjustment", evening_id=lambda w: w["evening"]),
        NO_FIELD,
    ),
    ("adjustment-member", _set("scoring.adjustment", member=lambda w: w["member"]), NOT_HERE),
    ("adjustment-member_id", _set("scoring.adjustment", member_id=lambda w: w["member"]), NO_FIELD),
    ("adjustment-round_id", _set("scoring.adjustment", round_id=lambda w: w["round"]), NO_FIELD),
    ("adjustment-game_id", _set("scoring.adjustment", game_id=lambda w: w["game"]), NO_FIELD),
    (
        "adjustment-created_by",
        _set("scoring.adjustment", created_by=lambda w: w["victim_admin"].pk),
        NO_FIELD,
    ),
    (
        "evening-competition",
        _set("tournaments.evening", competition=lambda w: w["competition"]),
        NOT_HERE,
    ),
    (
        "evening-competition_id",
        _set("tournaments.evening", competition_id=lambda w: w["competition"]),
        NO_FIELD,
    ),
    ("seat-member", _set("tournaments.seat", member=lambda w: w["member"]), NOT_HERE),
    ("seat-table_id", _set("tournaments.seat", table_id=lambda w: w["table"]), NO_FIELD),
    ("seat-round", _set("tournaments.seat", round=lambda w: w["round"]), NOT_HERE),
    ("table-round", _set("tournaments.table", round=lambda w: w["round"]), NOT_HERE),
    ("table-token", _set("tournaments.table", token=lambda w: w["token"]), "“token”"),
    ("game-table", _set("scoring.game", table=lambda w: w["table"]), NOT_HERE),
    ("audit-game", _set("scoring.auditentry", game=lambda w: w["game"]), NOT_HERE),
    ("audit-user_id", _set("scoring.auditentry", user_id=lambda w: w["victim_admin"].pk), NO_FIELD),
    ("hand-entered_by", _set("scoring.hand", entered_by=lambda w: w["victim_admin"].pk), NO_FIELD),
    (
        "eveninglog-user",
        _set("tournaments.eveninglog", user=lambda w: w["victim_admin"].pk),
        NO_FIELD,
    ),
    (
        "period-competition",
        _add_model(
            "tournaments.period",
            {
                "id": 1,
                "competition": 10**6,
                "name": "Najaar",
                "start_date": "2026-09-01",
                "end_date": "2026-12-31",
            },
        ),
        NOT_HERE,
    ),
    # Relations of one row that lead to different rows.
    (
        "seat-table-of-another-round",
        _seat_at_another_rounds_table,
        "tournaments.seat, row 1, field “table”: it leads to tournaments.round 1000000",
    ),
    (
        "adjustment-round-of-another-evening",
        _adjustment_in_another_evening,
        "scoring.adjustment, row 1, field “round”",
    ),
    # Models the archive does not carry.
    (
        "auth.user",
        _add_model("auth.user", {"id": 1, "username": "x", "is_superuser": True}),
        NOT_CARRIED,
    ),
    ("clubrole", _add_model("clubs.clubrole", {"id": 1, "user": 1, "role": "admin"}), NOT_CARRIED),
    ("invitation", _add_model("clubs.invitation", {"id": 1, "role": "admin"}), NOT_CARRIED),
    ("roletrace", _add_model("clubs.roletrace", {"id": 1, "user": 1, "club_id": 1}), NOT_CARRIED),
    ("eveningtotals", _add_model("scoring.eveningtotals", {"id": 1, "sums": ""}), NOT_CARRIED),
    ("leagues", _add_model("leagues.league", {"id": 1, "name": "Liga"}), NOT_CARRIED),
    # Fields it does not carry: accounts' secrets, stored sums, personal details.
    ("pin-hash", _set("clubs.member", pin="pbkdf2_sha256$870000$salt$hash="), "“pin”"),
    ("password", _set("clubs.member", password="x"), "“password”"),
    ("staff", _set("clubs.member", is_staff=True), "“is_staff”"),
    ("game-totals", _set("scoring.game", total_a=9999), "“total_a”"),
    ("hand-score", _set("scoring.hand", score_a=9999), "“score_a”"),
    ("log-detail", _set("clubs.clublog", detail={"phone": "0612345678"}), "“detail”"),
    ("club-slug", lambda d, w: d["club"].update(slug="besloten-club"), "unknown field “slug”"),
    ("club-id", lambda d, w: d["club"].update(id=w["victim"].pk), "unknown field “id”"),
    ("unknown-part", lambda d, w: d.update(users=[{"username": "x"}]), "unknown part “users”"),
    ("missing-field", lambda d, w: first(d, "clubs.member").pop("name"), "the field is missing"),
    # Wrong types.
    ("text-as-int", _set("clubs.member", name=5), "expected text"),
    ("int-as-text", _set("scoring.hand", points_a="80"), "expected a whole number"),
    ("huge-int", _set("scoring.hand", points_a=10**30), "expected a whole number"),
    ("bool-as-int", _set("scoring.hand", points_a=True), "expected a whole number"),
    ("relation-as-text", _set("scoring.hand", game="1"), "expected a whole number"),
    ("yes-as-text", _set("clubs.member", is_active="yes"), "expected true or false"),
    ("bad-date", _set("tournaments.evening", date="gisteren"), "expected a date"),
    ("naive-time", _set("clubs.clublog", created_at="2026-09-08T19:30:00"), "time zone"),
    ("row-as-list", lambda d, w: d["rows"]["clubs.member"].insert(0, ["x"]), "expected an object"),
    ("rows-as-dict", lambda d, w: d["rows"].update({"clubs.member": {"id": 1}}), "a list of rows"),
    (
        "id-twice",
        lambda d, w: d["rows"]["clubs.member"].append(dict(first(d, "clubs.member"))),
        "same id",
    ),
    ("club-name-list", lambda d, w: d["club"].update(name=["x"]), "expected text"),
    ("unknown-choice", _set("scoring.adjustment", kind="bonus"), "“kind”"),
    ("card-points", _set("scoring.hand", points_a=150, points_b=150), "scoring.hand, row 1"),
    ("adjustment-range", _set("scoring.adjustment", points=99999), "between -10000 and 10000"),
    ("hand-gap", _set("scoring.hand", number=40), "numbered 1, 2, 3"),
    ("nul-in-text", _set("clubs.member", name="a\x00b"), "expected text"),
    # JSON fields of another shape than the models keep.
    ("overrides-list", _set("tournaments.competition", ruleset_overrides=[1]), "ruleset_overrides"),
    ("overrides-text", _set("tournaments.competition", ruleset_overrides="x"), "ruleset_overrides"),
    (
        "overrides-bad",
        _set("tournaments.competition", ruleset_overrides={"hands_per_game": "x"}),
        "tournaments.competition, row 1",
    ),
    (
        "overrides-unknown",
        _set("tournaments.competition", ruleset_overrides={"nope": 1}),
        "tournaments.competition, row 1",
    ),
    ("tie-breaks-dict", _set("tournaments.competition", tie_breaks={"a": 1}), "tie_breaks"),
    ("side-rankings-ints", _set("tournaments.competition", side_rankings=[1]), "side_rankings"),
    (
        "side-rankings-bad",
        _set("tournaments.competition", side_rankings=[{"kind": "points", "best_of": "x"}]),
        "side_rankings",
    ),
    (
        "club-overrides-list",
        lambda d, w: d["club"].update(ruleset_overrides=[1]),
        "The club's settings, field “ruleset_overrides”",
    ),
    (
        "club-overrides-bad",
        lambda d, w: d["club"].update(ruleset_overrides={"pit_bonus": "x"}),
        "The club's settings, field “ruleset_overrides”",
    ),
    (
        "club-marks-unknown",
        lambda d, w: d["club"].update(sheet_marks="X"),
        "The club's settings, field “sheet_marks”",
    ),
    ("game-ruleset-list", _set("scoring.game", ruleset=[]), "scoring.game, row 1, field “ruleset”"),
    (
        "game-ruleset-unknown",
        _set("scoring.game", ruleset={"name": "nope"}),
        "scoring.game, row 1, field “ruleset”",
    ),
    (
        "game-ruleset-bad",
        _set("scoring.game", ruleset={"name": "rotterdam", "pit_bonus": "x"}),
        "scoring.game, row 1, field “ruleset”",
    ),
    (
        "game-ruleset-null",
        _set("scoring.game", ruleset=None),
        "scoring.game, row 1, field “ruleset”",
    ),
    ("audit-snapshot", _set("scoring.auditentry", after={"a": _nested(30)}), "nested more than"),
    # What the database's constraints refuse, named by the row.
    (
        "evening-twice",
        lambda d, w: d["rows"]["tournaments.evening"].append(
            {**first(d, "tournaments.evening"), "id": 10**6}
        ),
        "tournaments.evening, row 2: This competition already has an evening on this day.",
    ),
    (
        "number-twice",
        _member_numbers_twice,
        "clubs.member, row 2: This club already has a member with this number.",
    ),
    # Nested too deep inside a JSON field.
    ("nested-field", _set("tournaments.competition", tie_breaks=_nested(50)), "nested more than"),
    # Wrong format and versions.
    ("version-1", _old_layout, "this site reads version 2"),
    ("version-99", _version(99), "this site reads version 2"),
    ("version-text", _version("2"), "this site reads version 2"),
    ("version-float", _version(2.0), "this site reads version 2"),
    ("format", lambda d, w: d.update(format="other"), "not a club archive"),
]


def _raw(data):
    return json.dumps(data).encode()


def _refused(data, world, *, slug="buit", limits=None):
    with pytest.raises(ValidationError) as caught:
        extra = {"limits": limits} if limits else {}
        archive.club_archive_import(data=data, by=world["attacker"], slug=slug, **extra)
    return " ".join(caught.value.messages)


@pytest.fixture(scope="module")
def victims_rows(world):
    """The private club's rows as the module's world holds them: what each test starts
    from (a test's writes are undone after it)."""
    return club_state(world["victim"])


@pytest.fixture
def unchanged(world, victims_rows):
    """Asserts, after the test, that no table's row count and none of the private
    club's rows changed."""
    before = counts()
    yield
    assert counts() == before
    assert club_state(world["victim"]) == victims_rows


@pytest.mark.parametrize("change, expected", [c[1:] for c in CORPUS], ids=[c[0] for c in CORPUS])
def test_a_hostile_archive_is_refused_whole(world, unchanged, change, expected):
    data = copy.deepcopy(world["base"])
    change(data, world)
    message = _refused(_raw(data), world)
    assert "This file is not a club archive this site can read." in message
    assert expected in message


def test_the_base_archive_itself_imports(world, db):
    """The corpus is the attacker's own archive changed in one place: unchanged, it imports."""
    before = counts()
    club = archive.club_archive_import(
        data=_raw(world["base"]), by=world["attacker"], slug="eigen-kopie"
    )
    assert Member.objects.filter(club=club).count() == len(world["base"]["rows"]["clubs.member"])
    assert counts()["clubs.Club"] == before["clubs.Club"] + 1


def test_the_clubs_marks_travel_and_an_older_archive_gets_todays(world, db):
    """An archive written before clubs chose their marks has no ``sheet_marks``."""
    data = copy.deepcopy(world["base"])
    data["club"]["sheet_marks"] = "other_p"
    club = archive.club_archive_import(data=_raw(data), by=world["attacker"], slug="met-p")
    assert club.sheet_marks == "other_p"
    del data["club"]["sheet_marks"]
    club = archive.club_archive_import(data=_raw(data), by=world["attacker"], slug="zonder")
    assert club.sheet_marks == "pit_team"


def test_a_foreign_id_is_named_with_its_model_row_and_field(world, unchanged):
    data = copy.deepcopy(world["base"])
    data["rows"]["scoring.hand"][2]["game"] = world["game"]
    message = _refused(_raw(data), world)
    assert (
        f"scoring.hand, row 3, field “game”: it points at scoring.game {world['game']}" in message
    )


def _zip(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name, content in members:
            zipped.writestr(name, content)
    return buffer.getvalue()


def test_a_zip_bomb_is_refused_before_it_is_read(world, unchanged):
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped,
        zipped.open("club.json", "w") as member,
    ):
        member.write(b'{"format": "klaverjas-club-archive", "version": 2, "x": "')
        for _ in range(64):
            member.write(b" " * (1024 * 1024))
        member.write(b'"}')
    data = buffer.getvalue()
    assert len(data) < 1024 * 1024
    assert "unpacks to more than 100 times its packed size" in _refused(data, world)


def test_a_zip_of_many_files_is_refused(world, unchanged):
    data = _zip([(f"{n}.csv", b"") for n in range(20_001)] + [("club.json", _raw(world["base"]))])
    assert "The zip holds more than 20,000 files." in _refused(data, world)


def test_club_json_over_the_limit_is_refused_in_a_zip_and_bare(world, unchanged):
    small = archive.ArchiveLimits(max_rows=1000, max_json_bytes=10_000, max_file_bytes=10**7)
    text = _raw(world["base"])
    assert len(text) > 10_000
    for data in (_zip([("club.json", text)]), text):
        assert "club.json is larger than" in _refused(data, world, limits=small)
    assert "This file is larger than" in _refused(
        text, world, limits=archive.ArchiveLimits(1000, 10**7, max_file_bytes=1000)
    )


def test_a_zip_without_club_json_or_broken_is_refused(world, unchanged):
    assert "The zip has no club.json." in _refused(_zip([("x.csv", b"a")]), world)
    assert "The zip cannot be read." in _refused(b"PK\x03\x04 broken", world)
    good = _zip([("club.json", _raw(world["base"]))])
    start = good.index(b"club.json") + len(b"club.json") + 40
    for flip in (b"\xff" * 64, b"\x00" * 64):  # a broken deflate stream, a wrong checksum
        broken = good[:start] + flip + good[start + 64 :]
        assert "The zip cannot be read." in _refused(broken, world)
    encrypted = bytearray(good)
    for header in (b"PK\x03\x04", b"PK\x01\x02"):  # the "encrypted" flag, both headers
        at = encrypted.index(header)
        flag = at + (6 if header == b"PK\x03\x04" else 8)
        encrypted[flag] |= 1
    assert "The zip cannot be read." in _refused(bytes(encrypted), world)


def test_more_rows_than_the_page_takes_is_refused_and_points_to_the_command(world, unchanged):
    data = copy.deepcopy(world["base"])
    member = first(data, "clubs.member")
    data["rows"]["clubs.member"] = [
        {**member, "id": n, "name": f"Speler {n}"} for n in range(archive.WEB_MAX_ROWS + 1)
    ]
    message = _refused(_raw(data), world)
    assert "this import reads at most 20,000" in message
    assert "manage.py import_club" in message


def test_a_file_of_many_tiny_values_is_refused_before_parsing(world, unchanged):
    data = (
        b'{"format": "klaverjas-club-archive", "version": 2, "club": {}, "rows": '
        b'{"clubs.member": [' + b"{}," * 2_000_000 + b"{}]}}"
    )
    assert "holds more values than 20,000 rows have" in _refused(data, world)


def test_deeply_nested_json_is_refused(world, unchanged):
    data = b'{"format": "klaverjas-club-archive", "rows": ' + b"[" * 200_000 + b"]" * 200_000
    assert "nested too deeply" in _refused(data + b"}", world)


# --- The page and the command --------------------------------------------------------------


@pytest.fixture
def attacker_client(client, world):
    """The sign-up, logged in (before ``unchanged`` counts the rows)."""
    client.force_login(world["attacker"])
    return client


@pytest.mark.parametrize(
    "case", ["member-club_id", "member-user_id", "hand-game", "pin-hash", "version-1"]
)
def test_the_page_shows_the_refusal_as_a_form_error(attacker_client, world, unchanged, case):
    change, expected = next(c[1:] for c in CORPUS if c[0] == case)
    data = copy.deepcopy(world["base"])
    change(data, world)
    upload = io.BytesIO(_raw(data))
    upload.name = "club.json"
    response = attacker_client.post(
        reverse("exports:club-archive-import"),
        {"name": "", "slug": "buit", "file": upload},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert expected.replace("“", "&ldquo;") in response.content.decode().replace("“", "&ldquo;")


@pytest.mark.parametrize("body", ["nested", "bomb"])
def test_the_page_refuses_nested_json_and_a_zip_bomb_without_a_500(
    attacker_client, world, unchanged, body
):
    if body == "nested":
        data, expected = b"[" * 200_000 + b"]" * 200_000, "nested too deeply"
    else:
        data, expected = _zip([("club.json", b" " * (8 * 1024 * 1024))]), "times its packed size"
    upload = io.BytesIO(data)
    upload.name = "archief.zip"
    response = attacker_client.post(
        reverse("exports:club-archive-import"),
        {"name": "", "slug": "buit", "file": upload},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200 and expected in response.content.decode()


@pytest.mark.parametrize("case", ["member-club_id", "nested", "bomb", "version-1"])
def test_import_club_says_each_refusal_in_one_line(world, unchanged, tmp_path, case):
    if case == "nested":
        data = b"[" * 200_000 + b"]" * 200_000
    elif case == "bomb":
        data = _zip([("club.json", b" " * (8 * 1024 * 1024))])
    else:
        change = next(c[1] for c in CORPUS if c[0] == case)
        edited = copy.deepcopy(world["base"])
        change(edited, world)
        data = _raw(edited)
    path = tmp_path / "archief.zip"
    path.write_bytes(data)
    with pytest.raises(CommandError) as caught:
        call_command("import_club", str(path), "--slug", "buit", "--user", "nieuwkomer")
    assert "\n" not in str(caught.value)
    assert "not a club archive" in str(caught.value)


def test_the_command_takes_more_rows_than_the_page(world, tmp_path, db):
    data = copy.deepcopy(world["base"])
    path = tmp_path / "club.json"
    path.write_bytes(_raw(data))
    with pytest.raises(CommandError) as caught:
        call_command(
            "import_club", str(path), "--slug", "klein", "--user", "nieuwkomer", "--max-rows", "5"
        )
    assert "--max-rows" in str(caught.value)
    call_command("import_club", str(path), "--slug", "groot", "--user", "nieuwkomer")
    assert Club.objects.filter(slug="groot").exists()


# --- What the written archive holds, and what the import counts itself -----------------------


def test_the_schema_names_every_field_of_every_carried_model():
    """A field or a model added later must be placed: carried, or left out with a reason."""
    assert set(archive.CLUB_SCHEMA) == set(CLUB_FIELDS)
    labels = {m._meta.label_lower for m, _paths in club_data_models()}
    carried = {
        label
        for label in labels
        if label not in archive.NOT_CARRIED and label.split(".")[0] not in archive.NOT_CARRIED_APPS
    }
    assert carried == set(archive.SCHEMA)
    for label, fields in archive.SCHEMA.items():
        model = apps.get_model(label)
        names = {f.name for f in model._meta.concrete_fields if not f.primary_key}
        assert names == set(fields) | set(archive.LEFT_OUT.get(label, {})), label
        for name, kind in fields.items():
            field = model._meta.get_field(name)
            assert isinstance(kind, archive.To) == field.is_relation, (label, name)
            if isinstance(kind, archive.To):
                assert field.related_model._meta.label_lower == kind.label
                assert list(archive.SCHEMA).index(kind.label) < list(archive.SCHEMA).index(label)


def test_the_written_archive_holds_no_pin_account_or_log_detail(world, db):
    victim = world["victim"]
    member = Member.objects.get(club=victim, user=world["victim_admin"])
    member_pin_set(member=member, pin="4711", by=world["victim_admin"])
    ClubLog.objects.create(
        club=victim,
        user=world["victim_admin"],
        action=ClubLog.Action.MEMBER_IMPORT,
        summary="Leden ingelezen",
        detail={"changed": {"phone": ["0611111111", "0622222222"]}, "member": member.pk},
    )
    pin_hash = Member.objects.get(pk=member.pk).pin
    text = archive.club_archive_json(victim).decode()
    data = json.loads(text)
    assert pin_hash and pin_hash not in text
    assert "0611111111" not in text and "0622222222" not in text
    for label, rows in data["rows"].items():
        for row in rows:
            assert set(row) == {"id", *archive.SCHEMA[label]}
            assert not {"pin", "user", "detail", "created_by", "entered_by", "token"} & set(row)
            assert not any(key.endswith("_id") for key in row)
    assert "Leden ingelezen" in [r["summary"] for r in data["rows"]["clubs.clublog"]]


def test_a_hands_points_and_its_games_totals_cannot_disagree(world, db):
    """The hand's banked scores and the game's totals are counted on import from the
    points entered: a file that changes a hand's card points gets totals to match."""
    data = copy.deepcopy(world["base"])
    hand = first(data, "scoring.hand")
    hand.update(points_a=162 - hand["points_a"], points_b=162 - hand["points_b"], pit="")
    hand.update(declared_a="", declared_b="", roem_a=0, roem_b=0, verzaakt="")
    club = archive.club_archive_import(data=_raw(data), by=world["attacker"], slug="geteld")
    games = Game.objects.filter(table__round__evening__competition__club=club)
    assert games.exists()
    for game in games:
        hands = list(game.hands.order_by("number"))
        assert (game.total_a, game.total_b) == (
            sum(h.score_a for h in hands),
            sum(h.score_b for h in hands),
        )
        assert game.hands_entered == len(hands)
    changed = Hand.objects.get(
        game__table__round__evening__competition__club=club,
        game__table__number=1,
        game__table__round__number=1,
        number=1,
    )
    assert (changed.points_a, changed.points_b) == (hand["points_a"], hand["points_b"])
    assert changed.score_a + changed.score_b > 0


def test_imported_rows_keep_their_dates_and_get_fresh_links(world, db):
    club = archive.club_archive_import(
        data=_raw(world["base"]), by=world["attacker"], slug="datums"
    )
    logs = list(ClubLog.objects.filter(club=club).exclude(action="club_create").order_by("pk"))
    written = world["base"]["rows"]["clubs.clublog"]
    assert [log.created_at.isoformat()[:19] for log in logs] == [
        r["created_at"][:19] for r in written
    ]
    assert all(log.user_id is None and log.detail == {} for log in logs)
    assert not Member.objects.filter(club=club).exclude(pin="").exists()
    tokens = set(
        Seat.objects.filter(round__evening__competition__club=club).values_list(
            "table__token", flat=True
        )
    )
    assert world["token"] not in tokens
    assert Adjustment.objects.filter(evening__competition__club=club).exists()
    assert Evening.objects.filter(competition__club=club).count() == 1


def test_the_reported_300_byte_archive_writes_nothing_into_the_other_club(world, unchanged):
    """The issue's file, in the old layout with column names: a member linked to the
    other club's administrator, a forged log line, a hand in its game and a 9,999-point
    adjustment in its evening. Version 1 is refused, so is every spelling in version 2."""
    w = world
    objects = [
        {
            "model": "clubs.member",
            "pk": 1,
            "fields": {"club_id": w["victim"].pk, "name": "Spion", "user_id": w["victim_admin"].pk},
        },
        {
            "model": "clubs.clublog",
            "pk": 1,
            "fields": {"club_id": w["victim"].pk, "action": "club_update", "summary": "Vals"},
        },
        {
            "model": "scoring.hand",
            "pk": 1,
            "fields": {
                "game_id": w["game"],
                "number": 99,
                "playing": "A",
                "points_a": 162,
                "points_b": 0,
                "score_a": 9999,
                "score_b": 0,
                "nat": False,
            },
        },
        {
            "model": "scoring.adjustment",
            "pk": 1,
            "fields": {
                "evening_id": w["evening"],
                "kind": "director",
                "team": "A",
                "game_id": w["game"],
                "points": 9999,
                "reason": "x",
            },
        },
    ]
    when = {"created_at": "2026-11-30T20:00:00Z"}
    for item in objects:
        item["fields"].update(
            when, **({"updated_at": when["created_at"]} if "hand" in item["model"] else {})
        )
    for version in (1, 2):
        data = {"format": "klaverjas-club-archive", "version": version, "club": {"name": "X"}}
        data["objects"] = objects
        assert "not a club archive" in _refused(_raw(data), world)
    rows = {}
    for item in objects:
        rows.setdefault(item["model"], []).append({"id": 1, **item["fields"]})
    data = {**world["base"], "rows": {**world["base"]["rows"], **rows}}
    assert "“club_id”: a club archive has no such field" in _refused(_raw(data), world)
    assert not Member.objects.filter(name="Spion").exists()
