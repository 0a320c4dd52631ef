# The stored evening totals now hold each player's whole tally (the adjustments, the
# personal points and whether the player played, besides the games' sums): rows in the
# old layout are thrown away (and the new ones, going back), and the standings store them
# again on their next read.

from django.db import migrations


def forget_all(apps, schema_editor):
    apps.get_model("scoring", "EveningTotals").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0009_evening_totals"),
    ]

    operations = [
        migrations.RunPython(forget_all, forget_all),
    ]
