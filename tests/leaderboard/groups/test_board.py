"""A group's board of a day is the day's board filtered to the group's members: the same order
(rank key, then submission time and id: ties included), the same exclusions (hidden, flagged,
practice and copied results are on neither), each row's rank on the day's board, and the same
``around=me``. From the day's Redis index, and from PostgreSQL when the index is not ready or
Redis is away; nothing cached, so a member's arrival or departure shows at once."""

import json
from datetime import timedelta

import pytest
from leaderboard_fixtures.service import (  # noqa: F401  (autouse, as in tests/groups/)
    _fresh_redis,
    _tempo_rules_off,
    board_key,
    daily_code,
    times_within,
    unreachable_index,
)
from rest_framework.test import APIClient

from leaderboard.boards import index
from leaderboard.groups import services
from leaderboard.models import Attempt, Submission
from leaderboard.play.services import moderation

pytestmark = pytest.mark.django_db
MEMBERS = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy")
OTHERS = ("kim", "lou", "max", "ned")


def client_of(player) -> APIClient:
    client = APIClient()
    client.force_authenticate(player)
    return client


def rows(answer) -> list[tuple]:
    return [(r["player"], r["submission"], r["won"], r["moves"]) for r in answer["results"]]


@pytest.fixture
def day(make_player, make_group, play, today_deal, won_game, verify_queued):
    """Today's board: nine members and four others. Wins tied on moves and score (their whole
    seconds too: the submission time decides), losses, a hinted win; among the members a hidden
    result, a flagged one, a practice game after a ranked one, and a copy of an outsider's log."""
    people = {name: make_player(name) for name in MEMBERS + OTHERS}
    group = make_group(people["ann"], *(people[name] for name in MEMBERS[1:]))
    code, actions = daily_code(today_deal), won_game["actions"]
    played = {}
    for name, kind in (
        ("kim", "won"),
        ("ann", "won"),
        ("lou", "lost"),
        ("ben", "won"),
        ("cat", "lost"),
        ("max", "hinted"),
        ("dan", "won"),
        ("eve", "hinted"),
        ("fay", "won"),
        ("gus", "won"),
        ("hal", "lost"),
    ):
        if kind == "lost":
            played[name] = play(people[name], code, actions[: 40 + len(played)], minutes=20)
        else:
            played[name] = play(people[name], code, actions, minutes=30, hints=int(kind == "hinted"))
    # Off the boards: fay's result hidden, gus's flagged.
    moderation.submission_set_hidden(Submission.objects.get(pk=played["fay"]["id"]), True)
    moderation.submission_set_flagged(Submission.objects.get(pk=played["gus"]["id"]), True)
    # ann plays again: practice, never ranked (her first stays).
    again = play(people["ann"], code, actions[:30], minutes=10)
    assert again["practice"] is True
    # ivy sends kim's log: a copy, off the boards.
    kims = Submission.objects.get(pk=played["kim"]["id"]).actions
    attempt = client_of(people["ivy"]).post("/api/attempts/", {"deal": code}, format="json").json()
    Attempt.objects.filter(pk=attempt["id"]).update(
        started_at=Attempt.objects.get(pk=attempt["id"]).started_at - timedelta(minutes=30)
    )
    with verify_queued():
        sent = client_of(people["ivy"]).post(
            f"/api/attempts/{attempt['id']}/submission",
            {"actions": kims, "times": times_within(len(kims), 1_800_000)},
            format="json",
        )
    assert Submission.objects.get(pk=sent.json()["id"]).copy_of_id == played["kim"]["id"]
    return {"people": people, "group": group}


def day_board(viewer) -> dict:
    return client_of(viewer).get("/api/leaderboards/daily/?page_size=100").json()


def group_board(viewer, group, query: str = "page_size=100") -> dict:
    answer = client_of(viewer).get(f"/api/groups/{group.pk}/boards/daily/?{query}")
    assert answer.status_code == 200, answer.content
    return answer.json()


