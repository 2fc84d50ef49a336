"""The cached token lookup (leaderboard/authentication.py): one cache read instead of a query,
and a token stops working as soon as the change that revokes it commits."""

import time

import pytest
from django.contrib.admin.sites import site
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/service/)
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from leaderboard.accounts import services as accounts
from leaderboard.accounts.admin import PlayerAdmin
from leaderboard.accounts.authentication import _cache_key, _player_key
from leaderboard.models import Attempt

pytestmark = pytest.mark.django_db


def me(token: str):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client.get("/api/auth/me/")


def queries_of(token: str) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        assert me(token).status_code == 200
    return [q["sql"] for q in ctx.captured_queries]


def test_a_known_token_is_read_from_the_cache_after_the_first_request(make_player):
    alice = make_player("alice")
    token = accounts.user_token(alice)
    assert any("authtoken_token" in sql for sql in queries_of(token))  # the first: PostgreSQL
    assert queries_of(token) == []  # then no query at all for /me
    body = me(token).json()
    assert body == {"username": "alice", "authenticated": True, "guest": False, "is_staff": False, "email": ""}
    values = cache.get(_cache_key(token))
    assert alice.password not in values and alice.pk in values  # no password hash in the cache


def test_a_cached_user_is_a_real_player_for_the_writes(make_player):
    """The user from the cache has its other fields deferred: writes that take it as the
    player (an attempt) work, and a field not cached is read when asked for."""
    alice = make_player("alice")
    token = accounts.user_token(alice)
    me(token)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    attempt = client.post("/api/attempts/", {"deal": "EH1-N-AAAAAAF"}, format="json")
    assert attempt.status_code == 201
    assert Attempt.objects.get(pk=attempt.json()["id"]).player_id == alice.pk


def test_a_deleted_token_stops_working_when_the_delete_commits(make_player, django_capture_on_commit_callbacks):
    alice = make_player("alice")
    token = accounts.user_token(alice)
    assert me(token).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        Token.objects.filter(key=token).delete()  # a rotation: delete, then a new key
    assert me(token).status_code == 401
    fresh = accounts.user_token(alice)
    assert fresh != token and me(fresh).json()["username"] == "alice"


@pytest.mark.parametrize("change", ["deactivate", "rename", "delete", "admin_disable"])
def test_a_changed_account_is_seen_at_once(make_player, rf, django_capture_on_commit_callbacks, change):
    alice = make_player("alice")
    token = accounts.user_token(alice)
    assert me(token).json()["username"] == "alice"
    with django_capture_on_commit_callbacks(execute=True):
        if change == "deactivate":
            alice.is_active = False
            alice.save()
        elif change == "rename":
            alice.username = "alicia"
            alice.save()
        elif change == "delete":
            alice.delete()
        else:  # a queryset update: no signal, the action forgets the tokens itself
            PlayerAdmin(accounts.User, site).disable(rf.post("/"), accounts.User.objects.filter(pk=alice.pk))
    answer = me(token)
    if change == "rename":
        assert answer.json()["username"] == "alicia"
    else:
        assert answer.status_code == 401
        assert answer.json()["error"]["message"] == (
            "Invalid token." if change == "delete" else "User inactive or deleted."
        )


def test_a_log_in_keeps_the_cached_lookup(make_player, django_capture_on_commit_callbacks):
    alice = make_player("alice")
    token = accounts.user_token(alice)
    me(token)
    with django_capture_on_commit_callbacks(execute=True):
        response = APIClient().post("/api/auth/login/", {"username": "alice", "password": PASSWORD}, format="json")
    assert response.status_code == 200
    assert cache.get(_cache_key(token)) is not None


def test_a_change_without_signals_is_bounded_by_the_lifetime(make_player, settings):
    settings.AUTH_TOKEN_CACHE_SECONDS = 1
    alice = make_player("alice")
    token = accounts.user_token(alice)
    assert me(token).status_code == 200
    accounts.User.objects.filter(pk=alice.pk).update(is_active=False)  # raw update: no signal
    assert me(token).status_code == 200  # still cached
    time.sleep(1.2)
    assert me(token).status_code == 401


def test_unknown_and_malformed_tokens_are_refused_and_not_cached(make_player):
    make_player("alice")
    for bad in ("0" * 40, "x" * 300, "not-a-token"):
        assert me(bad).status_code == 401
        assert me(bad).json()["error"]["message"] == "Invalid token."  # DRF's own words
    assert cache.get(_cache_key("0" * 40)) is None


def test_with_the_cache_off_every_request_reads_postgresql(make_player, settings):
    settings.AUTH_TOKEN_CACHE_SECONDS = 0
    token = accounts.user_token(make_player("alice"))
    me(token)
    assert any("authtoken_token" in sql for sql in queries_of(token))


def test_an_unreachable_cache_reads_postgresql(make_player, settings):
    token = accounts.user_token(make_player("alice"))
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": "redis://127.0.0.1:9/0"}}
    assert me(token).json()["username"] == "alice"


def test_the_account_id_is_kept_beside_the_lookup_for_its_life(make_player, django_capture_on_commit_callbacks):
    """Beside the lookup, its account id as a plain number (a Redis script reads it: around=me
    in one round trip); set again for the lookup's life when it is missing, dropped with it."""
    alice = make_player("alice")
    token = accounts.user_token(alice)
    assert me(token).status_code == 200
    assert cache.get(_player_key(token)) == alice.pk and cache.ttl(_player_key(token)) > 0
    cache.delete(_player_key(token))  # evicted alone (or cached by a version without it)
    assert queries_of(token) == []
    assert cache.get(_player_key(token)) == alice.pk
    assert 0 < cache.ttl(_player_key(token)) <= cache.ttl(_cache_key(token))
    with django_capture_on_commit_callbacks(execute=True):
        Token.objects.filter(key=token).delete()
    assert cache.get(_cache_key(token)) is None and cache.get(_player_key(token)) is None
