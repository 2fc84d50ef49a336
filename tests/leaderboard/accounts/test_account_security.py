"""Log-out ends the API token; log-in and sign-up check CSRF whenever a session cookie comes
with them (login CSRF: a form on another site signing the visitor in to the attacker's account)."""

import json

import pytest
import redis
from django.conf import settings as django_settings
from django.test import Client
from leaderboard_fixtures.security import PASSWORD
from leaderboard_fixtures.service import _fresh_redis  # noqa: F401  (autouse, as in tests/security/)
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from leaderboard.accounts import services as accounts

pytestmark = [pytest.mark.django_db, pytest.mark.security]


def post(client, path: str, body: dict, **extra):
    return client.post(path, json.dumps(body), content_type="application/json", **extra)


def cached_token_keys() -> list[bytes]:
    return redis.Redis.from_url(django_settings.REDIS_URL).keys("*auth-token:*")


def test_logging_out_ends_the_token_and_the_next_log_in_issues_a_new_one(
    make_player, django_capture_on_commit_callbacks
):
    make_player("alice")
    client = APIClient(enforce_csrf_checks=True)
    first = post(client, "/api/auth/login/", {"username": "alice", "password": PASSWORD}).json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert client.get("/api/auth/me/").json()["username"] == "alice"
    assert len(cached_token_keys()) == 1  # the lookup is served from Redis from now on

    with django_capture_on_commit_callbacks(execute=True):  # the cached lookup goes at commit
        assert client.post("/api/auth/logout/").status_code == 204
    assert not Token.objects.filter(key=first).exists() and cached_token_keys() == []
    refused = client.get("/api/auth/me/")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "authentication_failed"
    assert client.post("/api/attempts/", {"deal": "EH1-N-AAAAAAF"}, format="json").status_code == 401

    again = APIClient(enforce_csrf_checks=True)
    second = post(again, "/api/auth/login/", {"username": "alice", "password": PASSWORD}).json()["token"]
    assert second != first
    again.credentials(HTTP_AUTHORIZATION=f"Token {second}")
    assert again.get("/api/auth/me/").json()["username"] == "alice"


def test_a_browser_log_out_ends_the_token_too(make_player):
    alice = make_player("alice")
    token = accounts.user_token(alice)
    browser = Client()
    assert post(browser, "/api/auth/login/", {"username": "alice", "password": PASSWORD}).status_code == 200
    assert browser.post("/api/auth/logout/").status_code == 204
    assert not Token.objects.filter(key=token).exists()
    assert browser.get("/api/auth/me/").json()["authenticated"] is False


@pytest.mark.parametrize(
    "path, body, created",
    [
        ("/api/auth/login/", {"username": "mallory", "password": PASSWORD}, 200),
        ("/api/auth/signup/", {"username": "victim2", "password": PASSWORD}, 201),
    ],
)
def test_a_cross_site_log_in_or_sign_up_with_a_session_cookie_needs_the_csrf_token(make_player, path, body, created):
    """The visitor's browser holds a session cookie (a signed-out or expired session: DRF's own
    check covers only a signed-in one). A post from another site carries the cookie but cannot
    read the CSRF token: refused, nobody signed in. The site's own page, which has the token, may."""
    make_player("mallory")
    visitor = Client(enforce_csrf_checks=True)
    assert visitor.get("/login/").status_code == 200  # the page sets the CSRF cookie
    visitor.cookies[django_settings.SESSION_COOKIE_NAME] = "an-expired-session"

    for forged in ({}, {"HTTP_X_CSRFTOKEN": "x" * 64}):
        refused = post(visitor, path, body, HTTP_ORIGIN="https://evil.example", **forged)
        assert refused.status_code == 403, refused.content
        assert refused.json()["error"]["code"] == "permission_denied" and "CSRF" in refused.json()["error"]["message"]
    assert visitor.get("/api/auth/me/").json()["authenticated"] is False
    assert not accounts.User.objects.filter(username="victim2").exists()

    token = visitor.cookies["csrftoken"].value
    allowed = post(visitor, path, body, HTTP_X_CSRFTOKEN=token)
    assert allowed.status_code == created, allowed.content
    assert visitor.get("/api/auth/me/").json()["username"] == body["username"]


def test_without_a_session_cookie_log_in_and_sign_up_need_no_csrf_token(make_player):
    """API clients (they use tokens) and a first visit carry no session cookie."""
    make_player("alice")
    program = APIClient(enforce_csrf_checks=True)
    signed_up = post(program, "/api/auth/signup/", {"username": "bob", "password": PASSWORD})
    assert signed_up.status_code == 201 and signed_up.json()["token"]
    program = APIClient(enforce_csrf_checks=True)
    logged_in = post(program, "/api/auth/login/", {"username": "alice", "password": PASSWORD})
    assert logged_in.status_code == 200 and logged_in.json()["token"]
