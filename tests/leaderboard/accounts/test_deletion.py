"""Delete my account: afterwards (and once the archives' erasure has run) nothing in PostgreSQL
or Redis names or identifies the player, the boards (open in Redis, frozen in PostgreSQL) agree
with the record, and the other players moved up."""

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from leaderboard_fixtures.mailbox import delivered
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse)
from rest_framework.test import APIClient

from games import format_code
from leaderboard import tasks
from leaderboard.accounts import email as emails
from leaderboard.boards import freeze, order
from leaderboard.boards.services import entries
from leaderboard.core import days
from leaderboard.groups import services as groups
from leaderboard.groups.models import Group
from leaderboard.models import ArchiveErasure, Attempt, BoardEntry, DailyDeal, FrozenBoard, Submission, UserSession

pytestmark = pytest.mark.django_db
NUMBER = 4243
NAME, ADDRESS = "zebulon", "zebulon@example.org"


def result(player, day, *, moves: int, minute: int = 0) -> Submission:
    at = days.as_utc_datetime(day) + timedelta(hours=1, minutes=minute)
    attempt = Attempt.objects.create(
        player=player,
        deal_code=format_code(NUMBER, "D"),
        deal_number=NUMBER,
        daily_date=day,
        ranked=True,
        started_at=at - timedelta(seconds=600),
        hints=1,
    )
    submission = Submission.objects.create(
        attempt=attempt,
        player=player,
        deal_number=NUMBER,
        daily_date=day,
        actions=["s", "s"],
        times=[100, 200],
        submitted_at=at,
        status=Submission.Status.VERIFIED,
        won=True,
        moves=moves,
        score=1200,
        foundation=104,
        duration_ms=600_000,
        clean=True,
        rank_key=order.rank_key(True, moves, 1200, 600_000, 104),
    )
    entries.boards_refresh(submission)
    return submission


def signed_up(name: str) -> tuple[APIClient, object]:
    client = APIClient()
    made = client.post("/api/auth/signup/", {"username": name, "password": PASSWORD}, format="json")
    assert made.status_code == 201
    from django.contrib.auth import get_user_model

    return client, get_user_model().objects.get(username=name)


def ranks(client: APIClient, day) -> list[tuple[int, str]]:
    body = client.get(f"/api/leaderboards/daily/{day.isoformat()}/?page_size=50").json()
    return [(row["rank"], row["player"]) for row in body["results"]]


def redis_dump(client) -> list[bytes]:
    """Every key of the Redis database and everything in it, as bytes."""
    found = []
    for key in client.scan_iter():
        kind = client.type(key)
        found.append(key)
        if kind == b"string":
            found.append(client.get(key))
        elif kind == b"hash":
            for field, value in client.hgetall(key).items():
                found += [b"field:" + field, value]
        elif kind == b"zset":
            found += [b"member:" + member for member in client.zrange(key, 0, -1)]
        elif kind == b"set":
            found += list(client.smembers(key))
        elif kind == b"list":
            found += client.lrange(key, 0, -1)
    return found


def user_columns() -> list[tuple[str, str]]:
    """``(table, column)`` of every column that can hold an account's id: the foreign keys to
    auth_user (in PostgreSQL or only in Django: partitioned tables have none) by their name."""
    found = []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND data_type IN ('integer', 'bigint') "
            "AND (column_name IN ('user_id', 'player_id', 'owner_id') "
            "OR (table_name = 'auth_user' AND column_name = 'id'))"
        )
        found = cursor.fetchall()
    return found


