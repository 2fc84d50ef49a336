"""Closed days frozen in PostgreSQL (leaderboard/boards/freeze.py): the pages and every player's
own rank read the same bytes before and after."""

import json
import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/service/)

from games import format_code
from leaderboard.boards import freeze, index, order, store
from leaderboard.boards.services import entries
from leaderboard.core import days
from leaderboard.models import Attempt, BoardEntry, DailyDeal, FrozenBoard, Submission
from leaderboard.play.services import moderation

NUMBER = 4242
PAGE_SIZE = 7
User = get_user_model()


def result(
    player, day, actions, *, won=True, moves=300, score=1200, seconds=600, minute=0, refresh=True, **flags
) -> Submission:
    """A verified result of ``player`` on ``day``'s deal (or the numbered deal when ``day`` is
    None), put on the boards as the service does after a change to a result."""
    at = days.as_utc_datetime(day or days.today() - timedelta(days=20)) + timedelta(hours=1, minutes=minute)
    foundation = 104 if won else 40
    attempt = Attempt.objects.create(
        player=player,
        deal_code=format_code(NUMBER, "D" if day else "N"),
        deal_number=NUMBER,
        daily_date=day,
        ranked=not flags.get("practice"),
        started_at=at - timedelta(seconds=seconds),
    )
    submission = Submission.objects.create(
        attempt=attempt,
        player=player,
        deal_number=NUMBER,
        daily_date=day,
        actions=actions,
        submitted_at=at,
        status=Submission.Status.VERIFIED,
        won=won,
        moves=moves,
        score=score,
        foundation=foundation,
        duration_ms=seconds * 1000,
        clean=True,
        rank_key=order.rank_key(won, moves, score, seconds * 1000, foundation),
        **flags,
    )
    if refresh:
        entries.boards_refresh(submission)
    return submission


def seed(day, actions, count: int = 30) -> list:
    """``count`` players on ``day``'s board, with equal keys (some at the same instant: then the
    id decides), wins and losses, a player's second try that ranks worse, and results that are
    off the boards: hidden, flagged, practice, a copy."""
    DailyDeal.objects.get_or_create(date=day, defaults={"number": NUMBER, "solution": actions})
    players = [User.objects.create(username=f"p{i:02d}") for i in range(count)]
    for i, player in enumerate(players):
        result(
            player, day, actions, won=i % 5 != 0, moves=300 + i % 4 * 10, score=1200, seconds=600 + i % 3, minute=i % 2
        )
    result(players[1], day, actions, moves=900, minute=5, practice=True)
    first = Submission.objects.filter(player=players[2]).first()
    for name, flags in {"hid": {"hidden": True}, "flag": {"flagged": True}, "copy": {"copy_of": first}}.items():
        result(User.objects.create(username=name), day, actions, moves=100, **flags)
    return players


def get(client_for, path: str, player=None) -> bytes:
    response = client_for(player).get(path)
    assert response.status_code == 200, response.content
    return response.content


