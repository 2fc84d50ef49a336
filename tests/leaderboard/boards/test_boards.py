from datetime import UTC, timedelta

import pytest
from leaderboard_fixtures.service import (  # noqa: F401  (autouse, as in tests/service/)
    _fresh_redis,
    _tempo_rules_off,
    board_key,
    daily_code,
    times_within,
    unreachable_index,
)
from rest_framework.test import APIClient

from games import format_code, parse_code
from leaderboard.boards import index, order, store
from leaderboard.boards.selectors import pages as reads
from leaderboard.boards.services import entries
from leaderboard.core import days
from leaderboard.models import Attempt, BoardEntry, DailyDeal, Submission
from leaderboard.play.services import moderation, verification

pytestmark = pytest.mark.django_db


def board(path: str, client=None) -> dict:
    response = (client or APIClient()).get(path)
    assert response.status_code == 200, response.json()
    return response.json()


def names(page: dict) -> list[str]:
    return [row["player"] for row in page["results"]]


def test_rank_key_orders_wins_then_moves_then_score_then_duration():
    ordered = [
        (True, 200, 1300, 60_000),
        (True, 200, 1300, 61_000),
        (True, 200, 1250, 1_000),
        (True, 201, 5000, 1_000),
        (False, 10, 10, 1_000),
        (False, 11, 9999, 0),
    ]
    keys = [order.rank_key(*row) for row in ordered]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert all(k < 2**53 for k in keys)
    assert order.rank_key(True, 70_000, 0, 0) == order.rank_key(True, 80_000, 0, 0)  # capped


def test_the_daily_board_ranks_best_results_in_the_documented_order(make_player, play, today_deal, won_game):
    code, actions = daily_code(today_deal), won_game["actions"]
    play(make_player("slow"), code, actions, minutes=50)
    play(make_player("fast"), code, actions, minutes=20)
    play(make_player("more_moves"), code, ["s"] * 60 + actions, minutes=10)  # a full pass of the stock
    play(make_player("unfinished"), code, actions[:-1], minutes=5)
    play(make_player("tied_later"), code, actions, minutes=20)
    page = board("/api/leaderboards/daily/")
    assert names(page) == ["fast", "tied_later", "slow", "more_moves", "unfinished"]
    assert [row["rank"] for row in page["results"]] == [1, 2, 3, 4, 5] and page["count"] == 5
    top = page["results"][0]
    assert (top["won"], top["moves"], top["score"], top["clean"]) == (True, won_game["moves"], won_game["score"], True)
    assert page["results"][3]["moves"] == won_game["moves"] + 60


def test_a_players_best_result_stands_and_rejections_never_show(make_player, play, today_deal, won_game, settings):
    settings.DAILY_RANKED_ATTEMPTS = 3  # each try ranked: the best stands
    alice = make_player("alice")
    code = daily_code(today_deal)
    play(alice, code, won_game["actions"][:-1])
    play(alice, code, won_game["actions"], minutes=40)
    play(alice, code, ["s", "9>1:4"])
    page = board("/api/leaderboards/daily/")
    assert page["count"] == 1 and page["results"][0]["won"] is True


def test_only_attempts_on_the_days_deal_started_that_day_count(make_player, play, today_deal, won_game):
    player = make_player()
    play(player, format_code(today_deal.number, "N"), won_game["actions"])
    assert board("/api/leaderboards/daily/")["count"] == 0
    assert board(f"/api/leaderboards/deals/{today_deal.number}/")["count"] == 1
    assert board(f"/api/leaderboards/deals/{format_code(today_deal.number, 'N').lower()}/")["count"] == 1


def test_pagination_and_around_me(make_player, play, today_deal, won_game, client_for):
    players = [make_player(f"p{i:02d}") for i in range(7)]
    for i, player in enumerate(players):
        play(player, daily_code(today_deal), won_game["actions"], minutes=10 + i)
    second = board("/api/leaderboards/daily/?page=2&page_size=3")
    assert names(second) == ["p03", "p04", "p05"] and [r["rank"] for r in second["results"]] == [4, 5, 6]
    around = board("/api/leaderboards/daily/?around=me&page_size=3", client_for(players[5]))
    assert around["me"] == 6 and names(around) == ["p04", "p05", "p06"]
    assert client_for().get("/api/leaderboards/daily/?around=me").status_code == 401
    lonely = board("/api/leaderboards/daily/?around=me", client_for(make_player("nobody")))
    assert lonely["me"] is None and lonely["count"] == 7


@pytest.mark.parametrize("query", ["page=0", "page=x", "page_size=1000", "around=you"])
def test_bad_board_parameters_are_400(query):
    response = APIClient().get(f"/api/leaderboards/daily/?{query}")
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_parameter"


@pytest.mark.parametrize(
    "path",
    [
        "/api/leaderboards/daily/2999-01-01/",
        "/api/leaderboards/deals/EH1-N-AAAAAAA/",
        "/api/leaderboards/deals/0/",
        "/api/nothing/here/",
    ],
)
def test_unknown_boards_are_404_in_the_error_shape(path):
    response = APIClient().get(path)
    assert response.status_code == 404 and response.json()["error"]["code"] in {"not_found", "invalid_deal"}


def test_a_result_appears_at_once_although_the_page_was_cached(make_player, play, today_deal, won_game):
    play(make_player("first"), daily_code(today_deal), won_game["actions"], minutes=30)
    assert names(board("/api/leaderboards/daily/")) == ["first"]
    play(make_player("second"), daily_code(today_deal), won_game["actions"], minutes=10)
    assert names(board("/api/leaderboards/daily/")) == ["second", "first"]