def rows_naming(texts: list[str]) -> dict[str, int]:
    """Rows of every table whose text holds any of ``texts`` (case aside)."""
    found = {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        for (table,) in cursor.fetchall():
            for text in texts:
                cursor.execute(f'SELECT count(*) FROM "{table}" t WHERE t::text ILIKE %s', [f"%{text}%"])
                count = cursor.fetchone()[0]
                if count:
                    found[f"{table}:{text}"] = count
    return found


def test_after_deletion_nothing_names_the_player_and_the_boards_are_ranked_again(
    clean_redis, django_capture_on_commit_callbacks
):
    today, closed = days.today(), days.today() - timedelta(days=3)
    for day in (today, closed):
        DailyDeal.objects.get_or_create(date=day, defaults={"number": NUMBER, "solution": ["s"]})
    client, me = signed_up(NAME)
    bob_client, bob = signed_up("bob")
    _, carol = signed_up("carol")
    emails.email_set(me, ADDRESS, base_url="http://testserver/")
    emails.email_confirm(delivered()[-1].body.split("/account/email/")[1].split("/")[0])
    me.refresh_from_db()
    token = client.post("/api/auth/login/", {"username": NAME, "password": PASSWORD}, format="json").json()["token"]
    APIClient().post("/api/auth/login/", {"username": NAME, "password": "wrong"}, format="json")  # axes logs it
    with django_capture_on_commit_callbacks(execute=True):
        mine = [result(me, today, moves=100), result(me, closed, moves=100)]
        for i, player in enumerate((bob, carol)):
            result(player, today, moves=200 + i)
            result(player, closed, moves=200 + i)
        freeze.days_freeze()
    shared = groups.group_create(owner=me, name="Harp night")
    groups.group_join(player=bob, code=shared.invite_code)
    alone = groups.group_create(owner=me, name="Solo")
    theirs = groups.group_create(owner=carol, name="Carol's")
    groups.group_join(player=me, code=theirs.invite_code)
    assert FrozenBoard.objects.filter(board=order.daily_board(closed)).exists()
    for day in (today, closed):  # the boards read (and cached) with the player on them
        assert ranks(bob_client, day) == [(1, NAME), (2, "bob"), (3, "carol")]
    bob_client.get("/api/leaderboards/players/")
    assert any(NAME.encode() in item for item in redis_dump(clean_redis))

    assert UserSession.objects.filter(user=me).exists()  # the sign-up's session, under its account
    wrong = client.post("/api/auth/delete/", {"password": "nope"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "wrong_password"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post("/api/auth/delete/", {"password": PASSWORD}, format="json").status_code == 204
    # The archives' erasure, left pending by the request, run as the worker runs its task.
    assert list(ArchiveErasure.objects.values_list("player_id", flat=True)) == [me.pk]
    tasks.erase_from_archives(me.pk)
    assert not ArchiveErasure.objects.exists()

    # PostgreSQL: no row names the player, by id, name or address.
    columns = user_columns()
    assert len(columns) >= 8  # auth_user.id, attempts, submissions, entries, stats, names, groups, tokens...
    for table, column in columns:
        with connection.cursor() as cursor:
            cursor.execute(f'SELECT count(*) FROM "{table}" WHERE "{column}" = %s', [me.pk])
            assert cursor.fetchone()[0] == 0, f"{table}.{column} still holds the player's id"
    assert rows_naming([NAME, ADDRESS, token]) == {}
    assert not Submission.objects.filter(pk__in=[s.pk for s in mine]).exists()
    assert all(s.get_decoded().get("_auth_user_id") != str(me.pk) for s in UserSession.objects.all())
    # Redis: neither the name nor the player's results.
    dump = redis_dump(clean_redis)
    assert not [item for item in dump if NAME.encode() in item or token.encode() in item]
    assert not [
        item for item in dump if item.startswith(b"member:") and any(item.endswith(f":{s.pk}".encode()) for s in mine)
    ]
    assert not [item for item in dump if item == f"field:{me.pk}".encode()]
    # The boards agree with the record, and the others moved up.
    for day in (today, closed):
        board = order.daily_board(day)
        assert ranks(bob_client, day) == [(1, "bob"), (2, "carol")]
        assert BoardEntry.objects.filter(board=board).count() == 2
    frozen = BoardEntry.objects.filter(board=order.daily_board(closed)).order_by("rank")
    assert [(e.rank, e.player.username) for e in frozen] == [(1, "bob"), (2, "carol")]
    assert FrozenBoard.objects.get(board=order.daily_board(closed)).entries == 2
    players = bob_client.get("/api/leaderboards/players/").json()
    assert NAME not in json.dumps(players)
    # Its groups: the shared one is bob's now, the one of its own is gone, carol's stays.
    assert Group.objects.get(pk=shared.pk).owner == bob
    assert not Group.objects.filter(pk=alone.pk).exists()
    assert list(Group.objects.get(pk=theirs.pk).members.values_list("username", flat=True)) == ["carol"]
    # Its token and session no longer work.
    with_token = APIClient()
    with_token.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert with_token.get("/api/auth/me/").status_code == 401
    assert client.get("/api/auth/me/").json()["authenticated"] is False
