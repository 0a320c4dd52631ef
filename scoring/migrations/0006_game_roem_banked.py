"""Store each game's roem as the roem each team banked: on a nat hand the rule
set's ``nat_roem`` says who banks it (the statistics' roem column read the roem
as entered, crediting a team that went nat)."""

from django.db import migrations


def bank_roem(apps, schema_editor):
    from scoring import rules

    Game = apps.get_model("scoring", "Game")
    Hand = apps.get_model("scoring", "Hand")
    games = Game.objects.filter(pk__in=Hand.objects.filter(nat=True).values("game_id"))
    for game in games.iterator():
        data = dict(game.ruleset)
        try:
            ruleset = rules.ruleset_from(data.pop("name"), data)
        except (rules.InvalidRuleset, KeyError):
            continue
        roem_a = roem_b = 0
        for playing, nat, hand_a, hand_b in Hand.objects.filter(game=game).values_list(
            "playing", "nat", "roem_a", "roem_b"
        ):
            banked = rules.banked_roem(ruleset, playing=playing, nat=nat, roem=(hand_a, hand_b))
            roem_a += banked.a
            roem_b += banked.b
        if (roem_a, roem_b) != (game.roem_a, game.roem_b):
            Game.objects.filter(pk=game.pk).update(roem_a=roem_a, roem_b=roem_b)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0005_adjustment_marsen")]

    operations = [migrations.RunPython(bank_roem, migrations.RunPython.noop)]
