"""A club's or a competition's rule set in the clubs' words, for its pages and its checks.

The scoring core (:mod:`scoring.rules`) decides what a rule set is; this module
gives it words, in Dutch and English:

* :data:`RULE_FIELDS` -- the fields of a :class:`~scoring.rules.Ruleset` a director
  sets, in the order of the form, with :data:`LABELS`, :data:`HELP` and the labels
  of each field's choices (:data:`CHOICES`).
* :func:`describe_ruleset` -- the rule set as a short list of plain sentences, as
  the standings state their ranking rules; :func:`describe_game` -- what one game
  is (the basis of an average per game).
* :func:`ruleset_message` -- the core's :class:`~scoring.rules.InvalidRuleset` as
  a translated message for the field it names.
* :func:`clean_ruleset` -- the models' check of a preset with its overrides
  (``Club.clean`` and ``Competition.clean``), so the admin refuses what the pages do.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from common.choices import text_choices
from scoring.rules import (
    Chooser,
    GameEnd,
    InvalidRuleset,
    NatBasis,
    NatRoem,
    PlayRule,
    RoemRule,
    Ruleset,
    TieRule,
    VerzakenRule,
    ruleset_from,
)
from scoring.rules.rulesets import Preset

#: The rule-set presets of the scoring core (``scoring.rules.Preset``), in the clubs' words.
RulesetPreset = text_choices(
    Preset,
    {
        Preset.ROTTERDAM: gettext_lazy("Rotterdam (club standard)"),
        Preset.AMSTERDAM: gettext_lazy("Amsterdam"),
        Preset.MATCH_500: gettext_lazy("Match to 500"),
        Preset.MATCH_1500: gettext_lazy("Match to 1500 (declared roem)"),
        Preset.SINGLE_DEAL: gettext_lazy("Single deal"),
    },
    name="RulesetPreset",
)

#: The rule-set fields on the competition form, in its order (every field but
#: ``name``, which is the preset).
RULE_FIELDS = (
    "play_rule",
    "roem_rule",
    "nat_basis",
    "nat_roem",
    "pit_bonus",
    "verzaken_rule",
    "verzaken_bonus",
    "game_end",
    "hands_per_game",
    "target_score",
    "on_tie",
    "roefel",
    "all_pass_chooser",
    "forced_play",
    "low_fours",
)

#: The rule-set fields that are a yes/no (a tick box on the form).
BOOLEAN_FIELDS = ("roefel", "forced_play", "low_fours")

#: The most hands a competition's game may have (a boompje is 16).
MAX_HANDS_PER_GAME = 64

LABELS = {
    "play_rule": gettext_lazy("Play rule"),
    "roem_rule": gettext_lazy("Roem"),
    "nat_basis": gettext_lazy("Nat when"),
    "nat_roem": gettext_lazy("Roem when nat"),
    "pit_bonus": gettext_lazy("Pit (mars) bonus"),
    "verzaken_rule": gettext_lazy("Verzaken"),
    "verzaken_bonus": gettext_lazy("Verzaken penalty"),
    "game_end": gettext_lazy("A game ends"),
    "hands_per_game": gettext_lazy("Hands per game"),
    "target_score": gettext_lazy("Target score"),
    "on_tie": gettext_lazy("Equal totals at the end"),
    "roefel": gettext_lazy("Roefel"),
    "all_pass_chooser": gettext_lazy("All four pass: trump is chosen by"),
    "forced_play": gettext_lazy("Forced play: nobody passes"),
    "low_fours": gettext_lazy("Four 7s, 8s or 9s: 100 roem"),
}

HELP = {
    "pit_bonus": gettext_lazy("Extra points for the team that takes all eight tricks."),
    "verzaken_bonus": gettext_lazy(
        "The other team's bonus on top of 162 when the hand ends, or what the player who "
        "verzaakt loses personally."
    ),
    "forced_play": gettext_lazy(
        "Nobody may pass: the player chosen above (the forehand) always names trump."
    ),
    "hands_per_game": gettext_lazy("A boompje is 16 hands; some clubs play 12."),
    "target_score": gettext_lazy("Only when a game ends at a target score."),
    "roefel": gettext_lazy("Hand 1 of a game: clubs are trumps and the forehand's team plays."),
    "low_fours": gettext_lazy(
        "Four 7s, 8s or 9s in one trick score 100 roem, like four aces, tens, kings or queens."
    ),
}

CHOICES = {
    "play_rule": [
        (
            PlayRule.ROTTERDAM.value,
            gettext_lazy("Rotterdam: always trump, also over your partner; overtrump if you can"),
        ),
        (
            PlayRule.AMSTERDAM.value,
            gettext_lazy(
                "Amsterdam: free when your partner wins the trick; undertrump only if unavoidable"
            ),
        ),
    ],
    "roem_rule": [
        (RoemRule.IN_TRICK.value, gettext_lazy("found in the tricks")),
        (RoemRule.DECLARED.value, gettext_lazy("declared from the hand (runs and stuk)")),
    ],
    "nat_basis": [
        (
            NatBasis.POINTS_AND_ROEM.value,
            gettext_lazy("card points + roem not more than the other team's (81-81 is nat)"),
        ),
        (
            NatBasis.CARD_POINTS.value,
            gettext_lazy("fewer than 82 card points (roem does not count)"),
        ),
    ],
    "nat_roem": [
        (NatRoem.TO_DEFENDERS.value, gettext_lazy("all roem goes to the other team")),
        (NatRoem.KEPT_BY_EACH.value, gettext_lazy("each team keeps its own roem")),
        (NatRoem.NAT_TEAM_LOSES.value, gettext_lazy("the nat team loses its roem")),
    ],
    "game_end": [
        (GameEnd.HANDS.value, gettext_lazy("after the hands per game")),
        (GameEnd.TARGET.value, gettext_lazy("at the target score")),
    ],
    "on_tie": [
        (TieRule.EXTRA_HANDS.value, gettext_lazy("play extra hands until it breaks")),
        (TieRule.DRAW.value, gettext_lazy("the game is drawn")),
    ],
    "verzaken_rule": [
        (
            VerzakenRule.ALL_ROEM.value,
            gettext_lazy("the other team gets 162, all roem of the hand and the penalty"),
        ),
        (
            VerzakenRule.NO_ROEM.value,
            gettext_lazy("the other team gets 162 and the penalty, no roem"),
        ),
        (
            VerzakenRule.PERSONAL.value,
            gettext_lazy("the hand counts as played; the player loses the penalty personally"),
        ),
        (VerzakenRule.NONE.value, gettext_lazy("not punished: the hand counts as played")),
    ],
    "all_pass_chooser": [
        (Chooser.FOREHAND.value, gettext_lazy("the forehand")),
        (Chooser.DEALER.value, gettext_lazy("the dealer")),
    ],
}


def describe_ruleset(ruleset: Ruleset) -> list[str]:
    """The rule set in plain sentences, so every player can check a score sheet."""
    words = [_describe_preset(ruleset)]
    if ruleset.play_rule is PlayRule.AMSTERDAM:
        words.append(
            _(
                "Amsterdam play: void in the led suit, you need not trump while your partner "
                "wins the trick; against an opponent you trump and overtrump if you can; "
                "undertrumping only when nothing else is possible."
            )
        )
    else:
        words.append(
            _(
                "Rotterdam play: void in the led suit, you must trump, also over your "
                "partner, and overtrump if you can."
            )
        )
    if ruleset.roem_rule is RoemRule.DECLARED:
        words.append(
            _(
                "Roem is declared from the hand: a run of three 20, of four 50, of five or "
                "more 100, stuk 20; only the team with the highest run scores its runs."
            )
        )
    else:
        words.append(_("Roem counts in the tricks, for the team that takes the trick."))
        if ruleset.low_fours:
            words.append(_("Four 7s, 8s or 9s in one trick are 100 roem too."))
    if ruleset.nat_basis is NatBasis.CARD_POINTS:
        words.append(
            _("The playing team is nat with fewer than 82 card points; roem does not count.")
        )
    else:
        words.append(
            _(
                "The playing team is nat unless its card points and roem are more than the "
                "other team's (81-81 is nat)."
            )
        )
    words.append(
        {
            NatRoem.TO_DEFENDERS: _("Nat: the other team gets 162 and all roem."),
            NatRoem.KEPT_BY_EACH: _("Nat: the other team gets 162; each team keeps its own roem."),
            NatRoem.NAT_TEAM_LOSES: _(
                "Nat: the other team gets 162 and its own roem; the nat team's roem is lost."
            ),
        }[ruleset.nat_roem]
    )
    words.append(_("Pit (mars, all eight tricks): %(bonus)s extra.") % {"bonus": ruleset.pit_bonus})
    words.append(describe_verzaken(ruleset))
    words.append(_describe_game_end(ruleset))
    if ruleset.roefel:
        words.append(_("Hand 1 is the roefel: clubs are trumps and the forehand's team plays."))
    if ruleset.forced_play and ruleset.all_pass_chooser is Chooser.DEALER:
        words.append(_("Nobody passes: the dealer always chooses trump."))
    elif ruleset.forced_play:
        words.append(_("Nobody passes: the forehand always chooses trump."))
    elif ruleset.all_pass_chooser is Chooser.DEALER:
        words.append(_("If all four pass, the dealer must choose trump."))
    else:
        words.append(_("If all four pass, the forehand must choose trump."))
    return words


def describe_verzaken(ruleset: Ruleset) -> str:
    """What verzaken costs under ``ruleset``, in one sentence (the stated rules and
    the entry pages' help say the same)."""
    bonus = {"bonus": ruleset.verzaken_bonus}
    return {
        VerzakenRule.ALL_ROEM: _(
            "Verzaken: the other team gets 162, all roem of the hand and %(bonus)s; "
            "the team that verzaakt gets 0."
        ),
        VerzakenRule.NO_ROEM: _(
            "Verzaken: the other team gets 162 and %(bonus)s, no roem; the team that "
            "verzaakt gets 0."
        ),
        VerzakenRule.PERSONAL: _(
            "Verzaken: the hand counts as played; the player who verzaakt gets -%(bonus)s "
            "personally, the partner keeps the points."
        ),
        VerzakenRule.NONE: _("Verzaken is not punished: the hand counts as played."),
    }[ruleset.verzaken_rule] % bonus


def _describe_preset(ruleset: Ruleset) -> str:
    preset = RulesetPreset(ruleset.name).label
    changed = [str(LABELS[field]).lower() for field in RULE_FIELDS if field in ruleset.overrides()]
    if not changed:
        return _("Rule set: %(preset)s.") % {"preset": preset}
    return _("Rule set: %(preset)s, changed: %(fields)s.") % {
        "preset": preset,
        "fields": ", ".join(changed),
    }


def describe_game(ruleset: Ruleset) -> str:
    """What one game is, in a short sentence: what an average per game is per."""
    if ruleset.game_end is GameEnd.TARGET:
        return _("A game is a match to %(target)s points.") % {"target": ruleset.target_score}
    if ruleset.hands_per_game == 16:
        return _("A game is a boompje of 16 hands.")
    count = ruleset.hands_per_game
    return ngettext("A game is %(count)s hand.", "A game is %(count)s hands.", count) % {
        "count": count
    }


def _describe_game_end(ruleset: Ruleset) -> str:
    if ruleset.game_end is GameEnd.TARGET:
        end = _(
            "A game is played to %(target)s: the first team with that many points at the end "
            "of a hand wins; if both have, the higher total."
        ) % {"target": ruleset.target_score}
    else:
        end = describe_game(ruleset)
    if ruleset.on_tie is TieRule.DRAW:
        tie = _("Equal totals at the end: the game is drawn.")
    else:
        tie = _("Equal totals at the end: extra hands until the tie breaks.")
    return f"{end} {tie}"


def ruleset_message(exc: InvalidRuleset) -> str:
    """The core's refusal as a translated message for the field it names."""
    if exc.code == "unknown_preset":
        return _("Choose one of the rule sets.")
    if exc.code == "unknown_field":
        return _("“%(field)s” is not a field of a rule set.") % {"field": exc.field}
    if exc.code == "not_a_mapping":
        return _("The rule set changes must be fields with their values.")
    if exc.field == "target_score":
        return _("A game played to a target score needs a target of at least 1 point.")
    if exc.field == "hands_per_game":
        return _("A game has at least 1 hand.")
    if exc.field in ("pit_bonus", "verzaken_bonus"):
        return _("Enter a whole number of points, 0 or more.")
    if exc.field in BOOLEAN_FIELDS:
        return _("Choose yes or no.")
    return _("Choose one of the options.")


def clean_ruleset(instance):
    """Check ``instance.ruleset_preset`` with ``instance.ruleset_overrides`` through
    the core and keep only the overrides that differ from the preset; a refusal is a
    ValidationError on the preset or the overrides, naming the rule-set field."""
    try:
        ruleset = ruleset_from(instance.ruleset_preset, instance.ruleset_overrides)
    except InvalidRuleset as exc:
        field = "ruleset_preset" if exc.field == "name" else "ruleset_overrides"
        message = ruleset_message(exc)
        if exc.field in LABELS:
            message = f"{LABELS[exc.field]}: {message}"
        raise ValidationError({field: message}) from exc
    if ruleset.hands_per_game > MAX_HANDS_PER_GAME:
        raise ValidationError(
            {"ruleset_overrides": _("A game has between 1 and 64 hands.")},
            code="hands_per_game",
        )
    instance.ruleset_overrides = ruleset.overrides()
