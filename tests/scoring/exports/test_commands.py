"""The management commands: files written and read back, and clear errors for bad arguments."""

import csv
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clubs.models import Club, Member
from scoring.exports import handlog
from scoring.models import Adjustment, Game, Hand
from scoring.results import standings
from tests import factories
from tournaments.models import Competition, Evening, Round

from .conftest import pdf_pages, read_xlsx

pytestmark = pytest.mark.django_db


def run(*args, **options):
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


def names_and_points(competition):
    result = standings.season_standings(competition=competition)
    return [(result.names[x.key], x.rank, x.points, x.games, x.evenings) for x in result.lines]


@pytest.mark.parametrize("fmt", ["xlsx", "csv", "pdf"])
def test_export_standings_writes_each_format(read_only_season, tmp_path, fmt):
    competition, *_ = read_only_season
    path = tmp_path / f"stand.{fmt}"
    out, _err = run(
        "export_standings",
        "--club",
        competition.club.slug,
        "--competition",
        competition.name,
        "--format",
        fmt,
        "-o",
        str(path),
        "--language",
        "en",
    )
    assert str(path) in out
    data = path.read_bytes()
    result = standings.season_standings(competition=competition)
    best = result.names[result.lines[0].key]
    if fmt == "xlsx":
        values = [c for row in read_xlsx(data).active.iter_rows(values_only=True) for c in row]
        assert best in values and result.lines[0].points in values
    elif fmt == "csv":
        rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=","))
        assert rows[1][1:3] == [best, str(result.lines[0].points)]
    else:
        assert best in pdf_pages(data)[0]


def test_export_standings_takes_the_format_from_the_file_name_and_a_period(
    read_only_season, tmp_path
):
    competition, members, evenings, director = read_only_season
    competition.periods.create(
        name="Najaar", start_date=evenings[0].date, end_date=evenings[1].date
    )
    path = tmp_path / "najaar.xlsx"
    run(
        "export_standings",
        "--club",
        competition.club.slug,
        "--competition",
        "wintercompetitie",  # case does not matter
        "--period",
        "najaar",
        "-o",
        str(path),
    )
    values = [
        c for row in read_xlsx(path.read_bytes()).active.iter_rows(values_only=True) for c in row
    ]
    assert any("Period Najaar" in str(v) for v in values)


def test_export_hands_csv_then_import_results_restores_the_season(read_only_season, tmp_path):
    competition, *_ = read_only_season
    path = tmp_path / "backup.csv"
    _out, err = run(
        "export_hands",
        "--club",
        competition.club.slug,
        "--competition",
        competition.name,
        "-o",
        str(path),
    )
    assert err == ""  # nothing left out of this season
    Competition.objects.filter(pk=competition.pk).update(name="Origineel")
    out, _err = run(
        "import_results",
        str(path),
        "--club",
        "hersteld",
        "--competition",
        competition.name,
        "--create",
        "--create-members",
    )
    assert "Imported 3 evenings: 12 games" in out
    club = Club.objects.get(slug="hersteld")
    copy = Competition.objects.get(club=club)
    Competition.objects.filter(pk=copy.pk).update(tie_breaks=competition.tie_breaks)
    copy.refresh_from_db()
    assert names_and_points(copy) == names_and_points(competition)
    # Twice: nothing doubles.
    out, _err = run(
        "import_results", str(path), "--club", "hersteld", "--competition", competition.name
    )
    assert "Imported 0 evenings" in out and "Already there, skipped" in out
    assert Hand.objects.filter(game__table__round__evening__competition=copy).count() == (
        Hand.objects.filter(game__table__round__evening__competition=competition).count()
    )


def test_export_hands_xlsx_and_what_the_format_leaves_out(read_only_season, tmp_path):
    competition, members, evenings, director = read_only_season
    game = Game.objects.filter(table__round__evening=evenings[0]).first()
    Adjustment.objects.create(
        evening=evenings[0], kind="verzaken", game=game, team="A", points=262, reason="verzaakt"
    )
    path = tmp_path / "hands.xlsx"
    _out, err = run(
        "export_hands",
        "--club",
        competition.club.slug,
        "--competition",
        competition.name,
        "--format",
        "xlsx",
        "-o",
        str(path),
    )
    sheet = read_xlsx(path.read_bytes()).active
    hands = Hand.objects.filter(game__table__round__evening__competition=competition)
    assert sheet.max_row == 1 + hands.count() + 2
    assert "1 adjustments other than sit-out scores" in err


