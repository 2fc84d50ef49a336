"""CSRF on every session-authenticated write, and the throttles on sign-up, log-in, submission
and hints, proven with small rates (the throttles read DRF's ScopedRateThrottle's rates, set
at class level), counted in a fixed window (leaderboard/throttling.py)."""

import json
import time

import pytest
import redis
from django.conf import settings as django_settings
from django.test import Client
from leaderboard_fixtures.reliability import PASSWORD
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/reliability/)
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from leaderboard.accounts import services as accounts
from leaderboard.models import Attempt, Submission
from leaderboard.play.services import attempts

pytestmark = [pytest.mark.django_db, pytest.mark.reliability]
LIMIT = 3


def error_code(response) -> str:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "detail"}, body
    return body["error"]["code"]


# -- CSRF -----------------------------------------------------------------------------------


def session_client(player) -> tuple[Client, str]:
    """A browser: logged in by the login endpoint, holding the CSRF cookie it was given."""
    client = Client(enforce_csrf_checks=True)
    assert client.get("/").status_code == 200  # the page sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    login = client.post(
        "/api/auth/login/",
        json.dumps({"username": player.username, "password": PASSWORD}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert login.status_code == 200
    return client, client.cookies["csrftoken"].value


def test_every_session_authenticated_write_needs_the_csrf_token(make_player):
    alice = make_player("alice")
    client, token = session_client(alice)
    attempt = attempts.attempt_start(player=alice, deal_code="EH1-N-AAAAAAF")
    writes = [
        ("/api/attempts/", {"deal": "EH1-N-AAAAAAF"}, 201),
        ("/api/hints/", {"attempt": str(attempt.pk), "actions": []}, 200),
        (f"/api/attempts/{attempt.pk}/submission", {"actions": ["s"]}, 202),
        ("/api/auth/login/", {"username": "alice", "password": PASSWORD}, 200),
        ("/api/auth/signup/", {"username": "second", "password": PASSWORD}, 201),
        ("/api/auth/logout/", {}, 204),
    ]
    for path, body, _ in writes:
        refused = client.post(path, json.dumps(body), content_type="application/json")
        assert refused.status_code == 403 and error_code(refused) == "permission_denied", path
        assert "CSRF" in refused.json()["error"]["message"], path
        forged = client.post(path, json.dumps(body), content_type="application/json", HTTP_X_CSRFTOKEN="x" * 64)
        assert forged.status_code == 403, path
    # Nothing happened: no attempt or log written, no account made, still logged in.
    assert Attempt.objects.count() == 1 and not Submission.objects.exists()
    assert not accounts.User.objects.filter(username="second").exists()
    assert client.get("/api/auth/me/").json()["username"] == "alice"

    for path, body, status in writes:
        allowed = client.post(path, json.dumps(body), content_type="application/json", HTTP_X_CSRFTOKEN=token)
        assert allowed.status_code == status, (path, allowed.content)
        token = client.cookies["csrftoken"].value  # rotated at each log-in


def test_token_authenticated_writes_need_no_csrf_token(make_player):
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.user_token(make_player('alice'))}")
    assert client.post("/api/attempts/", {"deal": "EH1-N-AAAAAAF"}, format="json").status_code == 201


