"""Guest players (issue 22, item 2): a visitor plays today's ranked try as a guest, bound to its
browser; its verified result shows the rank it would have, and ranks on the boards only once
the guest keeps it under a name, before its day is final. Sign-ups and guests share one
throttle; guests idle for GUEST_KEEP_DAYS are deleted."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from leaderboard_fixtures.mailbox import delivered
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off, times_within  # noqa: F401
from rest_framework.test import APIClient

from leaderboard import tasks
from leaderboard.accounts import guests
from leaderboard.core import days
from leaderboard.models import Attempt, BoardEntry, PlayerStats, Submission
from leaderboard.record.models import GUEST_PREFIX

pytestmark = pytest.mark.django_db
User = get_user_model()


def guest_client() -> APIClient:
    client = APIClient()
    made = client.post("/api/auth/guest/")
    assert made.status_code == 201, made.json()
    return client


def play_given_up(client, verify_queued, actions, minutes: float = 20) -> dict:
    """Today's ranked try, given up after ``actions``, verified in-process."""
    attempt = client.post("/api/attempts/", {"deal": "daily"}, format="json").json()
    assert attempt["ranked"] is True
    Attempt.objects.filter(pk=attempt["id"]).update(
        started_at=Attempt.objects.get(pk=attempt["id"]).started_at - timedelta(minutes=minutes)
    )
    with verify_queued():
        sent = client.post(
            f"/api/attempts/{attempt['id']}/submission",
            {"actions": actions, "times": times_within(len(actions), minutes * 30_000)},
            format="json",
        )
    assert sent.status_code == 202, sent.json()
    return client.get(sent.json()["url"]).json()


