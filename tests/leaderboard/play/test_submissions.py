import json
from datetime import timedelta

import pytest
from accounts.test_accounts import error_of
from django.test import override_settings
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, daily_code  # noqa: F401  (autouse, as in tests/service/)
from worker import queued_tasks

from games import ACTIONS, format_code, parse_code, replay
from leaderboard import tasks
from leaderboard.models import Attempt, Submission
from leaderboard.play.services import intake, verification

pytestmark = pytest.mark.django_db


def start(client, deal: str) -> dict:
    response = client.post("/api/attempts/", {"deal": deal}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_an_attempt_on_todays_daily_code_counts_for_today(make_player, client_for, today_deal):
    client = client_for(make_player())
    daily = start(client, daily_code(today_deal))
    assert daily["daily_date"] == today_deal.date.isoformat() and daily["number"] == today_deal.number
    numbered = start(client, format_code(today_deal.number, "N"))
    assert numbered["daily_date"] is None
    other_day = start(client, format_code(today_deal.number % 999_999 + 1, "D"))
    assert other_day["daily_date"] is None


@pytest.mark.parametrize("code", ["EH1-N-AAAAAAA", "EH2-N-AAAAAAF", "eh1-n-aaaaaaf", "EH1-X-AAAAAAF", "EH1-N-AACEXHO"])
def test_a_bad_deal_code_is_refused_with_its_reason(make_player, client_for, code):
    response = client_for(make_player()).post("/api/attempts/", {"deal": code}, format="json")
    assert response.status_code == 400
    assert error_of(response)["code"] == "invalid_deal" and code in error_of(response)["message"]


def test_anonymous_players_cannot_start_or_submit(client_for):
    assert client_for().post("/api/attempts/", {"deal": "EH1-N-AAAAAAF"}, format="json").status_code in (401, 403)


def test_a_won_log_is_verified_with_its_result(make_player, play, won_game):
    shown = play(make_player(), won_game["deal"], won_game["actions"], minutes=30)
    assert shown["status"] == "verified"
    assert (shown["won"], shown["score"], shown["moves"], shown["foundation"]) == (
        True,
        won_game["score"],
        won_game["moves"],
        104,
    )
    assert shown["clean"] is True and shown["flagged"] is False and shown["on_boards"] is True
    assert 30 * 60_000 <= shown["duration_ms"] < 31 * 60_000
    assert shown["actions"] == won_game["actions"]


def test_a_hint_makes_a_game_not_clean(make_player, play, won_game):
    shown = play(make_player(), won_game["deal"], won_game["actions"], hints=2)
    assert shown["clean"] is False and shown["hints"] == 2


def test_an_undo_makes_a_game_not_clean(make_player, play, won_game):
    actions = ["s", "u"] + won_game["actions"]
    shown = play(make_player(), won_game["deal"], actions)
    assert shown["won"] and shown["clean"] is False and shown["undos"] == 1
    assert shown["moves"] == won_game["moves"] + 1


def test_an_illegal_log_is_rejected_with_the_index_of_the_first_bad_action(make_player, play):
    shown = play(make_player(), "EH1-N-AAAAAAF", ["s", "s", "1>2", "s"])
    expected = replay("EH1-N-AAAAAAF", ["s", "s", "1>2", "s"])
    assert shown["status"] == "rejected" and shown["error_index"] == 2 == expected.index
    assert "KC cannot go on AD" in shown["error"]
    assert shown["won"] is None and shown["on_boards"] is False


def test_a_rejected_log_reads_in_the_readers_language(make_player, client_for, play):
    """The worker stores the refusal as a code and its arguments; each reader gets its words."""
    player = make_player()
    shown = play(player, "EH1-N-AAAAAAF", ["s", "s", "1>2", "s"])
    assert shown["error_code"] == "column_refuses"
    assert Submission.objects.get(pk=shown["id"]).refusal == {
        "code": "column_refuses",
        "args": {"card": "KC", "target": "AD"},
    }
    url = f"/api/submissions/{shown['id']}/"
    german = client_for(player).get(url, HTTP_ACCEPT_LANGUAGE="de").json()
    polish = client_for(player).get(url, HTTP_ACCEPT_LANGUAGE="pl").json()
    assert german["error"].startswith("1>2: KC kann nicht auf AD") and german["error_code"] == "column_refuses"
    assert polish["error"].startswith("1>2: ") and polish["error"] != shown["error"] != german["error"]
    assert shown["error"].startswith("1>2: KC cannot go on AD")


def test_a_malformed_log_is_refused_at_once_with_its_index(make_player, client_for):
    client = client_for(make_player())
    attempt = start(client, "EH1-N-AAAAAAF")
    response = client.post(f"/api/attempts/{attempt['id']}/submission", {"actions": ["s", "s", "10>1"]}, format="json")
    assert response.status_code == 400
    assert error_of(response)["detail"] == {"index": 2} and "10>1" in error_of(response)["message"]
    assert not Submission.objects.exists()


@pytest.mark.parametrize("body", [{"actions": "s,s"}, {"actions": {"0": "s"}}, {}, {"actions": [1, 2]}])
def test_wrong_types_are_clear_400s(make_player, client_for, body):
    client = client_for(make_player())
    attempt = start(client, "EH1-N-AAAAAAF")
    response = client.post(f"/api/attempts/{attempt['id']}/submission", body, format="json")
    assert response.status_code == 400 and error_of(response)["message"]


def test_a_second_submission_is_a_conflict(make_player, client_for, verify_queued):
    client = client_for(make_player())
    attempt = start(client, "EH1-N-AAAAAAF")
    url = f"/api/attempts/{attempt['id']}/submission"
    with verify_queued():
        assert client.post(url, {"actions": ["s"]}, format="json").status_code == 202
    again = client.post(url, {"actions": ["s", "s"]}, format="json")
    assert again.status_code == 409 and error_of(again)["code"] == "already_submitted"
    assert Submission.objects.get().actions == ["s"]


def test_only_the_owner_may_submit_or_read_the_attempt(make_player, client_for):
    attempt = start(client_for(make_player("alice")), "EH1-N-AAAAAAF")
    mallory = client_for(make_player("mallory"))
    submit = mallory.post(f"/api/attempts/{attempt['id']}/submission", {"actions": ["s"]}, format="json")
    assert submit.status_code == 403 and error_of(submit)["code"] == "forbidden"
    assert mallory.get(f"/api/attempts/{attempt['id']}/").status_code == 403
    assert not Submission.objects.exists()


def test_a_body_over_the_limit_is_413_with_the_limit(make_player, client_for):
    client = client_for(make_player())
    attempt = start(client, "EH1-N-AAAAAAF")
    with override_settings(SUBMISSION_MAX_BYTES=2048):
        big = json.dumps({"actions": ["s"] * 1000})
        response = client.post(f"/api/attempts/{attempt['id']}/submission", big, content_type="application/json")
    assert response.status_code == 413 and "2,048 bytes" in error_of(response)["message"]


def test_too_many_actions_is_413(make_player, client_for):
    client = client_for(make_player())
    attempt = start(client, "EH1-N-AAAAAAF")
    with override_settings(SUBMISSION_MAX_ACTIONS=10):
        response = client.post(f"/api/attempts/{attempt['id']}/submission", {"actions": ["s"] * 11}, format="json")
    assert response.status_code == 413 and "10" in error_of(response)["message"]


def test_deeply_nested_json_is_a_400(make_player, client_for):
    client = client_for(make_player())
    attempt = start(client, "EH1-N-AAAAAAF")
    body = '{"actions": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = client.post(f"/api/attempts/{attempt['id']}/submission", body, content_type="application/json")
    assert response.status_code == 400


def test_verification_is_idempotent(make_player, client_for, won_game):
    client = client_for(make_player())
    attempt = start(client, won_game["deal"])
    client.post(f"/api/attempts/{attempt['id']}/submission", {"actions": won_game["actions"]}, format="json")
    submission = Submission.objects.get()
    assert submission.status == "pending"  # no worker in this test: it waits in the queue
    assert verification.submission_verify(submission.pk).status == "verified"
    assert verification.submission_verify(submission.pk) is None
    submission.refresh_from_db()
    assert submission.deliveries == 1 and submission.status == "verified"


def test_beat_requeues_stale_pending_and_abandoned_claims(make_player, client_for, clean_redis, won_game):
    client = client_for(make_player())
    attempt = start(client, won_game["deal"])
    client.post(f"/api/attempts/{attempt['id']}/submission", {"actions": won_game["actions"]}, format="json")
    submission = Submission.objects.get()
    an_hour = timedelta(hours=1)
    Attempt.objects.update(started_at=submission.attempt.started_at - an_hour)
    Submission.objects.filter(pk=submission.pk).update(
        status="verifying", claimed_at=submission.submitted_at - an_hour, submitted_at=submission.submitted_at - an_hour
    )
    assert verification.requeue_stale() == 1
    assert queued_tasks(clean_redis) == [("leaderboard.tasks.verify_submission", repr((submission.pk,)))]
    tasks.verify_submission(submission.pk)  # as the worker runs the queued task
    submission.refresh_from_db()
    assert submission.status == "verified" and submission.deliveries == 1


def test_a_fresh_pending_submission_is_left_to_its_queued_task(make_player, client_for, won_game):
    client = client_for(make_player())
    attempt = start(client, won_game["deal"])
    client.post(f"/api/attempts/{attempt['id']}/submission", {"actions": won_game["actions"]}, format="json")
    assert verification.requeue_stale() == 0


def test_an_implausibly_fast_result_is_flagged_and_kept_off_the_board(make_player, play, won_game, client_for):
    shown = play(make_player(), won_game["deal"], won_game["actions"], minutes=0.01)
    assert shown["status"] == "verified" and shown["flagged"] is True and shown["on_boards"] is False
    number = parse_code(won_game["deal"]).number
    assert client_for().get(f"/api/leaderboards/deals/{number}/").json()["count"] == 0


def test_the_log_is_private_until_the_day_closes(make_player, play, client_for, won_game):
    shown = play(make_player("alice"), won_game["deal"], won_game["actions"])
    other = client_for(make_player("bob")).get(f"/api/submissions/{shown['id']}/").json()
    assert other["actions"] is None and other["won"] is True
    Attempt.objects.update(started_at=Attempt.objects.get().started_at - timedelta(days=1))
    after = client_for(make_player("carol")).get(f"/api/submissions/{shown['id']}/").json()
    assert after["actions"] == won_game["actions"]


def test_the_hint_endpoint_answers_a_legal_next_action(client_for, make_player, won_game):
    client = client_for(make_player())
    attempt = client.post("/api/attempts/", {"deal": won_game["deal"]}, format="json").json()["id"]
    first = client.post("/api/hints/", {"attempt": attempt, "actions": won_game["actions"][:10]}, format="json")
    assert first.json()["hints"] == 1
    assert replay(won_game["deal"], won_game["actions"][:10] + [first.json()["action"]]).ok
    done = client.post("/api/hints/", {"attempt": attempt, "actions": won_game["actions"]}, format="json")
    assert done.json() == {"action": None, "hints": 1}  # nothing answered, nothing counted
    bad = client.post("/api/hints/", {"attempt": attempt, "actions": ["s", "9>1:4"]}, format="json")
    assert bad.status_code == 400 and error_of(bad)["detail"] == {"index": 1}


@pytest.mark.parametrize(
    ("actions", "found"),
    [
        (["s", "w>3", "3>f", "u", "1>2:3", "f1>2"], None),
        (["s", "w>3", "w>0", "x"], 2),
        (["s", ["w>3"], "w>0"], 1),  # unhashable: the loop still names it
        (["s", 1, "w>3"], 1),
        (["s", "s", {"a": 1}], 2),
        (["s", "1>1"], 1),
    ],
)
def test_first_malformed_names_the_first_text_parse_action_refuses(actions, found):
    bad = intake.first_malformed(actions)
    assert (bad and bad[0]) == found
    expected = next((i for i, text in enumerate(actions) if not isinstance(text, str) or text not in ACTIONS), None)
    assert found == expected
