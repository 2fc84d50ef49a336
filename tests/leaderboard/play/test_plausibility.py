"""Plausibility: a ranked result no person could have played (more than MAX_ACTIONS_PER_SECOND
by the server's clock) is verified but flagged, and stays off every public board, the players'
board and the player's page until staff review it (admin action clear_flag)."""

import pytest
from django.test import Client
from django.utils.dateparse import parse_datetime
from hypothesis import given
from hypothesis import strategies as st
from leaderboard_fixtures.reliability import TALLY
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/reliability/)

from games import format_code
from leaderboard.models import PlayerStats, Submission
from leaderboard.play.services import verification
from tests.games.helpers import examples

pytestmark = [pytest.mark.django_db, pytest.mark.reliability]


def test_the_plausibility_line(settings):
    settings.MAX_ACTIONS_PER_SECOND = 10
    assert verification.plausible(5, 0) and not verification.plausible(6, 0)  # a few actions of slack
    assert verification.plausible(105, 10_000) and not verification.plausible(106, 10_000)
    assert verification.plausible(5, -60_000) and not verification.plausible(6, -60_000)  # a clock step back
    settings.MAX_ACTIONS_PER_SECOND = 2
    assert verification.plausible(25, 10_000) and not verification.plausible(26, 10_000)


@examples(300)
@given(st.integers(0, 10**6), st.integers(-(10**6), 10**9), st.integers(0, 1000), st.integers(0, 10**6))
def test_more_time_never_makes_a_result_implausible_and_more_actions_never_plausible(actions, ms, more, later):
    TALLY["plausibility: examples"] += 1
    if verification.plausible(actions, ms):
        assert verification.plausible(actions, ms + later) and verification.plausible(max(actions - more, 0), ms)
    else:
        assert not verification.plausible(actions + more, ms)


def public_view(client_for, today_deal) -> dict:
    anonymous = client_for()
    return {
        "daily": anonymous.get("/api/leaderboards/daily/").json()["count"],
        "deal": anonymous.get(f"/api/leaderboards/deals/{today_deal.number}/").json()["count"],
        "players": anonymous.get("/api/leaderboards/players/").json()["count"],
        "history": len(anonymous.get("/api/players/speedy/").json()["history"]),
    }


def test_an_impossible_result_is_flagged_kept_off_every_board_and_put_back_by_staff_review(
    make_player, make_staff, play, client_for, today_deal, won_game, django_capture_on_commit_callbacks
):
    speedy = make_player("speedy")
    assert public_view(client_for, today_deal) == {"daily": 0, "deal": 0, "players": 0, "history": 0}
    # 982 actions in 30 seconds by the server's clock: about 33 a second.
    shown = play(speedy, format_code(today_deal.number, "D"), won_game["actions"], minutes=0.5)
    assert shown["status"] == "verified" and shown["won"] is True and shown["flagged"] is True
    assert not verification.plausible(len(won_game["actions"]), shown["duration_ms"])

    # Off the public boards, the players' board and the player's page; the player sees why.
    assert public_view(client_for, today_deal) == {"daily": 0, "deal": 0, "players": 0, "history": 0}
    assert PlayerStats.objects.get(player=speedy).daily_wins == 0
    own = client_for(speedy)
    assert own.get("/api/leaderboards/daily/?around=me").json()["me"] is None
    assert own.get(f"/api/submissions/{shown['id']}/").json()["flagged"] is True

    # Players cannot review it; staff find it in the admin and clear the flag.
    for reviewer in (make_player("mallory"), speedy):
        client = Client()
        client.force_login(reviewer)
        assert client.get("/admin/leaderboard/submission/?flagged__exact=1").status_code == 302
        client.post("/admin/leaderboard/submission/", {"action": "clear_flag", "_selected_action": [shown["id"]]})
        assert Submission.objects.get(pk=shown["id"]).flagged is True
    staff = Client()
    staff.force_login(make_staff())
    queue = staff.get("/admin/leaderboard/submission/?flagged__exact=1")
    assert queue.status_code == 200 and f'value="{shown["id"]}"'.encode() in queue.content
    with django_capture_on_commit_callbacks(execute=True):
        reviewed = staff.post(
            "/admin/leaderboard/submission/", {"action": "clear_flag", "_selected_action": [shown["id"]]}
        )
    assert reviewed.status_code == 302

    # Verified all along; now on the day's board (never its deal's: that would tell which deal is
    # today's), counted as a daily win, on the player's page.
    after = Submission.objects.get(pk=shown["id"])
    assert (after.status, after.flagged) == ("verified", False)
    assert after.verified_at == parse_datetime(shown["verified_at"])  # reviewed, not verified again
    assert public_view(client_for, today_deal) == {"daily": 1, "deal": 0, "players": 1, "history": 1}
    assert own.get("/api/leaderboards/daily/?around=me").json()["me"] == 1
    assert PlayerStats.objects.get(player=speedy).daily_wins == 1


def test_a_human_pace_is_not_flagged(make_player, play, today_deal, won_game, settings):
    actions = len(won_game["actions"])
    minutes = (actions - 5) / settings.MAX_ACTIONS_PER_SECOND / 60 + 0.05  # just inside the line
    shown = play(make_player("steady"), format_code(today_deal.number, "D"), won_game["actions"], minutes=minutes)
    assert shown["flagged"] is False
