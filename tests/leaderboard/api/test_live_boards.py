"""Boards that update themselves (leaderboard/boards/live.py): every board read carries an ETag,
a poll with a tag that still holds is a 304 without a body, read with no SQL and before anyone
is authenticated, and a new verified result (ranked by the verification task, in-process, on
real PostgreSQL and Redis) makes the next poll a 200 with a new tag."""

import pytest
import redis
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, daily_code  # noqa: F401  (autouse, as in tests/service/)
from rest_framework.test import APIClient

from leaderboard.accounts import services as accounts
from leaderboard.api import live
from leaderboard.core import cache

pytestmark = pytest.mark.django_db
DAY_PAGE = "/api/leaderboards/daily/?page=1&page_size=25"
AROUND = "/api/leaderboards/daily/?around=me&page_size=5"


def poll(client, path, tag, **headers):
    return client.get(path, HTTP_IF_NONE_MATCH=tag, **headers)


def token_client(player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.user_token(player)}")
    return client


def session_client(player) -> APIClient:
    client = APIClient()
    client.force_login(player)  # a real session (a row in django_session) and its cookie
    return client


def index_built() -> None:
    """A first read: the day's index is built from PostgreSQL (the results were ranked before
    it existed), which moves the board's versions once; the tags of that first read are older."""
    assert APIClient().get(DAY_PAGE).status_code == 200


def names(response) -> list[str]:
    return [row["player"] for row in response.json()["results"]]


def test_a_board_page_is_tagged_and_a_poll_that_still_holds_is_a_304(make_player, play, today_deal, won_game):
    play(make_player("ann"), daily_code(today_deal), won_game["actions"])
    index_built()
    client = APIClient()
    first = client.get(DAY_PAGE)
    tag = first["ETag"]
    assert first.status_code == 200 and tag.startswith('W/"') and first["Cache-Control"] == "no-cache"
    again = poll(client, DAY_PAGE, tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    assert poll(client, DAY_PAGE, f'W/"x", {tag}').status_code == 304  # one of several tags
    assert poll(client, DAY_PAGE, tag.replace('"', '"0', 1)).status_code == 200  # not one we gave
    assert poll(client, "/api/leaderboards/daily/?page=1&page_size=24", tag).status_code == 200  # another page


def test_a_new_verified_result_makes_the_next_poll_a_200_with_a_new_tag(make_player, play, today_deal, won_game):
    code, client = daily_code(today_deal), APIClient()
    play(make_player("ann"), code, won_game["actions"], minutes=30)
    index_built()
    tag = client.get(DAY_PAGE)["ETag"]
    bob = make_player("bob")
    around_tag = token_client(bob).get(AROUND)["ETag"]
    play(bob, code, won_game["actions"], minutes=10)  # verified and ranked by the task: first now
    changed = poll(client, DAY_PAGE, tag)
    assert changed.status_code == 200 and names(changed) == ["bob", "ann"] and changed["ETag"] != tag
    assert poll(client, DAY_PAGE, changed["ETag"]).status_code == 304
    mine = poll(token_client(bob), AROUND, around_tag)
    assert mine.status_code == 200 and mine.json()["me"] == 1


def test_a_players_own_rank_is_tagged_for_that_player_and_language(make_player, play, today_deal, won_game):
    code = daily_code(today_deal)
    ann, bob = make_player("ann"), make_player("bob")
    play(ann, code, won_game["actions"], minutes=30)
    play(bob, code, won_game["actions"], minutes=10)
    index_built()
    ann_client, bob_client = token_client(ann), token_client(bob)
    ann_tag, bob_tag = ann_client.get(AROUND)["ETag"], bob_client.get(AROUND)["ETag"]
    assert ann_tag != bob_tag and ann_client.get(AROUND)["Cache-Control"] == "private, no-cache"
    assert poll(ann_client, AROUND, ann_tag).status_code == 304
    taken = poll(bob_client, AROUND, ann_tag)  # ann's tag is no use to bob: his own rank, whole
    assert taken.status_code == 200 and taken.json()["me"] == 1
    german = ann_client.get(AROUND, HTTP_ACCEPT_LANGUAGE="de")
    assert german["ETag"] != ann_tag and poll(ann_client, AROUND, ann_tag, HTTP_ACCEPT_LANGUAGE="de").status_code == 200
    assert poll(ann_client, AROUND, german["ETag"], HTTP_ACCEPT_LANGUAGE="de").status_code == 304
    # Without a credential there is no rank of one's own, whatever the tag: 401.
    assert poll(APIClient(), AROUND, ann_tag).status_code == 401


def test_a_304_reads_no_sql_with_a_session_or_a_token(
    make_player, play, today_deal, won_game, django_assert_num_queries
):
    ann = make_player("ann")
    play(ann, daily_code(today_deal), won_game["actions"])
    index_built()
    anonymous, browser, api = APIClient(), session_client(ann), token_client(ann)
    cases = [
        (anonymous, DAY_PAGE),
        (browser, DAY_PAGE),
        (browser, AROUND),
        (api, AROUND),
        (browser, f"/api/leaderboards/deals/{today_deal.number}/?around=me"),
    ]
    for client, path in cases:
        client.get(path)  # (the deal's board: its first read builds its index, once)
        answer = client.get(path)
        assert answer.status_code == 200
        with django_assert_num_queries(0):
            assert poll(client, path, answer["ETag"]).status_code == 304
    tag = browser.get(AROUND)["ETag"]
    with django_assert_num_queries(0):
        held = poll(browser, AROUND, tag)
    # The session was not even read (it would have added Vary: Cookie).
    assert held.status_code == 304 and "Cookie" not in held.get("Vary", "") and "sessionid" not in held.cookies


@pytest.fixture
def redis_round_trips(monkeypatch):
    """The round trips to Redis made meanwhile: each command or pipeline sent (the real
    server answers them)."""
    sent: list[bytes] = []
    original = redis.connection.AbstractConnection.send_packed_command

    def counted(self, command, check_health=True):
        sent.append(b"".join(command) if isinstance(command, list) else command)
        return original(self, command, check_health)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counted)
    return sent


