from django.db import migrations, models

# A side ranking becomes a definition of its own (Issue 19): the old list of keys
# (["points", "marsen"]) becomes a list of {"kind", "best_of", "min_attendance"},
# each with what the keys meant before: every counting evening, no minimum. Back,
# each definition becomes its key again (its best N and minimum are lost).

KINDS = ("points", "marsen")


def _definition(item):
    if isinstance(item, dict):
        return {
            "kind": item.get("kind"),
            "best_of": item.get("best_of"),
            "min_attendance": item.get("min_attendance") or 0,
        }
    return {"kind": item, "best_of": None, "min_attendance": 0}


def to_definitions(apps, schema_editor):
    Competition = apps.get_model("tournaments", "Competition")
    for competition in Competition.objects.only("side_rankings"):
        value = competition.side_rankings
        if not value or not isinstance(value, list):
            continue
        definitions = [_definition(item) for item in value]
        known = {d["kind"]: d for d in definitions if d["kind"] in KINDS}
        competition.side_rankings = [known[kind] for kind in KINDS if kind in known]
        competition.save(update_fields=["side_rankings"])


def to_keys(apps, schema_editor):
    Competition = apps.get_model("tournaments", "Competition")
    for competition in Competition.objects.only("side_rankings"):
        value = competition.side_rankings
        if not value or not isinstance(value, list):
            continue
        competition.side_rankings = [
            item["kind"] if isinstance(item, dict) else item for item in value
        ]
        competition.save(update_fields=["side_rankings"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0010_leagues_move_to_their_own_app"),
    ]

    operations = [
        migrations.RunPython(to_definitions, to_keys),
        migrations.AlterField(
            model_name="competition",
            name="side_rankings",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text='Shown beside the main standings, each its own definition: [{"kind": "points", "best_of": null, "min_attendance": 0}]; kind "points" (puntenkampioen) or "marsen", best_of empty for every evening.',
                verbose_name="other rankings",
            ),
        ),
    ]
