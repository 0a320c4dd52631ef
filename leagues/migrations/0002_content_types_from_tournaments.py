# The league models' content types follow them from tournaments to leagues, so the
# permissions given to users and groups and the admin's history keep pointing at them.

from django.db import migrations

MODELS = (
    "league",
    "division",
    "leagueteam",
    "teamplayer",
    "leaguematch",
    "matchtable",
    "leaguelog",
)


def move_content_types(apps, schema_editor, source="tournaments", target="leagues"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MODELS:
        if ContentType.objects.using(db).filter(app_label=target, model=model).exists():
            continue
        ContentType.objects.using(db).filter(app_label=source, model=model).update(
            app_label=target
        )


def move_back(apps, schema_editor):
    move_content_types(apps, schema_editor, source="leagues", target="tournaments")


class Migration(migrations.Migration):

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("leagues", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(move_content_types, move_back),
    ]