def assert_the_days_order(day) -> dict:
    people, group = day["people"], day["group"]
    whole = day_board(people["ann"])
    expected = [r for r in whole["results"] if r["player"] in MEMBERS]
    found = group_board(people["ann"], group)
    assert rows(found) == rows({"results": expected})
    assert [r["rank"] for r in found["results"]] == list(range(1, len(expected) + 1))
    assert [r["day_rank"] for r in found["results"]] == [r["rank"] for r in expected]
    assert {k: found[k] for k in ("board", "group", "members", "count")} == {
        "board": whole["board"],
        "group": group.pk,
        "members": len(MEMBERS),
        "count": len(expected),
    }
    # Each row as the day's board shows it, plus its place in the group.
    for mine, theirs in zip(found["results"], expected):
        assert mine == {**theirs, "rank": mine["rank"], "day_rank": theirs["rank"]}
    return found


def test_the_group_board_is_the_days_board_filtered_to_the_members_ties_and_pages(day):
    found = assert_the_days_order(day)
    # Off the board: fay (hidden), gus (flagged), ivy (a copy); ann once (her practice game is not).
    assert [r["player"] for r in found["results"]] == ["ann", "ben", "dan", "cat", "hal", "eve"]
    assert found["results"][-1]["hints"] == 1
    # ann, ben and dan won with the same moves, score and whole seconds: submission order.
    tied = [r for r in found["results"] if r["won"] and not r["hints"]]
    assert len({(r["moves"], r["score"], r["duration_ms"] // 1000) for r in tied}) == 1
    assert [r["player"] for r in tied] == ["ann", "ben", "dan"]
    assert [r["submitted_at"] for r in tied] == sorted(r["submitted_at"] for r in tied)
    # Pages of it.
    second = group_board(day["people"]["ann"], day["group"], "page=2&page_size=4")
    assert second["results"] == found["results"][4:8]
    assert second["page"] == 2 and second["page_size"] == 4 and second["count"] == 6
    assert group_board(day["people"]["ann"], day["group"], "page=9&page_size=4")["results"] == []


def test_around_me_answers_as_the_days_board(day):
    people, group = day["people"], day["group"]
    whole = group_board(people["ann"], group)["results"]
    for name, size in (("ann", 3), ("dan", 3), ("eve", 2), ("hal", 5), ("ben", 100)):
        found = group_board(people[name], group, f"around=me&page_size={size}")
        place = next(r["rank"] for r in whole if r["player"] == name)
        radius = size // 2
        first = max(place - 1 - radius, 0)
        assert found["me"] == place
        assert found["results"] == whole[first : first + 2 * radius + 1], name
    # A member without a ranked result (fay: hidden) has no place, and no rows, as on the day's board.
    assert group_board(people["fay"], group, "around=me")["me"] is None
    assert group_board(people["fay"], group, "around=me")["results"] == []
    day_answer = client_of(people["fay"]).get("/api/leaderboards/daily/?around=me").json()
    assert day_answer["me"] is None and day_answer["results"] == []


def test_from_postgresql_when_the_index_is_not_ready_or_redis_is_away(day, monkeypatch):
    expected = group_board(day["people"]["ann"], day["group"])
    # The index lost: rebuilt by the board's store (a small board), then read.
    ranks = index.board_index()
    ranks.drop(board_key_of_today())
    assert group_board(day["people"]["ann"], day["group"]) == expected
    assert ranks.is_ready(board_key_of_today())
    # Redis away: from PostgreSQL.
    monkeypatch.setattr(index, "board_index", unreachable_index)
    assert group_board(day["people"]["ann"], day["group"]) == expected


def test_without_the_index_the_record_ranks_the_same(day, monkeypatch):
    """The PostgreSQL read itself (the store's rebuild kept away): the same rows as the index's."""
    from leaderboard.boards.services import rebuild

    expected = group_board(day["people"]["ann"], day["group"])
    monkeypatch.setattr(rebuild, "index_prepare", lambda board: None)
    index.board_index().drop(board_key_of_today())
    assert group_board(day["people"]["ann"], day["group"]) == expected
    assert not index.board_index().is_ready(board_key_of_today())


def test_a_member_who_joins_or_leaves_shows_or_goes_at_once_and_other_days(day):
    people, group = day["people"], day["group"]
    assert "kim" not in [r["player"] for r in group_board(people["ann"], group)["results"]]
    services.group_join(player=people["kim"], code=group.invite_code)
    assert group_board(people["ann"], group)["results"][0]["player"] == "kim"
    services.member_remove(owner=people["ann"], group_id=group.pk, username="kim")
    services.group_leave(player=people["ben"], group_id=group.pk)
    assert [r["player"] for r in group_board(people["ann"], group)["results"]] == ["ann", "dan", "cat", "hal", "eve"]
    # A day without the members' results, a future day, no day.
    yesterday = (Submission.objects.first().daily_date - timedelta(days=1)).isoformat()
    empty = group_board(people["ann"], group).copy()
    answer = client_of(people["ann"]).get(f"/api/groups/{group.pk}/boards/daily/{yesterday}/").json()
    assert answer["count"] == 0 and answer["results"] == [] and answer["members"] == empty["members"]
    tomorrow = (Submission.objects.first().daily_date + timedelta(days=1)).isoformat()
    assert client_of(people["ann"]).get(f"/api/groups/{group.pk}/boards/daily/{tomorrow}/").status_code == 404
    assert client_of(people["ann"]).get(f"/api/groups/{group.pk}/boards/daily/someday/").status_code == 404


def board_key_of_today() -> str:
    from leaderboard.models import DailyDeal

    return board_key(DailyDeal.objects.get())


def test_a_frozen_closed_day_reads_the_same_group_board_from_postgresql(
    db, won_game, django_capture_on_commit_callbacks, clean_redis, monkeypatch
):
    """A closed day, frozen (its ranks in PostgreSQL, its index dropped): the group's board
    and every member's around=me answer the same bytes as before, by the frozen ranks (no
    ranking pass, which a big day could not afford), with no index rebuilt."""
    from boards.test_freeze import redis_keys, seed
    from django.contrib.auth import get_user_model

    from leaderboard.boards import freeze, order
    from leaderboard.boards.services import rebuild
    from leaderboard.core import days

    closed = days.today() - timedelta(days=3)
    with django_capture_on_commit_callbacks(execute=True):
        players = seed(closed, won_game["actions"][:3])
    users = get_user_model().objects
    members = players[::3] + [users.get(username=name) for name in ("hid", "flag", "copy")]
    group = services.group_create(owner=members[0], name="Closed")
    for member in members[1:]:
        services.group_join(player=member, code=group.invite_code)
    path = f"/api/groups/{group.pk}/boards/daily/{closed.isoformat()}/"

    def answers() -> list[bytes]:
        found = [client_of(members[0]).get(f"{path}?page_size=100").content]
        return found + [client_of(member).get(f"{path}?around=me&page_size=3").content for member in members]

    before = answers()
    assert json.loads(before[0])["count"] == 10 and len(json.loads(before[0])["results"]) == 10
    board = order.daily_board(closed)
    with django_capture_on_commit_callbacks(execute=True):
        assert freeze.days_freeze() == [board]
    assert redis_keys(clean_redis, board) == []
    monkeypatch.setattr(rebuild, "BIG_BOARD_ENTRIES", 0)  # as for a million: no ranking pass
    assert answers() == before
    assert redis_keys(clean_redis, board) == []  # read from PostgreSQL: no index rebuilt
    day_ranks = [row["day_rank"] for row in json.loads(before[0])["results"]]
    whole = client_of(members[0]).get(f"/api/leaderboards/daily/{closed.isoformat()}/?page_size=100").json()
    assert day_ranks == [row["rank"] for row in whole["results"] if row["player"] in {m.username for m in members}]
