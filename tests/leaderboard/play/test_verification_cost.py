"""What one verification asks of PostgreSQL and Redis, counted: the worker's CPU goes mostly
into statements and round trips, so a change that adds one fails here."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from leaderboard_fixtures.service import (  # noqa: F401  (autouse, as in tests/service/)
    _fresh_redis,
    _tempo_rules_off,
    board_key,
    times_within,
)

from games import format_code
from leaderboard.boards import index
from leaderboard.core import cache
from leaderboard.models import Attempt, BoardEntry, PlayerStats, Submission
from leaderboard.play.selectors import submissions as submission_reads
from leaderboard.play.services import intake, verification

pytestmark = pytest.mark.django_db

# In a test the transaction is a savepoint: SAVEPOINT and RELEASE are counted where the
# worker sends BEGIN and COMMIT (which CaptureQueriesContext does not see).
STATEMENTS = {
    # claim; the engine match's day's solver line and median of wins (each read once, then
    # cached: here the cache is cold); savepoint; result; player lock; entries; daily days, stats;
    # release; mirror's re-read
    "daily win": 11,
    # a given-up daily is a day played: its days and stats too, as a win's
    "daily loss": 9,
    # a result worse than the player's entry: nothing to mirror
    "worse daily loss": 6,
}


def submitted(player, deal, actions, minutes=30) -> Submission:
    attempt = Attempt.objects.create(
        player=player,
        deal_code=format_code(deal.number, "D"),
        deal_number=deal.number,
        daily_date=deal.date,
        ranked=True,
        started_at=timezone.now() - timedelta(minutes=minutes),
    )
    return intake.submission_create(
        attempt=attempt, player=player, actions=actions, times=times_within(len(actions), minutes * 60_000)
    )


def verify_counted(submission, capture) -> list[str]:
    with CaptureQueriesContext(connection) as queries, capture(execute=True):
        verification.submission_verify(submission.pk)
    return [q["sql"] for q in queries]


def test_statements_of_a_verified_daily_win(make_player, today_deal, won_game, django_capture_on_commit_callbacks):
    player = make_player()
    submission = submitted(player, today_deal, won_game["actions"])
    sql = verify_counted(submission, django_capture_on_commit_callbacks)
    assert len(sql) == STATEMENTS["daily win"], sql
    # The column, not the tempo profile's "actions": count stored as JSON with the result.
    assert sum(bool(re.search(r'"actions"(?!:)', s)) for s in sql) == 1, "the move log is read once, by the claim"
    assert PlayerStats.objects.get(player=player).daily_wins == 1
    assert BoardEntry.objects.filter(player=player, submission=submission).count() == 1  # the day's board only


def test_statements_of_a_verified_daily_loss_better_and_worse(
    make_player, today_deal, won_game, django_capture_on_commit_callbacks
):
    player = make_player()
    lost = submitted(player, today_deal, won_game["actions"][:-1])
    assert len(verify_counted(lost, django_capture_on_commit_callbacks)) == STATEMENTS["daily loss"]
    assert BoardEntry.objects.filter(player=player, submission=lost).count() == 1
    worse = submitted(player, today_deal, ["s"] * 60 + won_game["actions"][:-1])  # more moves: ranks lower
    assert len(verify_counted(worse, django_capture_on_commit_callbacks)) == STATEMENTS["worse daily loss"]
    assert BoardEntry.objects.filter(player=player, submission=lost).count() == 1
    assert PlayerStats.objects.get(player=player).daily_wins == 0


def versions(board: str) -> tuple:
    return cache.cache.get(cache._version_key(board)), cache.cache.get(cache._top_version_key(board))


def test_a_worse_result_leaves_the_index_and_the_cached_pages_alone(make_player, play, today_deal, won_game, settings):
    settings.DAILY_RANKED_ATTEMPTS = 3  # all three tries ranked: a player's best result stands
    player = make_player()
    code, board = format_code(today_deal.number, "D"), board_key(today_deal)
    best = play(player, code, won_game["actions"])
    before = versions(board)
    play(player, code, won_game["actions"][:-1])
    assert index.board_index().page(board, 0, 10) == [best["id"]]
    assert versions(board)[1] == before[1]  # the index did not change: top pages stay cached
    assert versions(board) == before  # the conditional upsert changed no entry: nothing to mirror
    better = play(player, code, won_game["actions"], minutes=10)  # quicker: ranks better
    assert index.board_index().page(board, 0, 10) == [better["id"]]
    assert versions(board)[0] > before[0] and versions(board)[1] > before[1]


def test_a_submission_whose_attempt_started_in_an_earlier_month_is_claimed_too(
    make_player, today_deal, won_game, django_capture_on_commit_callbacks
):
    # The claim looks in this month's partition first; an older attempt's submission is found
    # by a second claim over every partition, and verifies as any other.
    player = make_player()
    submission = submitted(player, today_deal, won_game["actions"], minutes=45 * 24 * 60)
    sql = verify_counted(submission, django_capture_on_commit_callbacks)
    assert sum(s.startswith('UPDATE "leaderboard_submission" s SET "status"') for s in sql) == 2
    submission.refresh_from_db()
    assert submission.status == Submission.Status.VERIFIED


def test_this_months_claim_names_the_partition_key(
    make_player, today_deal, won_game, django_capture_on_commit_callbacks
):
    # Both statements on the submission carry its partition's key, so PostgreSQL plans one partition.
    player = make_player()
    submission = submitted(player, today_deal, won_game["actions"])
    statements = verify_counted(submission, django_capture_on_commit_callbacks)
    claim = statements[0]
    store = next(s for s in statements if s.startswith('UPDATE "leaderboard_submission" SET'))
    assert 's."attempt_started_at" >= ' in claim and 's."attempt_started_at" < ' in claim
    assert store.startswith('UPDATE "leaderboard_submission" SET') and '"attempt_started_at" = ' in store


def test_the_statements_on_partitioned_tables_keep_a_generic_plan(make_player, today_deal, won_game):
    # Their month is written out (sql.within), not a parameter: PostgreSQL prunes the partitions
    # when it plans, so the prepared statement's generic plan is kept and it is not planned anew
    # at every execution (with parameters, every plan was a custom one).
    for n in range(12):
        player = make_player(f"p{n}")
        submission = submitted(player, today_deal, won_game["actions"])
        submission_reads.attempt_for(player, submission.attempt_id)
        verification.submission_verify(submission.pk)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements "
            "WHERE statement ~ '^(SELECT|INSERT INTO|UPDATE) \"leaderboard_(submission|attempt)\"'"
        )
        plans = cursor.fetchall()
    assert len(plans) == 4, plans  # the attempt's read, the INSERT, the claim, the result
    for statement, generic, custom in plans:
        assert generic > 0 and custom <= 5, (statement, generic, custom)
