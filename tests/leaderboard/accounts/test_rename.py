"""A new name, once in RENAME_DAYS: the sign-up's name rules apply, and the boards, groups and
replays show the new name at once, cached pages and the Redis index included."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from leaderboard_fixtures.groups import make_group  # noqa: F401  (a fixture)
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse)
from rest_framework.test import APIClient

from leaderboard.core import days
from leaderboard.models import DailyDeal
from leaderboard.record.players import PlayerName

from .test_deletion import NUMBER, redis_dump, result

pytestmark = pytest.mark.django_db


def client_of(player) -> APIClient:
    client = APIClient()
    assert (
        client.post("/api/auth/login/", {"username": player.username, "password": PASSWORD}, format="json").status_code
        == 200
    )
    return client


def rename(client, username: str):
    return client.post("/api/auth/name/", {"username": username}, format="json")


def test_a_new_name_shows_on_the_boards_groups_and_replays_at_once(
    make_player, make_group, clean_redis, django_capture_on_commit_callbacks
):
    today = days.today()
    DailyDeal.objects.get_or_create(date=today, defaults={"number": NUMBER, "solution": ["s"]})
    alice, bob = make_player("alice"), make_player("bob")
    with django_capture_on_commit_callbacks(execute=True):
        mine = result(alice, today, moves=100)
        result(bob, today, moves=200)
    group = make_group(alice, bob)
    reader = client_of(bob)
    pages = [
        f"/api/leaderboards/daily/{today}/",
        f"/api/groups/{group.pk}/boards/daily/",
        f"/api/groups/{group.pk}/",
        "/api/leaderboards/players/",
    ]
    before = [reader.get(path).content for path in pages]
    assert [item for item in redis_dump(clean_redis) if b'"alice"' in item]  # rows and pages cached
    assert all(b'"alice"' in body for body in before[:3])

    client = client_of(alice)
    with django_capture_on_commit_callbacks(execute=True):
        answer = rename(client, "alicia")
    assert answer.status_code == 200 and answer.json()["username"] == "alicia"
    for path in pages:
        body = reader.get(path).content
        assert b'"alice"' not in body, path
    assert all(b'"alicia"' in reader.get(path).content for path in pages[:3])
    assert reader.get(f"/api/submissions/{mine.pk}/").json()["player"] == "alicia"
    assert reader.get("/api/players/alicia/").status_code == 200
    assert reader.get("/api/players/alice/").status_code == 404
    assert not [item for item in redis_dump(clean_redis) if b'"alice"' in item]  # rows rewritten, pages gone
    login = {"username": "alicia", "password": PASSWORD}
    assert APIClient().post("/api/auth/login/", login, format="json").status_code == 200

    again = rename(client, "alina")
    assert again.status_code == 409 and again.json()["error"]["code"] == "rename_too_soon"
    PlayerName.objects.filter(player=alice).update(renamed_at=timezone.now() - timedelta(days=31))
    assert rename(client, "alina").status_code == 200


@pytest.mark.parametrize(
    "name, code",
    [("BOB", "username_taken"), ("b\u043eb", "username_looks_alike"), ("", "invalid"), ("a b", "invalid_signup")],
)
def test_a_new_name_follows_the_sign_ups_rules(make_player, name, code):
    make_player("bob")
    alice = make_player("alice")
    answer = rename(client_of(alice), name)
    assert answer.status_code in (400, 409) and answer.json()["error"]["code"] == code, answer.json()
    alice.refresh_from_db()
    assert alice.username == "alice" and PlayerName.objects.get(player=alice).renamed_at is None


def test_the_own_name_in_another_case_is_allowed(make_player):
    alice = make_player("alice")
    assert rename(client_of(alice), "Alice").json()["username"] == "Alice"
    assert json.loads(json.dumps(PlayerName.objects.filter(player=alice).count())) == 1