def test_a_cross_site_form_cannot_log_a_visitor_in_or_sign_them_up(make_player):
    """Log-in and sign-up take anonymous posts without a CSRF token; a form on another site
    can only send form encodings (refused), and JSON from another origin needs CORS (none)."""
    make_player("mallory")
    visitor = Client(enforce_csrf_checks=True)
    for path, fields in (
        ("/api/auth/login/", "username=mallory&password=x"),
        ("/api/auth/signup/", "username=victim&password=correct+horse+battery+staple"),
    ):
        for content_type in ("application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"):
            response = visitor.post(path, fields, content_type=content_type, HTTP_ORIGIN="https://evil.example")
            assert response.status_code == 415 and error_code(response) == "unsupported_media_type"
        preflight = visitor.options(path, HTTP_ORIGIN="https://evil.example", HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST")
        assert "Access-Control-Allow-Origin" not in preflight
    assert "sessionid" not in visitor.cookies
    assert not accounts.User.objects.filter(username="victim").exists()


# -- throttles ------------------------------------------------------------------------------


@pytest.fixture
def tight_rates(monkeypatch):
    monkeypatch.setattr(
        ScopedRateThrottle,
        "THROTTLE_RATES",
        {scope: f"{LIMIT}/minute" for scope in ("signup", "login", "submission", "hint")},
    )


def assert_throttled(response) -> None:
    assert response.status_code == 429, response.content
    assert error_code(response) == "throttled"
    assert int(response["Retry-After"]) > 0


def post(client, path: str, body: dict, **extra):
    return client.post(path, json.dumps(body), content_type="application/json", **extra)


def test_signup_is_throttled_per_address(settings):
    settings.SIGNUPS_PER_HOUR = LIMIT  # sign-ups count in their own sliding window (test_signup_window.py)
    client = Client()
    for i in range(LIMIT):
        assert post(client, "/api/auth/signup/", {"username": f"p{i}", "password": PASSWORD}).status_code == 201
    assert_throttled(post(client, "/api/auth/signup/", {"username": "one_more", "password": PASSWORD}))
    assert not accounts.User.objects.filter(username="one_more").exists()
    other = post(Client(REMOTE_ADDR="10.0.0.2"), "/api/auth/signup/", {"username": "elsewhere", "password": PASSWORD})
    assert other.status_code == 201


def test_login_is_throttled_per_address_right_password_or_not(tight_rates, make_player):
    make_player("alice")
    client = Client()
    for _ in range(LIMIT):
        assert post(client, "/api/auth/login/", {"username": "alice", "password": "guess"}).status_code == 400
    assert_throttled(post(client, "/api/auth/login/", {"username": "alice", "password": PASSWORD}))
    assert "sessionid" not in client.cookies


@pytest.mark.parametrize("behind_proxy", [False, True])
def test_a_forged_x_forwarded_for_does_not_escape_the_throttle(tight_rates, make_player, settings, behind_proxy):
    """As configured here (no proxy) the header is ignored. Behind the one proxy of the
    production setup (DJANGO_NUM_PROXIES=1, its default with DEBUG off) only the address that
    proxy appended counts, not what the client wrote before it."""
    if behind_proxy:
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    make_player("alice")
    client = Client()
    for i in range(LIMIT + 2):
        forged = f"203.0.113.{i}" + (", 198.51.100.7" if behind_proxy else "")
        response = post(
            client, "/api/auth/login/", {"username": "alice", "password": "guess"}, HTTP_X_FORWARDED_FOR=forged
        )
        assert response.status_code == (400 if i < LIMIT else 429), (i, forged)


def test_submissions_are_throttled_per_player(tight_rates, make_player):
    alice, bob = make_player("alice"), make_player("bob")

    def submit(player):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.user_token(player)}")
        attempt = attempts.attempt_start(player=player, deal_code="EH1-N-AAAAAAF")
        return client.post(f"/api/attempts/{attempt.pk}/submission", {"actions": ["s"]}, format="json")

    for _ in range(LIMIT):
        assert submit(alice).status_code == 202
    assert_throttled(submit(alice))
    assert Submission.objects.filter(player=alice).count() == LIMIT
    assert submit(bob).status_code == 202


def test_hints_are_throttled(tight_rates, make_player):
    alice = make_player("alice")
    hint = {"attempt": str(attempts.attempt_start(player=alice, deal_code="EH1-N-AAAAAAF").pk), "actions": []}
    client = Client()
    client.force_login(alice)
    for _ in range(LIMIT):
        assert post(client, "/api/hints/", hint).status_code == 200
    assert_throttled(post(client, "/api/hints/", hint))
    assert Attempt.objects.get().hints == LIMIT


def test_a_window_ends_and_its_counter_never_outlives_it(monkeypatch, make_player):
    """The count lives in one Redis key that expires with the window: Retry-After is what is
    left of it, the client is let in again once it ends, and a counter that lost its expiry
    (a crash between the INCR and the EXPIRE) gets one on the next request."""
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"login": "2/second"})
    make_player("alice")
    client = Client()
    guess = {"username": "alice", "password": "guess"}
    assert [post(client, "/api/auth/login/", guess).status_code for _ in range(3)] == [400, 400, 429]
    store = redis.Redis.from_url(django_settings.REDIS_URL)
    (key,) = store.keys("*throttle-count:login:*")
    assert store.get(key) == b"3" and 0 < store.pttl(key) <= 1000
    time.sleep(1.1)
    assert post(client, "/api/auth/login/", guess).status_code == 400
    store.persist(key)
    assert store.ttl(key) == -1
    assert post(client, "/api/auth/login/", guess).status_code == 400
    assert 0 < store.pttl(key) <= 1000


def test_retry_after_is_what_is_left_of_the_window(monkeypatch, make_player):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"login": "1/hour"})
    make_player("alice")
    client = Client()
    assert post(client, "/api/auth/login/", {"username": "alice", "password": "guess"}).status_code == 400
    refused = post(client, "/api/auth/login/", {"username": "alice", "password": "guess"})
    assert refused.status_code == 429 and 3590 <= int(refused["Retry-After"]) <= 3600


def test_an_unreachable_redis_lets_requests_in(tight_rates, make_player, settings):
    """The throttles count in Redis: while it is down every request is let in (a player must
    still be able to submit), as the cache answers a miss."""
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": "redis://127.0.0.1:9/0"}}
    settings.AXES_FAILURE_LIMIT = LIMIT + 3  # the account's lock-out (in PostgreSQL) is not what is tried here
    make_player("alice")
    client = Client()
    statuses = [
        post(client, "/api/auth/login/", {"username": "alice", "password": "guess"}).status_code
        for _ in range(LIMIT + 2)
    ]
    assert statuses == [400] * (LIMIT + 2)