def test_print_scoresheets_writes_a_page_per_table_with_links(read_only_season, tmp_path):
    competition, members, evenings, director = read_only_season
    path = tmp_path / "sheets.pdf"
    _out, err = run(
        "print_scoresheets",
        "--club",
        competition.club.slug,
        "--competition",
        competition.name,
        "--evening",
        "2026-10-13",
        "--round",
        "2",
        "--base-url",
        "https://klaverjas.example/",
        "-o",
        str(path),
    )
    round_ = Round.objects.get(evening=evenings[1], number=2)
    pages = pdf_pages(path.read_bytes())
    assert len(pages) == round_.tables.count()
    for text, table in zip(pages, round_.tables.order_by("number"), strict=True):
        assert f"https://klaverjas.example/t/{table.token}/" in text
    assert err == ""


def test_print_scoresheets_filled_and_the_table_plan(read_only_season, tmp_path):
    competition, members, evenings, director = read_only_season
    common = ["--club", competition.club.slug, "--competition", competition.name]
    common += ["--evening", "2026-10-06", "--round", "1"]
    run("print_scoresheets", *common, "--filled", "-o", str(tmp_path / "filled.pdf"))
    assert "Score sheet (record)" in pdf_pages((tmp_path / "filled.pdf").read_bytes())[0]
    _out, err = run("print_scoresheets", *common, "-o", str(tmp_path / "blank.pdf"))
    assert "--base-url" in err  # the QR codes hold only the path
    run("print_scoresheets", *common, "--plan", "-o", str(tmp_path / "plan.pdf"))
    assert "Who sits where" in "\n".join(pdf_pages((tmp_path / "plan.pdf").read_bytes()))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--club", "nergens"], "no club with the short name “nergens”"),
        (["--competition", "Zomer"], "has no competition called “Zomer”"),
        (["--evening", "13-10-2026"], "“13-10-2026” is not a date"),
        (["--evening", "2026-12-25"], "has no evening on 2026-12-25. Its evenings: 2026-10-06"),
        (["--round", "7"], "has no round 7. Its rounds: 1, 2"),
        (["--base-url", "klaverjas.example"], "--base-url must start with http"),
        (["--filled", "--plan"], "Choose --filled or --plan"),
        (["-o", "/nonexistent-folder/x.pdf"], "The folder /nonexistent-folder does not exist"),
    ],
)
def test_print_scoresheets_bad_arguments_are_clear(read_only_season, tmp_path, args, message):
    competition, *_ = read_only_season
    options = {
        "--club": competition.club.slug,
        "--competition": competition.name,
        "--evening": "2026-10-06",
        "--round": "1",
        "-o": str(tmp_path / "x.pdf"),
    }
    flags = []
    for index, arg in enumerate(args):
        if arg in options and index + 1 < len(args) and not args[index + 1].startswith("--"):
            options[arg] = args[index + 1]
        elif arg.startswith("--") and (index + 1 == len(args) or args[index + 1].startswith("--")):
            flags.append(arg)
        elif arg.startswith("--"):
            options[arg] = args[index + 1]
    argv = [item for pair in options.items() for item in pair] + flags
    with pytest.raises(CommandError) as info:
        run("print_scoresheets", *argv)
    assert message in str(info.value)


def test_export_errors_are_clear(read_only_season, tmp_path):
    competition, *_ = read_only_season
    base = ["--club", competition.club.slug, "--competition", competition.name]
    with pytest.raises(CommandError, match="a hand log has no PDF|not available here"):
        run("export_hands", *base, "--format", "pdf", "-o", str(tmp_path / "h.pdf"))
    with pytest.raises(CommandError, match="Choose the format with --format"):
        run("export_standings", *base, "-o", str(tmp_path / "stand"))
    with pytest.raises(CommandError, match="is a folder"):
        run("export_standings", *base, "--format", "csv", "-o", str(tmp_path))
    with pytest.raises(CommandError, match="no period called “Voorjaar”"):
        run("export_standings", *base, "--period", "Voorjaar", "-o", str(tmp_path / "s.csv"))
    with pytest.raises(CommandError, match="invalid choice"):
        run("export_standings", *base, "--format", "ods", "-o", str(tmp_path / "s.ods"))


