"""Fair play at intake and in the ranking order (issue 12, points 4, 5 and 7): the times a
submission carries are checked against the server's clock, an empty log is refused, losses rank
by the cards on the foundations, hinted results rank after every unhinted one, and the migration
that moved existing results to that order. Real PostgreSQL and Redis; submissions are verified
by the task function in-process (test_exploits_verification.py uses a real worker)."""

import hashlib
import importlib
import json
import random
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st
from leaderboard_fixtures.service import (  # noqa: F401  (fixtures)
    _fresh_redis,
    _tempo_rules_off,
    client_for,
    make_player,
    play,
    today_deal,
    verify_queued,
    won_game,
    won_games,
)
from rest_framework.test import APIClient

from games import format_code, parse_code, replay
from leaderboard.boards import index, order
from leaderboard.models import Attempt, BoardEntry, Submission
from leaderboard.play import tempo
from leaderboard.play.services import intake, verification

from .test_day_and_attempts import start

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("leaderboard.migrations.0004_fair_play_rank_keys")


def started_ago(attempt: dict, seconds: float) -> None:
    """Move the attempt's start back: the server's clock then says the game took ``seconds``."""
    Attempt.objects.filter(pk=attempt["id"]).update(started_at=timezone.now() - timedelta(seconds=seconds))


def submit(client, attempt: dict, body: dict):
    return client.post(f"/api/attempts/{attempt['id']}/submission", body, format="json")


def error(response, status: int) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]


# -- intake ------------------------------------------------------------------------------------


def test_an_empty_log_is_refused_before_anything_else_of_it(make_player, client_for, today_deal):
    alice = client_for(make_player())
    attempt = start(alice)
    assert error(submit(alice, attempt, {"actions": []}), 400)["code"] == "empty_log"
    assert error(submit(alice, attempt, {"actions": [], "times": []}), 400)["code"] == "empty_log"
    assert not Submission.objects.exists()


def test_a_daily_submission_without_times_is_refused(make_player, client_for, today_deal, won_game):
    alice = client_for(make_player())
    attempt = start(alice)
    for body in ({"actions": won_game["actions"]}, {"actions": won_game["actions"], "times": None}):
        refused = error(submit(alice, attempt, body), 400)
        assert refused["code"] == "times_required" and refused["message"], refused
    assert not Submission.objects.exists()


@pytest.mark.parametrize(
    "times, index, problem",
    [
        ([100, 200], 2, "times_count"),  # an action without a time
        ([100, 200, 300, 400], 3, "times_count"),  # a time without an action
        ([100, 50, 200], 1, "time_goes_back"),
        ([100, 200, 60_000 + 2_000 + 5_000], 2, "time_too_late"),  # past the server's 60 s and the slack
        ([100, 200.0, 300], 1, "time_not_an_integer"),
        ([100, True, 300], 1, "time_not_an_integer"),
        ([-1, 200, 300], 0, "time_negative"),
        ("100,200,300", None, "times_not_a_list"),
    ],
)
def test_times_of_the_wrong_shape_are_refused_with_the_index(
    make_player, client_for, today_deal, won_game, times, index, problem
):
    alice = client_for(make_player())
    attempt = start(alice)
    started_ago(attempt, 60)
    refused = error(submit(alice, attempt, {"actions": won_game["actions"][:3], "times": times}), 400)
    assert (refused["code"], refused["detail"]) == ("invalid_times", {"index": index, "problem": problem})
    assert not Submission.objects.exists()


def test_sound_times_are_stored_with_the_log_hash_and_a_numbered_deal_may_omit_them(
    make_player, client_for, today_deal, won_game, settings
):
    alice = client_for(make_player())
    actions = won_game["actions"][:3]
    daily = start(alice)
    started_ago(daily, 60)
    times = [4000, 4000, 60_000 + settings.TIMES_SLACK_MS]  # equal times: a double click; the slack at its end
    assert submit(alice, daily, {"actions": actions, "times": times}).status_code == 202
    numbered = start(alice, won_game["deal"])
    assert submit(alice, numbered, {"actions": actions}).status_code == 202

    stored = {s.attempt_id.hex: s for s in Submission.objects.all()}
    expected_hash = hashlib.sha256(json.dumps(actions, separators=(",", ":")).encode()).hexdigest()
    daily_row, numbered_row = stored[daily["id"].replace("-", "")], stored[numbered["id"].replace("-", "")]
    assert (daily_row.times, daily_row.log_hash, daily_row.practice) == (times, expected_hash, False)
    assert (numbered_row.times, numbered_row.log_hash) == (None, expected_hash)