def test_a_flushed_index_is_rebuilt_from_postgresql_with_the_same_ranks(
    make_player, play, today_deal, won_game, clean_redis
):
    for i in range(5):
        play(make_player(f"p{i}"), daily_code(today_deal), won_game["actions"][: -i or None], minutes=10 + i)
    before = board("/api/leaderboards/daily/?page_size=10")
    clean_redis.flushdb()
    assert not index.board_index().is_ready(board_key(today_deal))
    after = board("/api/leaderboards/daily/?page_size=10")
    assert after == before
    assert index.board_index().size(board_key(today_deal)) == 5


def test_redis_and_postgresql_agree_on_every_rank(make_player, play, today_deal, won_game, monkeypatch):
    for i in range(6):
        play(
            make_player(f"p{i}"),
            daily_code(today_deal),
            won_game["actions"][: len(won_game["actions"]) - i % 3],
            minutes=10 + (i * 7) % 5,
        )
    key = board_key(today_deal)

    def snapshot():
        entries.index_ensure(key)  # as the store does before reading
        ranks = {e.player_id: reads.rank_of(key, e.player_id) for e in BoardEntry.objects.filter(board=key)}
        return store.store_for(key).page(0, 10), ranks

    from_redis = snapshot()
    assert index.board_index().is_ready(key)  # the first snapshot was read from Redis
    monkeypatch.setattr(index, "board_index", unreachable_index)
    assert snapshot() == from_redis
    assert sorted(from_redis[1].values()) == list(range(6))


def test_hiding_a_result_takes_it_off_and_showing_puts_it_back(make_player, play, today_deal, won_game):
    play(make_player("alice"), daily_code(today_deal), won_game["actions"])
    submission = Submission.objects.get()
    moderation.submission_set_hidden(submission, True)
    # transaction.on_commit does not fire inside the test's transaction: mirror as a commit would
    entries.boards_mirror([board_key(today_deal)], submission.player_id)
    assert board("/api/leaderboards/daily/")["count"] == 0
    moderation.submission_set_hidden(submission, False)
    entries.boards_mirror([board_key(today_deal)], submission.player_id)
    assert names(board("/api/leaderboards/daily/")) == ["alice"]


def win_on(player, day, game: dict) -> Submission:
    """A ranked daily win on ``day``, as intake stored it that day (intake refuses it now that the
    day is closed), verified by the service."""
    number = parse_code(game["deal"]).number
    DailyDeal.objects.get_or_create(date=day, defaults={"number": number, "solution": game["actions"]})
    attempt = Attempt.objects.create(
        player=player,
        deal_code=format_code(number, "D"),
        deal_number=number,
        daily_date=day,
        ranked=True,
        started_at=days.as_utc_datetime(day) + timedelta(hours=1),
    )
    submission = Submission.objects.create(
        attempt=attempt,
        player=player,
        deal_number=number,
        daily_date=day,
        actions=game["actions"],
        times=times_within(len(game["actions"]), 30 * 60_000),  # as intake requires for a daily game
        submitted_at=attempt.started_at + timedelta(minutes=30),
    )
    return verification.submission_verify(submission.pk)


def test_streaks_and_the_players_board(make_player, won_game):
    alice, bob = make_player("alice"), make_player("bob")
    today = days.today()
    for back in (4, 2, 1):
        win_on(alice, today - timedelta(days=back), won_game)
    win_on(bob, today, won_game)
    win_on(bob, today - timedelta(days=10), won_game)
    players = board("/api/leaderboards/players/")
    assert players["results"] == [
        {"rank": 1, "player": "alice", "daily_wins": 3, "current_streak": 2, "best_streak": 2},
        {"rank": 2, "player": "bob", "daily_wins": 2, "current_streak": 1, "best_streak": 1},
    ]
    history = board("/api/players/alice/")["history"]
    assert [h["date"] for h in history] == [(today - timedelta(days=b)).isoformat() for b in (1, 2, 4)]


def test_a_streak_ends_when_a_day_is_missed(make_player, won_game):
    carol = make_player("carol")
    today = days.today()
    for back in (5, 4, 3):
        win_on(carol, today - timedelta(days=back), won_game)
    profile = board("/api/players/carol/")
    assert (profile["best_streak"], profile["current_streak"], profile["daily_wins"]) == (3, 0, 3)


def test_a_players_page_lists_their_daily_results(make_player, play, today_deal, won_game):
    play(make_player("alice"), daily_code(today_deal), won_game["actions"])
    profile = board("/api/players/alice/")
    assert profile["history"][0]["date"] == today_deal.date.isoformat()
    assert profile["history"][0]["rank"] == 1 and profile["history"][0]["won"] is True
    assert APIClient().get("/api/players/nobody/").status_code == 404


def test_equal_keys_at_the_same_instant_rank_by_submission_id_as_in_postgresql(clean_redis):
    from datetime import datetime, timezone

    redis_index = index.board_index()
    at = datetime(2026, 1, 1, 12, tzinfo=UTC)
    redis_index.rebuild("deal:424242", [(1, 77, at, 1000, b""), (2, 77, at, 999, b""), (3, 76, at, 1001, b"")])
    assert redis_index.page("deal:424242", 0, 3) == [1001, 999, 1000]
