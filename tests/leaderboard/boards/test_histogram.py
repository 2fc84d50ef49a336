"""A day's histogram of the winners' moves (GET /api/leaderboards/daily/<day>/histogram/):
buckets from one aggregate query over the board's entries, "you are here" for the caller's own
result, cached until the board changes (and for a few seconds after, on a busy day), the same
for a frozen day, public as the board is."""

from datetime import timedelta

import pytest
from leaderboard_fixtures.history import result
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, daily_code  # noqa: F401  (autouse, as in tests/history/)
from rest_framework.test import APIClient

from leaderboard.boards import freeze, order
from leaderboard.boards.selectors import histogram
from leaderboard.core import days

pytestmark = pytest.mark.django_db


def histogram_of(client, day) -> dict:
    answer = client.get(f"/api/leaderboards/daily/{day.isoformat()}/histogram/")
    assert answer.status_code == 200, answer.content
    return answer.json()


@pytest.fixture
def day(make_player):
    """Three days ago: winners with 100, 101, 105, 130 and 131 moves, a win with a hint (140),
    two losses; a practice win and a flagged win that are on no board."""
    when = days.today() - timedelta(days=3)
    players = {}
    for name, moves, won, hints in (
        ("ann", 100, True, 0),
        ("ben", 101, True, 0),
        ("cat", 105, True, 0),
        ("dan", 130, True, 0),
        ("eve", 131, True, 0),
        ("fay", 140, True, 1),
        ("gus", 50, False, 0),
        ("hal", 99, False, 0),
    ):
        players[name] = make_player(name)
        result(players[name], when, won=won, moves=moves, hints=hints)
    result(players["gus"], when, moves=102, practice=True)
    players["ivy"] = make_player("ivy")
    result(players["ivy"], when, moves=103, flagged=True)
    players["kim"] = make_player("kim")
    return {"date": when, **players}


def test_the_winners_moves_in_buckets(day):
    shown = histogram_of(APIClient(), day["date"])
    assert (shown["date"], shown["board"], shown["final"]) == (
        day["date"].isoformat(),
        order.daily_board(day["date"]),
        True,
    )
    assert shown["winners"] == 6
    assert [(b["low"], b["high"], b["count"]) for b in shown["buckets"]] == [
        (100, 104, 2),
        (105, 109, 1),
        (110, 114, 0),
        (115, 119, 0),
        (120, 124, 0),
        (125, 129, 0),
        (130, 134, 2),
        (135, 139, 0),
        (140, 144, 1),
    ]
    assert shown["me"] is None  # anonymous


@pytest.mark.parametrize(
    ("name", "me"),
    [
        ("dan", {"won": True, "moves": 130, "bucket": 6}),
        ("fay", {"won": True, "moves": 140, "bucket": 8}),
        ("hal", {"won": False, "moves": 99, "bucket": None}),
        ("ivy", None),  # flagged: not on the board
        ("kim", None),  # never played
    ],
)
def test_you_are_here(day, client_for, name, me):
    assert histogram_of(client_for(day[name]), day["date"])["me"] == me


def test_public_counts_are_the_same_for_everyone(day, client_for):
    answers = [
        histogram_of(client, day["date"]) for client in (APIClient(), client_for(day["ann"]), client_for(day["kim"]))
    ]
    assert len({str({k: v for k, v in a.items() if k != "me"}) for a in answers}) == 1


def test_one_aggregate_query_then_none_while_cached(day, django_assert_num_queries, client_for):
    from django.contrib.auth.models import AnonymousUser

    with django_assert_num_queries(1):
        first = histogram.day_histogram(day["date"], AnonymousUser())
    with django_assert_num_queries(0):
        assert histogram.day_histogram(day["date"], AnonymousUser()) == first
    with django_assert_num_queries(1):  # the caller's own entry: one probe by (board, player)
        assert histogram.day_histogram(day["date"], day["dan"])["me"]["bucket"] == 6


def test_a_frozen_day_reads_the_same(day, _fresh_redis):
    before = histogram_of(APIClient(), day["date"])
    assert freeze.board_freeze(order.daily_board(day["date"])) is not None
    _fresh_redis.flushdb()  # counted again, from the frozen board
    assert histogram_of(APIClient(), day["date"]) == before


def test_a_new_result_shows_once_the_board_changes(make_player, play, today_deal, won_game, client_for, monkeypatch):
    """Through the real path: a result verified, its entry mirrored, the board marked changed."""
    today = days.today()
    code, actions = daily_code(today_deal), won_game["actions"]
    alice, bob, carl = make_player("alice"), make_player("bob"), make_player("carl")
    play(alice, code, actions)
    first = histogram_of(client_for(alice), today)
    assert (first["winners"], first["final"], first["me"]["won"]) == (1, False, True)
    assert first["buckets"][first["me"]["bucket"]]["count"] == 1
    play(bob, code, actions)
    # A busy day: the histogram may lag LAG_SECONDS behind its board.
    assert histogram_of(client_for(carl), today)["winners"] == 1
    monkeypatch.setattr(histogram, "LAG_SECONDS", 0)
    again = histogram_of(client_for(bob), today)
    assert again["winners"] == 2 and again["me"]["moves"] == first["me"]["moves"]
    assert sum(b["count"] for b in again["buckets"]) == 2


def test_a_day_to_come_has_no_histogram_and_a_bad_day_is_not_found():
    tomorrow = days.today() + timedelta(days=1)
    assert APIClient().get(f"/api/leaderboards/daily/{tomorrow.isoformat()}/histogram/").status_code == 404
    assert APIClient().get("/api/leaderboards/daily/2026-02-30/histogram/").status_code == 404


def test_the_api_answers_in_one_statement_once_cached(day, client_for, django_assert_max_num_queries):
    client = client_for(day["dan"])
    histogram_of(client, day["date"])
    with django_assert_max_num_queries(1):  # cached: the caller's own entry only
        histogram_of(client, day["date"])


def test_while_one_process_counts_again_the_others_serve_the_stale_one(day, monkeypatch, django_assert_num_queries):
    from django.contrib.auth.models import AnonymousUser
    from django.core.cache import cache as django_cache

    from leaderboard.core import cache

    board = order.daily_board(day["date"])
    first = histogram.day_histogram(day["date"], AnonymousUser())
    cache.board_changed(board)  # a change, past the lag
    monkeypatch.setattr(histogram, "LAG_SECONDS", 0)
    assert django_cache.add(f"board:{board}:histogram:computing", 1, 5)  # another process counts
    with django_assert_num_queries(0):
        assert histogram.day_histogram(day["date"], AnonymousUser()) == first
    django_cache.delete(f"board:{board}:histogram:computing")
    with django_assert_num_queries(1):
        histogram.day_histogram(day["date"], AnonymousUser())
