"""Races, with threads that each hold their own database connection (committed data): two
submissions for one attempt, one submission delivered to several workers at once, two results
of one player landing on a board together, two sign-ups for one name."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from leaderboard_fixtures.reliability import PASSWORD
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, times_within  # noqa: F401  (autouse, as in tests/reliability/)
from leaderboard_fixtures.timing import human_times
from rest_framework.test import APIClient
from threads import together
from worker import wait_for

from leaderboard.accounts import services as accounts
from leaderboard.models import Attempt, BoardEntry, PlayerStats, Submission
from leaderboard.play.services import attempts, intake, verification

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.reliability]
ROUNDS = 5


def started(player, deal: str, minutes: float = 30) -> Attempt:
    attempt = attempts.attempt_start(player=player, deal_code=deal)
    Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(minutes=minutes))
    attempt.refresh_from_db()
    return attempt


def test_two_concurrent_submissions_for_one_attempt_keep_one(make_player, won_game, worker):
    player = make_player("alice")
    token = accounts.user_token(player)
    for _ in range(ROUNDS):
        attempt = started(player, won_game["deal"])

        def submit(i: int):
            client = APIClient()  # two devices of the same player
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
            actions = won_game["actions"] if i == 0 else won_game["actions"][:-1]
            body = {"actions": actions, "times": human_times(won_game["deal"], actions, seed=1)}  # a person's tempo
            return client.post(f"/api/attempts/{attempt.pk}/submission", body, format="json")

        responses = together(2, submit)
        assert sorted(r.status_code for r in responses) == [202, 409], [r.content for r in responses]
        conflict = next(r for r in responses if r.status_code == 409)
        assert conflict.json()["error"]["code"] == "already_submitted"
        winner = next(i for i, r in enumerate(responses) if r.status_code == 202)
        kept = wait_for(lambda: Submission.objects.filter(attempt=attempt, status="verified").first())
        assert kept.pk == responses[winner].json()["id"]
        assert kept.status == "verified" and kept.deliveries == 1 and kept.won is (winner == 0)
    board = f"deal:{attempt.deal_number}"
    assert BoardEntry.objects.filter(board=board).count() == 1


def test_one_submission_delivered_to_four_workers_at_once_is_verified_once(make_player, won_game):
    player = make_player("alice")
    for _ in range(ROUNDS):
        submission = intake.submission_create(
            attempt=started(player, won_game["deal"]),
            player=player,
            actions=won_game["actions"],
            times=times_within(len(won_game["actions"]), 60_000),
        )
        results = together(4, lambda i: verification.submission_verify(submission.pk))
        assert not any(isinstance(r, Exception) for r in results), results
        assert sum(r is not None for r in results) == 1
        done = Submission.objects.get(pk=submission.pk)
        assert done.status == "verified" and done.deliveries == 1
    assert BoardEntry.objects.filter(player=player).count() == 1  # one deal board, one entry


def test_two_results_of_one_player_verified_together_leave_the_better_on_the_board(
    make_player, won_game, today_deal, settings
):
    from games import format_code

    settings.DAILY_RANKED_ATTEMPTS = 2 * ROUNDS  # every try ranks: two verifications of ranked results race
    player = make_player("alice")
    code = format_code(today_deal.number, "D")
    for _ in range(ROUNDS):
        better, worse = (
            intake.submission_create(
                attempt=started(player, code, minutes),
                player=player,
                actions=actions,
                times=times_within(len(actions), 60_000),
            )
            for minutes, actions in ((20, won_game["actions"]), (10, won_game["actions"][:-1]))
        )
        results = together(2, lambda i: verification.submission_verify((better, worse)[i].pk))
        assert not any(isinstance(r, Exception) for r in results), results
        entry = BoardEntry.objects.get(board=f"daily:{today_deal.date.isoformat()}", player=player)
        assert Submission.objects.get(pk=entry.submission_id).won is True
    assert PlayerStats.objects.get(player=player).daily_wins == 1


def test_two_concurrent_signups_for_one_name_in_any_case_make_one_account():
    for round_ in range(ROUNDS):
        names = [f"racer{round_}", f"RACER{round_}"]
        responses = together(
            2,
            lambda i: APIClient().post(
                "/api/auth/signup/", {"username": names[i], "password": PASSWORD}, format="json"
            ),
        )
        assert sorted(r.status_code for r in responses) == [201, 409], [r.content for r in responses]
        assert get_user_model().objects.filter(username__iexact=names[0]).count() == 1
