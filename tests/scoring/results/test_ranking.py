"""Worked examples of every ranking setting, small enough to redo on paper."""

from fractions import Fraction

import pytest

from scoring.results.ranking import (
    EveningLine,
    RankingSettings,
    prize_keys,
    prize_places,
    rank_evening,
    rank_season,
)


def line(evening, points, games=3, **kw):
    return EveningLine(evening=evening, points=points, games=games, **kw)


def ranks(result):
    return [(r.key, r.rank) for r in result]


def test_total_points_over_the_season():
    # Anne 3000 + 2800 = 5800; Bert 2900 + 2950 = 5850: Bert first.
    result = rank_season(
        {"Anne": [line(1, 3000), line(2, 2800)], "Bert": [line(1, 2900), line(2, 2950)]},
        RankingSettings.of(),
    )
    assert ranks(result) == [("Bert", 1), ("Anne", 2)]
    assert result[0].points == 5850


def test_average_per_game_rewards_the_better_player_not_the_more_frequent():
    # Anne 5800 in 6 games = 966.7 a game; Bert came once: 3100 in 3 games = 1033.3.
    result = rank_season(
        {"Anne": [line(1, 3000), line(2, 2800)], "Bert": [line(2, 3100)]},
        RankingSettings.of(basis="average"),
    )
    assert ranks(result) == [("Bert", 1), ("Anne", 2)]
    assert result[1].average == Fraction(5800, 6)


def test_best_two_of_three_drops_the_worst_evening():
    # Anne keeps 3000 + 2900 (drops 2000) = 5900; Bert 2950 + 2950 = 5900: equal.
    result = rank_season(
        {
            "Anne": [line(1, 3000), line(2, 2000), line(3, 2900)],
            "Bert": [line(1, 2950), line(2, 2950), line(3, 2950)],
        },
        RankingSettings.of(best_of=2),
    )
    assert [(r.key, r.rank, r.points) for r in result] == [("Anne", 1, 5900), ("Bert", 1, 5900)]
    assert result[0].dropped == (2,)
    assert result[1].dropped == (3,)  # equal evenings: the earlier ones are kept
    assert all(r.shared for r in result)


def test_best_of_by_average_drops_the_evening_with_the_worst_average():
    # Evening 1: 2000 in 2 games (1000 a game); evening 2: 2700 in 3 games (900 a game).
    result = rank_season(
        {"Anne": [line(1, 2000, games=2), line(2, 2700, games=3)]},
        RankingSettings.of(basis="average", best_of=1),
    )
    assert result[0].counted == (1,)
    assert result[0].average == 1000


def test_minimum_attendance_puts_players_below_the_line():
    # Cor has the most points but came once; with a minimum of 2 evenings he is unranked.
    result = rank_season(
        {
            "Anne": [line(1, 2500), line(2, 2500)],
            "Bert": [line(1, 2400), line(2, 2400)],
            "Cor": [line(2, 9000)],
        },
        RankingSettings.of(min_attendance=2),
    )
    assert ranks(result) == [("Anne", 1), ("Bert", 2), ("Cor", None)]


def test_absence_scored_evenings_do_not_count_as_attendance():
    result = rank_season(
        {"Anne": [line(1, 2500), line(2, 2000, played=False)]},
        RankingSettings.of(min_attendance=2),
    )
    assert result[0].rank is None
    assert result[0].points == 4500
    assert result[0].evenings == 1


def test_equal_points_more_marsen_wins():
    result = rank_season(
        {"Anne": [line(1, 3000, marsen=1)], "Bert": [line(1, 3000, marsen=3)]},
        RankingSettings.of(tie_breaks=["marsen"]),
    )
    assert ranks(result) == [("Bert", 1), ("Anne", 2)]
    assert result[0].tie_break == "marsen" and not result[0].shared


def test_equal_points_fewer_nat_wins():
    result = rank_season(
        {"Anne": [line(1, 3000, nat=1)], "Bert": [line(1, 3000, nat=2)]},
        RankingSettings.of(tie_breaks=["fewer_nat"]),
    )
    assert ranks(result) == [("Anne", 1), ("Bert", 2)]