def test_import_results_reports_every_bad_row_and_changes_nothing(club, tmp_path):
    competition = factories.competition(club)
    path = tmp_path / "oud.csv"
    path.write_text(
        ",".join(handlog.REQUIRED)
        + "\r\n2026-10-06,1,1,1,Anna,Bert,Cor,Dirk,A,100,61\r\n"
        + "2026-10-06,1,1,2,Anna,Bert,Cor,Dirk,A,100,62\r\n",
        encoding="utf-8",
    )
    before = (Member.objects.count(), Evening.objects.count(), Club.objects.count())
    err = io.StringIO()
    with pytest.raises(CommandError) as info:
        call_command(
            "import_results",
            str(path),
            "--club",
            club.slug,
            "--competition",
            competition.name,
            stdout=io.StringIO(),
            stderr=err,
        )
    assert "Nothing was imported" in str(info.value)
    report = err.getvalue()
    assert "Row 2, column points_a, points_b: The card points of both teams" in report
    assert "Anna is not a member of the club" in report
    assert before == (Member.objects.count(), Evening.objects.count(), Club.objects.count())


def test_import_results_with_create_leaves_nothing_behind_when_the_file_is_bad(tmp_path):
    path = tmp_path / "oud.csv"
    path.write_text(",".join(handlog.REQUIRED) + "\r\n2026-10-06,1,1,1\r\n", encoding="utf-8")
    with pytest.raises(CommandError):
        run("import_results", str(path), "--club", "nieuw", "--competition", "Oud", "--create")
    assert not Club.objects.filter(slug="nieuw").exists()


def test_import_results_argument_errors_are_clear(club, tmp_path):
    competition = factories.competition(club)
    path = tmp_path / "x.csv"
    path.write_text("date\r\n", encoding="utf-8")
    with pytest.raises(CommandError, match="There is no file"):
        run("import_results", str(tmp_path / "nope.csv"), "--club", club.slug, "--competition", "x")
    with pytest.raises(CommandError, match="no club with the short name"):
        run("import_results", str(path), "--club", "nergens", "--competition", "x")
    with pytest.raises(CommandError, match="has no competition called “Zomer”"):
        run("import_results", str(path), "--club", club.slug, "--competition", "Zomer")
    with pytest.raises(CommandError, match="plays the rule set rotterdam, not match-500"):
        run(
            "import_results",
            str(path),
            "--club",
            club.slug,
            "--competition",
            competition.name,
            "--ruleset",
            "match-500",
        )
    with pytest.raises(CommandError, match="invalid choice"):
        run(
            "import_results", str(path), "--club", club.slug, "--competition", "x", "--ruleset", "x"
        )


def test_import_results_dry_run_checks_and_changes_nothing(read_only_season, tmp_path):
    competition, *_ = read_only_season
    path = tmp_path / "backup.csv"
    run(
        "export_hands",
        "--club",
        competition.club.slug,
        "--competition",
        competition.name,
        "-o",
        str(path),
    )
    before = Hand.objects.count()
    out, _err = run(
        "import_results",
        str(path),
        "--club",
        "elders",
        "--competition",
        "Kopie",
        "--create",
        "--create-members",
        "--dry-run",
        "--ruleset",
        "amsterdam",
    )
    assert "The file can be imported: 3 evenings, 12 games" in out
    assert "9 new members" in out
    assert Hand.objects.count() == before and not Club.objects.filter(slug="elders").exists()


def test_import_results_create_uses_the_rule_set_and_the_files_dates(club, tmp_path):
    from .test_import import csv_bytes, game_rows

    path = tmp_path / "oud.csv"
    path.write_bytes(csv_bytes(game_rows(date="2019-03-05") + game_rows(date="2019-04-02")))
    out, _err = run(
        "import_results",
        str(path),
        "--club",
        club.slug,
        "--competition",
        "Seizoen 2019",
        "--create",
        "--create-members",
        "--ruleset",
        "amsterdam",
    )
    competition = Competition.objects.get(club=club, name="Seizoen 2019")
    assert competition.ruleset_preset == "amsterdam"
    assert (str(competition.start_date), str(competition.end_date)) == ("2019-03-05", "2019-04-02")
    assert "Competition Seizoen 2019 made (2019-03-05 to 2019-04-02)" in out
    assert Game.objects.get(table__round__evening__date="2019-03-05").ruleset["name"] == "amsterdam"
