"""Another player's submission: its result only while it stands on a board (else 404, as if it
did not exist), its log only once the day is final (close plus DAILY_GRACE_SECONDS). Verified by
a real Celery worker."""

from datetime import UTC, datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from leaderboard_fixtures.security import token_client
from leaderboard_fixtures.service import (
    _fresh_redis,  # noqa: F401  (autouse, as in tests/security/)
    daily_code,
)
from leaderboard_fixtures.timing import human_times
from rest_framework.test import APIClient
from worker import wait_for

from games import replay
from leaderboard.models import Attempt, BoardEntry, Submission
from leaderboard.play.services import moderation

pytestmark = pytest.mark.security


def submitted(player, deal: str, actions: list) -> int:
    """``player`` plays ``deal`` through the API (started 30 minutes ago by the server's clock);
    the worker verifies it. Returns the submission's id."""
    client = token_client(player)
    attempt = client.post("/api/attempts/", {"deal": deal}, format="json").json()["id"]
    Attempt.objects.filter(pk=attempt).update(
        started_at=Attempt.objects.get(pk=attempt).started_at - timedelta(minutes=30)
    )
    # A person's pace (the tempo rules flag an even one); the model cannot time a broken log.
    times = human_times(deal, actions, 1) if replay(deal, actions).ok else [1000 * (i + 1) for i in range(len(actions))]
    sent = client.post(f"/api/attempts/{attempt}/submission", {"actions": actions, "times": times}, format="json")
    assert sent.status_code == 202, sent.content
    wait_for(lambda: Submission.objects.filter(pk=sent.json()["id"], status__in=("verified", "rejected")).exists())
    return sent.json()["id"]


def seconds_into_today() -> int:
    now = datetime.now(UTC)
    return int((now - now.replace(hour=0, minute=0, second=0, microsecond=0)).total_seconds())


@pytest.mark.slow
def test_others_see_a_result_only_on_a_board_and_its_log_once_the_day_is_final(
    worker, make_player, make_staff, today_deal, won_game, settings
):
    alice, bob, carol, staff = (make_player("alice"), make_player("bob"), make_player("carol"), make_staff("staff"))
    code = daily_code(today_deal)
    ranked = submitted(alice, code, won_game["actions"])
    rejected = submitted(carol, code, ["s", "9>1:4"])
    hidden = submitted(bob, won_game["deal"], won_game["actions"])
    moderation.submission_set_hidden(Submission.objects.get(pk=hidden), True)
    assert BoardEntry.objects.filter(submission_id=ranked).exists()
    assert not BoardEntry.objects.filter(submission_id__in=[rejected, hidden]).exists()

    anonymous, other = APIClient(), token_client(bob)
    for submission_id in (rejected, hidden):
        for reader in (anonymous, token_client(alice)):
            missing = reader.get(f"/api/submissions/{submission_id}/")
            assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    own = token_client(carol).get(f"/api/submissions/{rejected}/").json()
    assert own["status"] == "rejected" and own["actions"] == ["s", "9>1:4"]
    assert token_client(staff).get(f"/api/submissions/{hidden}/").json()["actions"] == won_game["actions"]

    # On the board: the result for everyone, the log not before the day is final.
    for reader in (anonymous, other):
        shown = reader.get(f"/api/submissions/{ranked}/").json()
        assert shown["won"] is True and shown["actions"] is None
    # Played yesterday: the day has closed, but the grace for late submissions runs on...
    Submission.objects.filter(pk=ranked).update(daily_date=today_deal.date - timedelta(days=1))
    settings.DAILY_GRACE_SECONDS = seconds_into_today() + 600
    assert other.get(f"/api/submissions/{ranked}/").json()["actions"] is None
    # ...and once it is over, the log is public.
    settings.DAILY_GRACE_SECONDS = 0
    for reader in (anonymous, other):
        assert reader.get(f"/api/submissions/{ranked}/").json()["actions"] == won_game["actions"]