def test_tie_breaks_apply_in_the_clubs_order():
    # Equal marsen, so the second tie-break (more roem) decides.
    result = rank_season(
        {"Anne": [line(1, 3000, marsen=2, roem=100)], "Bert": [line(1, 3000, marsen=2, roem=300)]},
        RankingSettings.of(tie_breaks=["marsen", "roem"]),
    )
    assert ranks(result) == [("Bert", 1), ("Anne", 2)]
    assert result[0].tie_break == "roem"


def test_better_average_breaks_a_tie_in_total_points():
    # Both 6000; Anne in 6 games (1000 a game), Bert in 7 (857): Anne first.
    result = rank_season(
        {"Anne": [line(1, 6000, games=6)], "Bert": [line(1, 6000, games=7)]},
        RankingSettings.of(tie_breaks=["average"]),
    )
    assert ranks(result) == [("Anne", 1), ("Bert", 2)]


def test_head_to_head_uses_the_games_they_played_against_each_other():
    # Where Anne and Bert sat as opponents Anne's team scored 200 more.
    def h2h(a, b):
        return {("Anne", "Bert"): 200, ("Bert", "Anne"): -200}.get((a, b), 0)

    result = rank_season(
        {"Bert": [line(1, 3000)], "Anne": [line(1, 3000)]},
        RankingSettings.of(tie_breaks=["head_to_head"]),
        h2h=h2h,
    )
    assert ranks(result) == [("Anne", 1), ("Bert", 2)]


def test_still_equal_after_every_tie_break_shares_the_rank():
    # 1, 2, 2, 4: the two equal players share second place, listed by name.
    result = rank_season(
        {
            "Dirk": [line(1, 3100)],
            "Cor": [line(1, 3000)],
            "Bert": [line(1, 3000)],
            "Anne": [line(1, 2900)],
        },
        RankingSettings.of(tie_breaks=["marsen", "fewer_nat"]),
    )
    assert ranks(result) == [("Dirk", 1), ("Bert", 2), ("Cor", 2), ("Anne", 4)]
    assert [r.shared for r in result] == [False, True, True, False]


def test_evening_result_ranks_by_total_with_the_tie_breaks():
    result = rank_evening(
        {"Anne": line(1, 2600, marsen=0), "Bert": line(1, 2600, marsen=1), "Cor": line(1, 1900)},
        tie_breaks=["marsen"],
    )
    assert ranks(result) == [("Bert", 1), ("Anne", 2), ("Cor", 3)]


@pytest.mark.parametrize(
    ("rule", "players", "places", "expected"),
    [
        ("winner", 9, None, {1}),
        ("first_n", 9, 3, {1, 2, 3}),
        ("first_n", 2, 3, {1, 2}),  # never more places than players
        ("per_four", 7, None, {1}),  # at least one prize
        ("per_four", 16, None, {1, 2, 3, 4}),
        ("formule_van_4", 3, None, {1, 2, 3}),
        ("formule_van_4", 21, None, {1, 2, 3, 4, 8, 12, 16, 20}),
        ("formule_van_4", 0, None, set()),
    ],
)
def test_prize_places_by_rule(rule, players, places, expected):
    assert prize_places(rule, players, places) == expected


def test_players_sharing_a_place_share_its_prize():
    # Places 1, 2, 2, 4, 5, 5: with prizes for places 1-4 and 6, the pair at 5-6 wins.
    points = dict(zip("abcdef", [9, 8, 8, 7, 6, 6], strict=True))
    lines = rank_evening({key: EveningLine(1, value, 1) for key, value in points.items()})
    assert prize_keys(lines, frozenset({1, 2, 3, 4, 6})) == set("abcdef")
    assert prize_keys(lines, frozenset({1, 2})) == {"a", "b", "c"}
    assert prize_keys(lines, frozenset({4})) == {"d"}