def snapshot(client_for, day, players) -> tuple[list[bytes], dict[str, bytes]]:
    """Every page of the day's board, and every player's around=me (None: never on the board)."""
    path = f"/api/leaderboards/daily/{day.isoformat()}/?page_size={PAGE_SIZE}"
    pages = [get(client_for, f"{path}&page={page}") for page in range(1, len(players) // PAGE_SIZE + 3)]
    around = {player.username: get(client_for, f"{path}&around=me", player) for player in players}
    return pages, around


def redis_keys(clean_redis, board: str) -> list[bytes]:
    """The board's index in Redis (its cached pages aside)."""
    return clean_redis.keys(f"{index.KEY_PREFIX}:{board}:*")


@pytest.fixture
def closed_day():
    return days.today() - timedelta(days=3)


def test_a_frozen_day_reads_the_same_pages_and_ranks_from_postgresql(
    db, closed_day, won_game, client_for, clean_redis, django_capture_on_commit_callbacks
):
    actions = won_game["actions"][:3]
    with django_capture_on_commit_callbacks(execute=True):
        players = seed(closed_day, actions) + [User.objects.create(username="nobody")]
    board = order.daily_board(closed_day)
    before = snapshot(client_for, closed_day, players)
    assert index.board_index().is_ready(board)  # the open day was read from Redis
    assert b'"count":30' in before[0][0] and b'"me":null' in before[1]["nobody"]

    with django_capture_on_commit_callbacks(execute=True):
        assert freeze.days_freeze() == [board]
    assert FrozenBoard.objects.get(board=board).entries == 30
    assert sorted(BoardEntry.objects.filter(board=board).values_list("rank", flat=True)) == list(range(1, 31))
    assert redis_keys(clean_redis, board) == []
    assert snapshot(client_for, closed_day, players) == before
    assert redis_keys(clean_redis, board) == []  # read from PostgreSQL: the index was not rebuilt
    assert freeze.days_freeze() == [] and freeze.board_freeze(board) is None  # once only
    mine = {player.pk: json.loads(before[1][player.username])["me"] for player in players[:6]}
    found = freeze.frozen_players(board, list(mine) + [players[-1].pk])  # a group's board
    assert [(player, rank + 1) for player, rank, _ in found] == sorted(mine.items(), key=lambda item: item[1])


def test_a_late_change_to_a_frozen_day_reranks_it(
    db, closed_day, won_game, client_for, clean_redis, django_capture_on_commit_callbacks
):
    actions = won_game["actions"][:3]
    with django_capture_on_commit_callbacks(execute=True):
        players = seed(closed_day, actions, count=12)
        freeze.days_freeze()
    board = order.daily_board(closed_day)
    top = (
        Submission.objects.filter(daily_date=closed_day, player__in=players)
        .order_by("rank_key", "submitted_at", "pk")
        .first()
    )
    with django_capture_on_commit_callbacks(execute=True):
        moderation.submission_set_hidden(top, True)  # staff hide the winner
        late = result(User.objects.create(username="late"), closed_day, actions, moves=200, refresh=False)
        entries.boards_refresh_verified(late)  # a verification that finished after the freeze
    players.append(late.player)
    assert FrozenBoard.objects.get(board=board).entries == 12
    frozen = snapshot(client_for, closed_day, players)
    assert redis_keys(clean_redis, board) == []
    assert b'{"rank":1,"player":"late"' in frozen[0][0]

    # The same board, open again (its ranks from a rebuilt Redis index), reads the same bytes.
    FrozenBoard.objects.all().delete()
    BoardEntry.objects.update(rank=None)
    clean_redis.flushdb()
    assert snapshot(client_for, closed_day, players) == frozen


def test_a_write_to_a_frozen_board_goes_nowhere_but_postgresql(
    db, closed_day, won_game, clean_redis, monkeypatch, django_capture_on_commit_callbacks
):
    """The store answers the writes as it does the reads: a frozen board's source has no index,
    so a change to its entries re-ranks it in PostgreSQL and mirrors nothing into Redis."""
    actions = won_game["actions"][:3]
    with django_capture_on_commit_callbacks(execute=True):
        players = seed(closed_day, actions, count=4)
        freeze.days_freeze()
    board, today = order.daily_board(closed_day), order.daily_board(days.today())
    with django_capture_on_commit_callbacks(execute=True):
        changing = store.stores_to_change([board, today])
    assert isinstance(changing[board], store.FrozenSource) and not changing[board].indexed
    assert isinstance(changing[today], store.IndexSource) and changing[today].indexed
    mirrored = store.stores_to_mirror([board, today])
    assert not mirrored[board].indexed and mirrored[today].indexed

    sent = []
    real_index = index.board_index

    def spying_index():
        ranks = real_index()
        monkeypatch.setattr(ranks, "set_entries", lambda player, wanted: sent.append(dict(wanted)) or {})
        return ranks

    monkeypatch.setattr(index, "board_index", spying_index)
    with django_capture_on_commit_callbacks(execute=True):
        late = result(User.objects.create(username="late"), closed_day, actions, moves=200, refresh=False)
        entries.boards_refresh_verified(late)  # a late verification: the board's one write
        entries.boards_mirror([board], players[0].pk)  # a rename's rows, say
    assert sent and all(board not in wanted for wanted in sent)
    assert redis_keys(clean_redis, board) == []
    assert FrozenBoard.objects.get(board=board).entries == 5
    assert BoardEntry.objects.get(board=board, player=late.player).rank == 1


def test_two_freezes_at_once_freeze_once(transactional_db, closed_day, won_game):
    seed(closed_day, won_game["actions"][:3], count=20)
    board = order.daily_board(closed_day)
    start, answers = threading.Barrier(2), []

    def run():
        try:
            start.wait()
            answers.append(freeze.board_freeze(board))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer is None for answer in answers) == [False, True]
    assert sorted(BoardEntry.objects.filter(board=board).values_list("rank", flat=True)) == list(range(1, 21))


def test_open_days_and_numbered_deals_are_never_frozen(db, won_game):
    today = days.today()
    result(User.objects.create(username="alice"), today, won_game["actions"][:3])
    result(User.objects.create(username="bob"), None, won_game["actions"][:3])
    assert freeze.days_freeze() == [] and freeze.days_freeze(today) == []
    assert freeze.board_freeze(order.deal_board(NUMBER)) is None
    assert BoardEntry.objects.filter(rank__isnull=False).count() == 0
    with pytest.raises(CommandError, match="not final"):
        call_command("freeze_days", "--date", today.isoformat())


def test_the_command_freezes_a_given_final_day(db, closed_day, won_game, capsys):
    seed(closed_day, won_game["actions"][:3], count=3)
    call_command("freeze_days", "--date", closed_day.isoformat())
    assert f"froze daily:{closed_day.isoformat()}" in capsys.readouterr().out
    assert FrozenBoard.objects.get().entries == 3


def test_the_freeze_follows_the_clock_it_is_given(db, closed_day, won_game, django_capture_on_commit_callbacks):
    """A clock the caller moves (a simulation of many days, benchmarks/bench_year.py) decides
    when a day is final, as the server's clock does: at its close plus the grace, not before."""
    with django_capture_on_commit_callbacks(execute=True):
        seed(closed_day, won_game["actions"][:3], count=4)
    board = order.daily_board(closed_day)
    entries.index_ensure(board)  # as its view does: the day's index is whole
    final_at = days.day_accepts_until(closed_day)
    assert days.day_final(closed_day) and not days.day_final(closed_day, final_at - timedelta(microseconds=1))
    assert freeze.days_freeze(now=final_at - timedelta(seconds=1)) == []
    assert freeze.board_freeze(board, now=final_at - timedelta(seconds=1)) is None
    assert not FrozenBoard.objects.exists() and index.board_index().is_ready(board)

    with django_capture_on_commit_callbacks(execute=True):
        assert freeze.days_freeze(now=final_at) == [board]
    assert FrozenBoard.objects.get(board=board).frozen_at == final_at
    assert sorted(BoardEntry.objects.filter(board=board).values_list("rank", flat=True)) == [1, 2, 3, 4]
    assert not index.board_index().is_ready(board)
