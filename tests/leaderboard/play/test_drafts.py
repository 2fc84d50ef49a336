"""An unfinished ranked daily (issue 22, item 1): the page saves its log as it stands, the server
keeps the last one per attempt, and once the day is final a task submits each never-sent try's
last log through the intake, verified by a real worker as the game stood."""

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.db.models import F
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off, times_within  # noqa: F401
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle
from worker import wait_for

from games import replay
from leaderboard import tasks
from leaderboard.core import days
from leaderboard.models import Attempt, AttemptDraft, BoardEntry, PlayerStats, Submission

pytestmark = pytest.mark.django_db


def started(client, deal: str = "daily", minutes: float = 20) -> dict:
    attempt = client.post("/api/attempts/", {"deal": deal}, format="json").json()
    Attempt.objects.filter(pk=attempt["id"]).update(started_at=F("started_at") - timedelta(minutes=minutes))
    return attempt


def save(client, attempt: dict, actions: list, minutes: float = 10):
    return client.put(
        f"/api/attempts/{attempt['id']}/draft",
        {"actions": actions, "times": times_within(len(actions), minutes * 60_000)},
        format="json",
    )


def test_the_last_log_saved_is_kept_one_per_attempt(today_deal, won_game, make_player, client_for):
    client = client_for(make_player("alice"))
    attempt = started(client)
    first = save(client, attempt, won_game["actions"][:5])
    assert first.status_code == 200 and first.json()["actions"] == 5
    second = save(client, attempt, won_game["actions"][:12])
    assert second.status_code == 200
    draft = AttemptDraft.objects.get()
    assert draft.actions == won_game["actions"][:12] and str(draft.attempt_id) == attempt["id"]
    assert draft.saved_at.isoformat().replace("+00:00", "Z") == second.json()["saved_at"]


def test_a_draft_is_refused_where_it_could_not_become_a_result(today_deal, won_game, make_player, client_for):
    alice, bob = client_for(make_player("alice")), client_for(make_player("bob"))
    ranked = started(alice)
    assert save(bob, ranked, won_game["actions"][:3]).status_code == 403
    malformed = save(alice, ranked, ["s", "nonsense"])
    assert malformed.status_code == 400 and malformed.json()["error"]["code"] == "malformed_action"
    no_times = alice.put(f"/api/attempts/{ranked['id']}/draft", {"actions": ["s"]}, format="json")
    assert no_times.status_code == 400 and no_times.json()["error"]["code"] == "times_required"
    too_late = save(alice, ranked, won_game["actions"][:3], minutes=60)  # times past the server's clock
    assert too_late.status_code == 400 and too_late.json()["error"]["code"] == "invalid_times"
    numbered = started(alice, deal="EH1-N-AAAAAAF")
    assert save(alice, numbered, ["s"]).json()["error"]["code"] == "not_ranked"
    sent = alice.post(
        f"/api/attempts/{ranked['id']}/submission",
        {"actions": ["s"], "times": [1000]},
        format="json",
    )
    assert sent.status_code == 202
    assert save(alice, ranked, ["s", "s"]).json()["error"]["code"] == "already_submitted"
    assert not AttemptDraft.objects.exists()
    assert APIClient().put(f"/api/attempts/{ranked['id']}/draft", {"actions": ["s"]}, format="json").status_code in (
        401,
        403,
    )


def test_the_draft_throttle_counts_each_player(today_deal, won_game, make_player, client_for, monkeypatch):
    assert django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["draft"] == "20/minute"
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {**ScopedRateThrottle.THROTTLE_RATES, "draft": "2/minute"}
    )
    client = client_for(make_player("alice"))
    attempt = started(client)
    codes = [save(client, attempt, won_game["actions"][: 3 + n]).status_code for n in range(3)]
    assert codes == [200, 200, 429]


def shift_a_day_back(attempt_id: str) -> None:
    """The try was played yesterday: its attempt, draft and day one day earlier (the day is now final)."""
    Attempt.objects.filter(pk=attempt_id).update(
        started_at=F("started_at") - timedelta(days=1), daily_date=F("daily_date") - timedelta(days=1)
    )
    AttemptDraft.objects.filter(attempt_id=attempt_id).update(
        saved_at=F("saved_at") - timedelta(days=1), daily_date=F("daily_date") - timedelta(days=1)
    )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_at_the_days_final_each_unsent_try_is_submitted_and_verified_by_the_worker(
    today_deal, won_game, monkeypatch, request
):
    monkeypatch.setenv("TEMPO_MIN_ACTIONS", "1000000")
    request.getfixturevalue("worker")
    clients = {}
    for name in ("alice", "bob"):
        clients[name] = APIClient()
        assert (
            clients[name].post("/api/auth/signup/", {"username": name, "password": PASSWORD}, format="json").status_code
            == 201
        )
    left = started(clients["alice"])  # alice leaves her try unfinished
    assert save(clients["alice"], left, won_game["actions"][:25]).status_code == 200
    sent = started(clients["bob"])  # bob saved a draft, then sent his game himself
    assert save(clients["bob"], sent, won_game["actions"][:5]).status_code == 200
    times = times_within(10, 10 * 60_000)
    assert (
        clients["bob"]
        .post(
            f"/api/attempts/{sent['id']}/submission",
            {"actions": won_game["actions"][:10], "times": times},
            format="json",
        )
        .status_code
        == 202
    )
    wait_for(lambda: Submission.objects.filter(status="verified").exists())
    draft = AttemptDraft.objects.get(attempt_id=left["id"])

    assert tasks.submit_unfinished_dailies() == 0  # the day is not final: nothing yet
    shift_a_day_back(left["id"])
    shift_a_day_back(sent["id"])
    assert tasks.submit_unfinished_dailies() == 1
    assert not AttemptDraft.objects.exists()

    result = wait_for(lambda: Submission.objects.filter(attempt_id=left["id"], status="verified").first())
    expected = replay(won_game["deal"], won_game["actions"][:25])
    assert (result.won, result.moves, result.foundation) == (False, 25, expected.foundation)
    # As received when it was saved: the server's clock of the last save is the game's time.
    draft_started = Attempt.objects.get(pk=left["id"]).started_at
    assert result.submitted_at == draft.saved_at - timedelta(days=1)
    assert result.duration_ms == int((result.submitted_at - draft_started).total_seconds() * 1000)
    assert result.on_boards and result.daily_date == days.today() - timedelta(days=1)
    assert BoardEntry.objects.filter(submission=result).exists()
    assert PlayerStats.objects.get(player__username="alice").last_played_date == result.daily_date
    assert Submission.objects.filter(attempt_id=sent["id"]).count() == 1  # bob's own, not his draft
    assert tasks.submit_unfinished_dailies() == 0
