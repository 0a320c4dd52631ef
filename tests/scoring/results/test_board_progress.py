"""The TV board of a provisional evening: how far the tables are, above the paged result."""

from django.urls import reverse


def test_the_board_lists_the_unconfirmed_tables_above_the_result(client, evening_in_play):
    evening, first = evening_in_play
    url = reverse(
        "results:evening", kwargs={"club": evening.competition.club.slug, "pk": evening.pk}
    )
    board = client.get(url + "?board=1", headers={"accept-language": "en"}).text
    progress = board.index('class="board-progress"')
    assert progress < board.index('class="standings')
    listed = board[progress : board.index("</ul>", progress)]
    # Round 1 is confirmed at both tables; round 2 has one table to confirm, one at hand 3.
    assert listed.count("<li>") == 2
    assert "round 2, table 1: 16 of 16 hands, to be confirmed" in listed
    assert "round 2, table 2: 3 of 16 hands" in listed
    assert "round 1" not in listed
    assert 'class="table-status"' not in board  # the long table is for the plain page
    plain = client.get(url, headers={"accept-language": "en"}).text
    assert "board-progress" not in plain and 'class="table-status"' in plain
