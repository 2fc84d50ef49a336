"""A group's board updates itself as the day's does (leaderboard/boards/live.py): tagged, a 304
with no SQL while nothing changed, a 200 when a member's result lands or the members change,
and a removed member's old tag gets the 404 a non-member gets, never a 304."""

import pytest
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, daily_code  # noqa: F401  (autouse, as in tests/groups/)
from rest_framework.test import APIClient

from leaderboard.groups import services

pytestmark = pytest.mark.django_db


def session_client(player) -> APIClient:
    client = APIClient()
    client.force_login(player)
    return client


def test_a_group_board_poll_is_a_304_until_a_member_plays_or_the_members_change(
    make_player, make_group, play, today_deal, won_game, django_assert_num_queries, django_capture_on_commit_callbacks
):
    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    group = make_group(ann, ben)
    code = daily_code(today_deal)
    play(ann, code, won_game["actions"], minutes=30)
    APIClient().get("/api/leaderboards/daily/")  # the day's index built: the versions move once
    path = f"/api/groups/{group.pk}/boards/daily/?page_size=100"
    client = session_client(ann)
    first = client.get(path)
    tag = first["ETag"]
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    with django_assert_num_queries(0):  # no session, no membership read: the tag is ann's own
        assert client.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert session_client(ben).get(path, HTTP_IF_NONE_MATCH=tag).status_code == 200  # ben's own answer
    play(ben, code, won_game["actions"], minutes=10)  # a member's result lands
    played = client.get(path, HTTP_IF_NONE_MATCH=tag)
    assert played.status_code == 200 and [r["player"] for r in played.json()["results"]] == ["ben", "ann"]
    tag = played["ETag"]
    play(cat, code, won_game["actions"], minutes=5)  # an outsider's changes the day's ranks (day_rank)
    assert client.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 200
    tag = client.get(path)["ETag"]
    with django_capture_on_commit_callbacks(execute=True):
        services.group_join(player=cat, code=group.invite_code)  # the members change
    joined = client.get(path, HTTP_IF_NONE_MATCH=tag)
    assert joined.status_code == 200 and joined.json()["members"] == 3


def test_a_removed_member_polling_with_an_old_tag_gets_a_404(
    make_player, make_group, today_deal, django_capture_on_commit_callbacks
):
    ann, ben = make_player("ann"), make_player("ben")
    group = make_group(ann, ben)
    path = f"/api/groups/{group.pk}/boards/daily/?around=me"
    client = session_client(ben)
    client.get(path)  # the day's (empty) index built: the versions move once
    tag = client.get(path)["ETag"]
    assert client.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        services.member_remove(owner=ann, group_id=group.pk, username="ben")
    gone = client.get(path, HTTP_IF_NONE_MATCH=tag)
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "group_not_found"
    # An outsider who sends a member's tag learns nothing either.
    assert session_client(make_player("eve")).get(path, HTTP_IF_NONE_MATCH=tag).status_code == 404