def test_a_cached_top_page_costs_one_redis_round_trip_and_no_sql(
    make_player, play, today_deal, won_game, django_assert_num_queries, redis_round_trips
):
    play(make_player("ann"), daily_code(today_deal), won_game["actions"])
    index_built()
    first = APIClient().get(DAY_PAGE)  # the page is cached now, at the board's versions
    redis_round_trips.clear()
    with django_assert_num_queries(0):
        again = APIClient().get(DAY_PAGE)  # no tag: a whole answer, from the cache
    assert again.status_code == 200 and again.content == first.content and names(again) == ["ann"]
    assert len(redis_round_trips) == 1 and redis_round_trips[0].count(b"MGET") == 1


def test_a_top_page_keeps_its_tag_while_changes_land_below_it_for_a_while(monkeypatch):
    scope = live.Scope("deal:9", "page=1", top=True)
    deep = live.Scope("deal:9", "page=90", top=False)
    now = live.versions(scope)
    tags = live.etag(scope, now, issued=1000), live.etag(deep, now, issued=1000)
    cache.board_changed("deal:9", cache.TOP_RANKS + 5)  # far below the top: the count only
    later = live.versions(scope)
    assert later.version > now.version and later.top == now.top
    assert live.fresh(tags[0], scope, later, now=1000 + live.COUNT_LAG_SECONDS - 1) == tags[0]
    assert live.fresh(tags[0], scope, later, now=1000 + live.COUNT_LAG_SECONDS) is None  # its count is old
    assert live.fresh(tags[1], deep, later, now=1001) is None  # a deep page's rows moved
    cache.board_changed("deal:9", 3)  # among the top ranks
    assert live.fresh(tags[0], scope, live.versions(scope), now=1001) is None


def test_a_redis_that_lost_its_data_matches_no_earlier_tag(clean_redis):
    scope = live.Scope("deal:9", "page=1")
    before = live.versions(scope)
    tag = live.etag(scope, before)
    clean_redis.flushdb()  # a restart without persistence: versions count from 0 again
    after = live.versions(scope)
    assert (after.version, after.top) == (before.version, before.top) == (0, 0)
    assert after.epoch != before.epoch and live.fresh(tag, scope, after) is None


def test_a_frozen_day_is_a_304_for_good(
    make_player, play, today_deal, won_game, monkeypatch, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    from leaderboard.boards import freeze

    play(make_player("ann"), daily_code(today_deal), won_game["actions"])
    path = f"/api/leaderboards/daily/{today_deal.date.isoformat()}/?page=1"
    client = APIClient()
    tag = client.get(path)["ETag"]
    later = timezone.now() + timedelta(days=2)
    monkeypatch.setattr(timezone, "now", lambda: later)
    with django_capture_on_commit_callbacks(execute=True):  # the index dropped, the versions moved
        assert freeze.days_freeze() == [f"daily:{today_deal.date.isoformat()}"]
    frozen = poll(client, path, tag)  # the freeze dropped the index: the tag moved once
    assert frozen.status_code == 200 and names(frozen) == ["ann"]
    assert poll(client, path, frozen["ETag"]).status_code == 304
