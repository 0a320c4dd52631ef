"""The benchmark runs and prints what it promises (a smoke test, not a timing)."""

from bench import rules as bench


def test_the_benchmark_prints_machine_python_baseline_and_every_figure(capsys):
    assert bench.main(["--seconds", "0.005"]) == 0
    out = capsys.readouterr().out
    for text in (
        "machine :",
        "cpu     :",
        "python  :",
        "baseline:",
        "score_hand",
        "trick evaluation (score_trick",
        "trick evaluation (3 public calls)",
        "legal_cards",
        "legal_mask",
        "simulate_deal (rotterdam)",
        "simulate_deal (match-1500)",
        "x baseline",
        "goal 400,000 trick evaluation/s",
        "goal 300,000 score_hand/s",
    ):
        assert text in out, text


def test_the_naive_references_agree_with_the_core_on_a_few_known_cases():
    assert bench.naive_trick(["TS", "AS", "7S", "KS"], "H") == (1, 25, 0)
    assert bench.naive_trick(["QH", "KH", "AH", "7C"], "H") == (2, 18, 40)
    assert bench.naive_legal_cards(["7H", "8D"], ["QC", "AC", "9C"], "H") == ["7H"]
    assert bench.naive_legal_cards(["7H", "8D"], ["QC", "AC", "9C"], "H", amsterdam=True) == [
        "7H",
        "8D",
    ]
    assert bench.naive_score_hand("A", (81, 81), (0, 0), None) == (0, 162)