def test_a_guest_is_signed_in_on_this_browser_with_no_name(today_deal):
    client = APIClient()
    made = client.post("/api/auth/guest/")
    assert made.status_code == 201
    body = made.json()
    assert body["guest"] is True and body["authenticated"] is True and body["username"] is None
    assert len(body["token"]) == 40
    assert client.get("/api/auth/me/").json() == {
        "username": None,
        "authenticated": True,
        "guest": True,
        "is_staff": False,
        "email": "",
    }
    guest = User.objects.get()
    assert guest.username.startswith(GUEST_PREFIX) and not guest.has_usable_password()
    # The session cookie outlives the browser: the guest's results stay bound to it.
    assert client.session.get_expiry_age() == 30 * 86400
    # A second guest from a signed-in browser is refused.
    again = client.post("/api/auth/guest/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "signed_in"
    token = APIClient()
    token.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert token.get("/api/auth/me/").json()["guest"] is True


def test_an_unclaimed_guests_result_is_verified_with_the_rank_it_would_have_but_on_no_board(
    today_deal, won_game, make_player, client_for, verify_queued
):
    named = client_for(make_player("alice"))
    alice = play_given_up(named, verify_queued, won_game["actions"][:40])
    assert alice["on_boards"] is True

    guest = guest_client()
    mine = play_given_up(guest, verify_queued, won_game["actions"][:20])
    assert mine["status"] == "verified" and mine["won"] is False
    assert mine["guest"] is True and mine["on_boards"] is False
    # Fewer cards home than alice's: it would be second of two.
    assert mine["guest_rank"] == {"rank": 2, "count": 2}
    board = guest.get("/api/leaderboards/daily/?around=me").json()
    assert board["count"] == 1 and board["me"] is None
    public = APIClient().get("/api/leaderboards/daily/").json()
    assert [row["player"] for row in public["results"]] == ["alice"]
    # Not to anyone else: the guest's result is not public at all.
    assert APIClient().get(f"/api/submissions/{mine['id']}/").status_code == 404
    assert named.get(f"/api/submissions/{mine['id']}/").json().get("guest_rank") is None
    guest_name = User.objects.get(username__startswith=GUEST_PREFIX).username
    assert APIClient().get(f"/api/players/{guest_name}/").status_code == 404
    assert PlayerStats.objects.get(player__username=guest_name).last_played_streak == 0
    assert alice["guest_rank"] is None


def test_keeping_the_result_keeps_attempt_result_rank_and_streak(today_deal, won_game, verify_queued):
    guest = guest_client()
    mine = play_given_up(guest, verify_queued, won_game["actions"][:30])
    attempt_id = mine["attempt"]

    kept = guest.post("/api/auth/keep/", {"username": "harpist", "password": PASSWORD}, format="json")
    assert kept.status_code == 200, kept.json()
    assert kept.json() | {"token": None} == {
        "username": "harpist",
        "authenticated": True,
        "guest": False,
        "is_staff": False,
        "email": "",
        "token": None,
    }
    assert guest.get("/api/auth/me/").json()["username"] == "harpist"  # the session goes on
    player = User.objects.get(username="harpist")
    assert player.check_password(PASSWORD)
    assert User.objects.count() == 1  # the same player, renamed: nothing copied
    submission = Submission.objects.get()
    assert str(submission.attempt_id) == attempt_id and submission.player_id == player.pk
    assert submission.guest is False and submission.on_boards

    again = guest.get(f"/api/submissions/{mine['id']}/").json()
    assert again["on_boards"] is True and again["guest_rank"] is None
    board = APIClient().get("/api/leaderboards/daily/").json()
    assert [row["player"] for row in board["results"]] == ["harpist"]
    assert guest.get("/api/leaderboards/daily/?around=me").json()["me"] == 1
    stats = PlayerStats.objects.get(player=player)
    assert (stats.last_played_streak, stats.last_played_date) == (1, days.today())
    profile = APIClient().get("/api/players/harpist/").json()
    assert profile["played_streak"] == 1 and profile["history"][0]["rank"] == 1
    # Logging in with the kept name works; keeping twice is refused.
    assert (
        APIClient().post("/api/auth/login/", {"username": "harpist", "password": PASSWORD}, format="json").status_code
        == 200
    )
    twice = guest.post("/api/auth/keep/", {"username": "harp2", "password": PASSWORD}, format="json")
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "not_a_guest"


def test_keeping_after_the_day_is_final_keeps_the_history_but_not_the_board(today_deal, won_game, verify_queued):
    guest = guest_client()
    mine = play_given_up(guest, verify_queued, won_game["actions"][:30])
    # The guest kept it only once the day was final (its close and grace have passed).
    long_ago = days.today() - timedelta(days=3)
    Submission.objects.filter(pk=mine["id"]).update(daily_date=long_ago)
    Attempt.objects.filter(pk=mine["attempt"]).update(daily_date=long_ago)
    assert guest.get(f"/api/submissions/{mine['id']}/").json()["guest_rank"] is None  # no rank to win any more

    kept = guest.post("/api/auth/keep/", {"username": "latecomer", "password": PASSWORD}, format="json")
    assert kept.status_code == 200
    submission = Submission.objects.get()
    assert submission.player.username == "latecomer" and submission.guest is True and not submission.on_boards
    assert not BoardEntry.objects.exists()
    assert guest.get(f"/api/submissions/{mine['id']}/").json()["moves"] == 30  # still the player's own
    assert PlayerStats.objects.get(player__username="latecomer").last_played_streak == 0


@pytest.mark.parametrize(
    "username, password, status, code",
    [
        ("alice", PASSWORD, 409, "username_taken"),
        ("ALICE", PASSWORD, 409, "username_taken"),
        ("аlice", PASSWORD, 409, "username_looks_alike"),  # a Cyrillic "а"
        ("", PASSWORD, 400, "invalid"),  # refused by the form before the service
        ("bob", "short", 400, "invalid_signup"),
        ("~guest-0123", PASSWORD, 400, "invalid_signup"),  # no one can take a guest's placeholder
    ],
)
def test_keeping_applies_the_sign_up_rules(make_player, username, password, status, code):
    make_player("alice")
    guest = guest_client()
    refused = guest.post("/api/auth/keep/", {"username": username, "password": password}, format="json")
    assert refused.status_code == status and refused.json()["error"]["code"] == code
    assert User.objects.get(pk=guest.get("/api/auth/me/").wsgi_request.user.pk).username.startswith(GUEST_PREFIX)


def test_a_signed_out_visitor_cannot_keep_anything():
    assert APIClient().post("/api/auth/keep/", {"username": "x", "password": PASSWORD}, format="json").status_code in (
        401,
        403,
    )


def test_guests_count_in_the_sign_up_window(settings):
    settings.SIGNUPS_PER_HOUR = 2
    for _ in range(2):
        guest_client()
    refused = APIClient().post("/api/auth/guest/")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    signup = APIClient().post("/api/auth/signup/", {"username": "carol", "password": PASSWORD}, format="json")
    assert signup.status_code == 429  # one window for both
    assert User.objects.count() == 2


def test_unclaimed_guests_idle_for_guest_keep_days_are_deleted(settings, today_deal, make_player):
    settings.GUEST_KEEP_DAYS = 30
    old = timezone.now() - timedelta(days=31)
    idle, playing, young = guests.guest_create(), guests.guest_create(), guests.guest_create()
    named = make_player("veteran")
    User.objects.filter(pk__in=[idle.pk, playing.pk, named.pk]).update(date_joined=old)
    Attempt.objects.create(player=idle, deal_code="EH1-N-AAAAAAF", deal_number=1, started_at=old)
    Attempt.objects.create(player=playing, deal_code="EH1-N-AAAAAAF", deal_number=1, started_at=timezone.now())

    assert tasks.forget_guests() == 1
    assert set(User.objects.values_list("pk", flat=True)) == {playing.pk, young.pk, named.pk}
    assert not Attempt.objects.filter(player_id=idle.pk).exists()


def test_a_guest_neither_creates_nor_joins_a_group(make_player, client_for):
    owner = client_for(make_player("ada"))
    code = owner.post("/api/groups/", {"name": "Harpists"}, format="json").json()["invite"]["code"]
    guest = guest_client()
    created = guest.post("/api/groups/", {"name": "Guests"}, format="json")
    joined = guest.post("/api/groups/join/", {"code": code}, format="json")
    assert (created.status_code, joined.status_code) == (403, 403)
    assert joined.json()["error"]["code"] == "guest"


def test_a_guest_keeping_its_result_may_give_an_address_confirmed_by_a_link():
    from django.core import mail

    guest = guest_client()
    kept = guest.post(
        "/api/auth/keep/", {"username": "harpist", "password": PASSWORD, "email": "harp@example.org"}, format="json"
    )
    assert kept.status_code == 200 and kept.json()["email"] == ""  # not used before it is confirmed
    (message,) = delivered()
    assert message.to == ["harp@example.org"] and "harpist" in message.body and "/account/email/" in message.body
    refused = guest_client().post(
        "/api/auth/keep/", {"username": "harpist2", "password": PASSWORD, "email": "not an address"}, format="json"
    )
    assert refused.status_code == 400 and not User.objects.filter(username="harpist2").exists()
