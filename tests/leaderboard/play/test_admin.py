"""Staff tools in the Django admin: each action changes the record and the boards."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, daily_code  # noqa: F401  (autouse, as in tests/service/)
from worker import queued_tasks

import games
from leaderboard import tasks
from leaderboard.models import Submission

pytestmark = pytest.mark.django_db


def run_action(client, model: str, action: str, ids, on_commit) -> None:
    with on_commit(execute=True):
        response = client.post(
            f"/admin/leaderboard/{model}/" if model != "user" else "/admin/auth/user/",
            {"action": action, "_selected_action": [str(i) for i in ids]},
        )
    assert response.status_code == 302, response.content[:500]


def ranked(client_for) -> list[str]:
    return [row["player"] for row in client_for().get("/api/leaderboards/daily/").json()["results"]]


def test_staff_hide_and_show_a_result(
    staff_client, make_player, play, today_deal, won_game, client_for, django_capture_on_commit_callbacks
):
    play(make_player("alice"), daily_code(today_deal), won_game["actions"])
    sid = Submission.objects.get().pk
    run_action(staff_client, "submission", "hide", [sid], django_capture_on_commit_callbacks)
    assert ranked(client_for) == [] and Submission.objects.get().hidden
    run_action(staff_client, "submission", "unhide", [sid], django_capture_on_commit_callbacks)
    assert ranked(client_for) == ["alice"]


def test_staff_reverify_a_submission(
    staff_client, make_player, play, today_deal, won_game, client_for, django_capture_on_commit_callbacks, clean_redis
):
    play(make_player("alice"), daily_code(today_deal), won_game["actions"])
    sid = Submission.objects.get().pk
    run_action(staff_client, "submission", "reverify", [sid], django_capture_on_commit_callbacks)
    assert Submission.objects.get().status == "pending" and ranked(client_for) == []
    assert queued_tasks(clean_redis) == [("leaderboard.tasks.verify_submission", repr((sid,)))]
    with django_capture_on_commit_callbacks(execute=True):
        tasks.verify_submission(sid)  # as the worker runs the queued task
    submission = Submission.objects.get()
    assert submission.status == "verified" and submission.deliveries == 2
    assert ranked(client_for) == ["alice"]


def test_a_result_verified_again_as_rejected_keeps_none_of_its_first_numbers(
    staff_client, make_player, play, today_deal, won_game, client_for, monkeypatch, django_capture_on_commit_callbacks
):
    first = play(make_player("alice"), daily_code(today_deal), won_game["actions"])
    assert first["status"] == "verified" and first["score"] is not None and first["tempo"] is not None
    sid = first["id"]
    run_action(staff_client, "submission", "reverify", [sid], django_capture_on_commit_callbacks)
    # The engine now refuses the log (a rule fixed since): the second verification rejects it.
    monkeypatch.setattr(games, "replay", lambda code, actions: games.ReplayResult(ok=False, index=0, error="no"))
    with django_capture_on_commit_callbacks(execute=True):
        tasks.verify_submission(sid)
    again = Submission.objects.get()
    assert again.status == "rejected" and again.error == "no" and ranked(client_for) == []
    stale = {
        name: getattr(again, name)
        for name in (
            "won",
            "score",
            "moves",
            "foundation",
            "undos",
            "take_backs",
            "stock_passes",
            "waste_to_column",
            "duration_ms",
            "clean",
            "rank_key",
            "tempo",
        )
    }
    assert stale == dict.fromkeys(stale)


def test_staff_clear_a_plausibility_flag(
    staff_client, make_player, play, today_deal, won_game, client_for, django_capture_on_commit_callbacks
):
    play(make_player("speedy"), daily_code(today_deal), won_game["actions"], minutes=0.01)
    assert ranked(client_for) == []
    run_action(
        staff_client, "submission", "clear_flag", [Submission.objects.get().pk], django_capture_on_commit_callbacks
    )
    assert ranked(client_for) == ["speedy"]


def test_staff_find_a_player_and_disable_the_account(staff_client, make_player, django_capture_on_commit_callbacks):
    mallory = make_player("mallory")
    found = staff_client.get("/admin/auth/user/?q=mall")
    assert found.status_code == 200 and b"mallory" in found.content
    run_action(staff_client, "user", "disable", [mallory.pk], django_capture_on_commit_callbacks)
    assert get_user_model().objects.get(pk=mallory.pk).is_active is False


def test_players_cannot_reach_the_admin(make_player):
    client = Client()
    client.force_login(make_player("alice"))
    assert client.get("/admin/leaderboard/submission/").status_code == 302  # to the admin login
