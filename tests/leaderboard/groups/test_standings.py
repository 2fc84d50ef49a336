"""A group's standings for a month: each day's places among the members (the day board's
order), points by place, first places, games won, days played and the average place."""

from datetime import date

import pytest
from leaderboard_fixtures.groups import board_entry
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/groups/)
from rest_framework.test import APIClient

from leaderboard.groups import selectors, services

pytestmark = pytest.mark.django_db


def test_points_by_place():
    assert [selectors.place_points(p) for p in range(1, 12)] == [10, 8, 6, 5, 4, 3, 2, 1, 1, 1, 1]


def test_a_months_standings_rank_members_by_points_from_their_places(make_player, make_group):
    ann, ben, cat, dan, eve = (make_player(n) for n in ("ann", "ben", "cat", "dan", "eve"))
    group = make_group(ann, ben, cat, dan)
    # 1 December: ann 1st, ben 2nd (a loss), cat 3rd; eve is no member: no place taken.
    board_entry(eve, date(2026, 12, 1), moves=90)
    board_entry(ann, date(2026, 12, 1), moves=100)
    board_entry(ben, date(2026, 12, 1), won=False, moves=80)
    board_entry(cat, date(2026, 12, 1), moves=100, hints=2)
    # 2 December: ben and cat tie on every key and the time: the earlier submission (id) first.
    board_entry(cat, date(2026, 12, 2), moves=120, seconds=500)
    board_entry(ben, date(2026, 12, 2), moves=120, seconds=500)
    # Another month: not counted.
    board_entry(ann, date(2026, 11, 30), moves=50)

    found = selectors.group_standings(group, date(2026, 12, 1))

    assert found["month"] == "2026-12" and found["days"] == 2
    assert found["place_points"] == [10, 8, 6, 5, 4, 3, 2, 1] and found["played_points"] == 1
    rows = {row["player"]: row for row in found["results"]}
    assert rows["cat"] == {
        "rank": 1,
        "player": "cat",
        "points": 16,
        "firsts": 1,
        "won": 2,
        "days_played": 2,
        "average_place": 2.0,
    }
    assert rows["ben"] == {
        "rank": 2,
        "player": "ben",
        "points": 16,
        "firsts": 0,
        "won": 1,
        "days_played": 2,
        "average_place": 2.0,
    }
    assert rows["ann"] == {
        "rank": 3,
        "player": "ann",
        "points": 10,
        "firsts": 1,
        "won": 1,
        "days_played": 1,
        "average_place": 1.0,
    }
    assert rows["dan"] == {
        "rank": 4,
        "player": "dan",
        "points": 0,
        "firsts": 0,
        "won": 0,
        "days_played": 0,
        "average_place": None,
    }
    assert "eve" not in rows


def test_a_member_who_left_leaves_the_standings_and_the_places_close_up(make_player, make_group):
    ann, ben, cat = (make_player(n) for n in ("ann", "ben", "cat"))
    group = make_group(ann, ben, cat)
    for moves, who in enumerate((ann, ben, cat), 100):
        board_entry(who, date(2026, 12, 5), moves=moves)
    services.member_remove(owner=ann, group_id=group.pk, username="ben")
    rows = selectors.group_standings(group, date(2026, 12, 1))["results"]
    assert [(r["player"], r["points"], r["average_place"]) for r in rows] == [("ann", 10, 1.0), ("cat", 8, 2.0)]


def test_nine_and_more_members_earn_a_point_for_playing(make_player, make_group):
    players = [make_player(f"m{i}") for i in range(10)]
    group = make_group(*players)
    for i, who in enumerate(players):
        board_entry(who, date(2026, 12, 3), moves=100 + i)
    rows = selectors.group_standings(group, date(2026, 12, 1))["results"]
    assert [r["points"] for r in rows] == [10, 8, 6, 5, 4, 3, 2, 1, 1, 1]


def test_the_standings_endpoint_takes_a_month(make_player, make_group):
    ann = make_player("ann")
    group = make_group(ann)
    board_entry(ann, date(2026, 10, 7))
    client = APIClient()
    client.force_authenticate(ann)
    assert client.get(f"/api/groups/{group.pk}/standings/?month=2026-10").json()["results"][0]["points"] == 10
    assert client.get(f"/api/groups/{group.pk}/standings/?month=2026-09").json()["days"] == 0
    for bad in ("2026-13", "2026-1", "october", "2026-10-01"):
        answer = client.get(f"/api/groups/{group.pk}/standings/?month={bad}")
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_parameter", bad