def test_a_practice_attempts_submission_is_stored_as_practice(make_player, client_for, today_deal, won_game):
    alice = client_for(make_player())
    start(alice)
    practice = start(alice)
    started_ago(practice, 60)
    assert submit(alice, practice, {"actions": ["s"], "times": [1000]}).status_code == 202
    assert Submission.objects.get().practice is True


def test_the_tempo_rules_come_from_settings(settings):
    settings.TEMPO_MIN_ACTIONS, settings.TEMPO_MIN_SPREAD = 80, 2.5
    rules = verification.tempo_rules()
    assert (rules.min_actions, rules.min_spread, rules.min_median_ms) == (80, 2.5, settings.TEMPO_MIN_MEDIAN_MS)
    assert tempo.TempoRules() == tempo.TempoRules(  # the settings' defaults are the documented ones
        min_actions=50,
        min_median_ms=150,
        max_fast_share=0.25,
        min_spread=1.5,
        pause_min_actions=200,
        min_pauses_per_100=0.5,
    )


# -- the ranking order -------------------------------------------------------------------------


def test_a_loss_with_more_cards_home_ranks_first_even_with_more_moves(make_player, play, won_game):
    deal, actions = won_game["deal"], won_game["actions"]
    near, early = actions[:-1], actions[: len(actions) // 2]
    near_result, early_result = replay(deal, near), replay(deal, early)
    assert near_result.foundation > early_result.foundation and near_result.moves > early_result.moves
    play(make_player("early"), deal, early)
    play(make_player("near"), deal, near)
    rows = APIClient().get(f"/api/leaderboards/deals/{parse_code(deal).number}/").json()["results"]
    assert [(row["player"], row["won"], row["moves"]) for row in rows] == [
        ("near", False, near_result.moves),
        ("early", False, early_result.moves),
    ]


def test_a_hinted_win_ranks_after_an_unhinted_loss_and_rows_show_the_hints(make_player, play, today_deal, won_game):
    code = format_code(today_deal.number, "D")
    play(make_player("helped"), code, won_game["actions"], hints=2)
    play(make_player("lost"), code, won_game["actions"][:-1])
    play(make_player("clean"), code, won_game["actions"])
    rows = APIClient().get("/api/leaderboards/daily/").json()["results"]
    assert [(row["player"], row["won"], row["hints"], row["clean"]) for row in rows] == [
        ("clean", True, 0, True),
        ("lost", False, 0, True),
        ("helped", True, 2, False),
    ]
    history = APIClient().get("/api/players/helped/").json()["history"]
    assert [(row["hints"], row["rank"]) for row in history] == [(2, 3)]


def test_the_tiers_never_overlap():
    """The worst result of a tier ranks before the best of the next: 0 won, 1 lost, 2 won with
    hints, 3 lost with hints."""
    huge = dict(moves=10**9, score=0, duration_ms=10**15)
    best = dict(moves=0, score=10**9, duration_ms=0)
    tiers = [(True, 0), (False, 0), (True, 1), (False, 1)]
    for (won, hints), (next_won, next_hints) in zip(tiers, tiers[1:]):
        worst = order.rank_key(won, foundation=0, hints=hints, **huge)
        assert worst < order.rank_key(next_won, foundation=104, hints=next_hints, **best)


results = st.builds(
    dict,
    won=st.booleans(),
    moves=st.integers(0, 10**7),
    score=st.integers(0, 10**7),
    duration_ms=st.integers(0, 10**13),
    foundation=st.integers(0, 104),
    hints=st.integers(0, 10**4),
)


@given(results)
def test_every_key_is_exact_in_a_redis_score(result):
    key = order.rank_key(**result)
    assert 0 <= key < 2**53 and float(key) == key


@given(results, results)
def test_keys_order_results_as_documented(a, b):
    def documented(r):
        tier = (0 if r["won"] else 1) + (2 if r["hints"] else 0)
        moves, score = min(r["moves"], 65_535), min(r["score"], 65_535)
        if r["won"]:
            return tier, moves, -score, min(r["duration_ms"] // 1000, 2**19 - 1)
        return tier, -r["foundation"], moves, -score, min(r["duration_ms"] // 1000, 4095)

    assert (order.rank_key(**a) < order.rank_key(**b)) == (documented(a) < documented(b))
    assert (order.rank_key(**a) == order.rank_key(**b)) == (documented(a) == documented(b))


def test_the_migrations_sql_key_is_rank_key():
    rng = random.Random(12)
    edges = [0, 1, 65_534, 65_535, 65_536, 10**7]
    rows = [
        (won, moves, score, duration_ms, foundation, hints)
        for won in (True, False)
        for moves in edges[:3] + edges[4:]
        for score in edges[::2]
        for duration_ms in (0, 999, 4_095_999, 4_096_000, 524_287_999, 524_288_000, 10**12)
        for foundation, hints in ((0, 0), (104, 1))
    ]
    rows += [
        (
            rng.random() < 0.5,
            rng.randrange(70_000),
            rng.randrange(70_000),
            rng.randrange(10**10),
            rng.randrange(105),
            rng.choice((0, 0, 1, 7)),
        )
        for _ in range(500)
    ]
    values = ", ".join(["(%s, %s, %s, %s::bigint, %s, %s)"] * len(rows))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {MIGRATION.RANK_KEY_SQL} FROM (VALUES {values}) "
            f"AS r(won, moves, score, duration_ms, foundation, hints)",
            [v for row in rows for v in row],
        )
        keys = [key for (key,) in cursor.fetchall()]
    assert keys == [order.rank_key(*row) for row in rows]


def test_the_migration_ranks_existing_results_by_the_new_order(make_player, won_game, today_deal):
    """Results of the old layout: alice's shorter loss was her best (fewer moves). Under the new
    order her loss with more cards home is; her entries and every key are recomputed, and the
    log hash of every submission filled in."""
    alice = make_player("alice")
    code, number = format_code(today_deal.number, "D"), today_deal.number

    def old_key(won, moves, score, seconds):
        return ((((0 if won else 1) << 16 | moves) << 16 | (65_535 - score)) << 20) | seconds

    made = {}
    for name, actions in (("near", won_game["actions"][:-1]), ("early", won_game["actions"][:100])):
        result = replay(code, actions)
        assert result.ok and not result.won
        attempt = Attempt.objects.create(
            player=alice,
            deal_code=code,
            deal_number=number,
            daily_date=today_deal.date,
            ranked=True,
            started_at=timezone.now() - timedelta(minutes=30),
        )
        made[name] = Submission.objects.create(
            attempt=attempt,
            player=alice,
            deal_number=number,
            daily_date=today_deal.date,
            actions=actions,
            submitted_at=timezone.now(),
            status="verified",
            won=False,
            moves=result.moves,
            score=result.score,
            foundation=result.foundation,
            duration_ms=1_800_000,
            clean=True,
            rank_key=old_key(False, result.moves, result.score, 1800),
        )
    for board in (order.daily_board(today_deal.date), order.deal_board(number)):
        BoardEntry.objects.create(
            board=board,
            player=alice,
            submission=made["early"],
            rank_key=made["early"].rank_key,
            submitted_at=made["early"].submitted_at,
        )

    MIGRATION.forwards(apps, SimpleNamespace(connection=connection))

    for submission in Submission.objects.all():
        assert submission.rank_key == order.rank_key(
            False, submission.moves, submission.score, 1_800_000, foundation=submission.foundation
        )
        assert submission.log_hash == intake.log_hash(submission.actions)
    near = Submission.objects.get(pk=made["near"].pk)
    assert [(e.submission_id, e.rank_key) for e in BoardEntry.objects.all()] == [(near.pk, near.rank_key)] * 2


def test_the_index_lives_under_the_new_prefix(make_player, play, today_deal, won_game, clean_redis):
    """Keys of the old layout (lb:) are left alone; the index of the new keys is built from PostgreSQL."""
    clean_redis.zadd(f"lb:{order.daily_board(today_deal.date)}:z", {"stale": 1})
    play(make_player(), format_code(today_deal.number, "D"), won_game["actions"])
    assert clean_redis.zcard(f"{index.KEY_PREFIX}:{order.daily_board(today_deal.date)}:z") == 1
    assert APIClient().get("/api/leaderboards/daily/").json()["count"] == 1
