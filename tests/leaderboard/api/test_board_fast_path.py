"""Board reads answered before DRF (``LiveView.live_fast``): a cached top page to a caller with
no Authorization header, and ``around=me`` to a token whose lookup is cached. Each is the answer
DRF's way gives (the same bytes, headers and tag), read with no SQL; anything else (errors, other
renderings, tokens not cached, sessions) still goes DRF's way."""

import functools
import time

import pytest
import redis
from django.core.cache import cache
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, daily_code  # noqa: F401  (autouse, as in tests/service/)
from rest_framework.test import APIClient

from config import metrics, middleware
from leaderboard.accounts import services as accounts
from leaderboard.accounts.authentication import _player_key
from leaderboard.api import live
from leaderboard.api.views import boards

pytestmark = pytest.mark.django_db
TOP = "/api/leaderboards/daily/?page=1&page_size=25"
AROUND = "/api/leaderboards/daily/?around=me&page_size=5"


@pytest.fixture
def day(make_player, play, today_deal, won_game, monkeypatch):
    """Two results on today's board, its index built and its first page cached; tags issued at
    one fixed second, so that two answers' tags compare equal."""
    code = daily_code(today_deal)
    ann, bob = make_player("ann"), make_player("bob")
    play(ann, code, won_game["actions"], minutes=30)
    play(bob, code, won_game["actions"], minutes=10)
    monkeypatch.setattr(live, "etag", functools.partial(live.etag, issued=time.time()))
    for _ in range(2):  # the first read builds the index (its versions move), the second caches the page
        assert APIClient().get(TOP).status_code == 200
    return {"ann": ann, "bob": bob}


@pytest.fixture
def without_drf(monkeypatch):
    """DRF's per-request work (content negotiation, authentication, ...) made to fail."""

    def initial(*args, **kwargs):
        raise AssertionError("answered DRF's way")

    monkeypatch.setattr(boards.BoardView, "initial", initial)


def token(player) -> str:
    return f"Token {accounts.user_token(player)}"


def drf_way(monkeypatch) -> None:
    monkeypatch.undo()  # DRF's work back, the fixed tags' second too
    monkeypatch.setattr(boards.BoardView, "live_fast", lambda *args: None)


def same_answer(fast, slow) -> None:
    assert (fast.status_code, fast.content) == (slow.status_code, slow.content)
    shown = {name: value for name, value in fast.items() if name not in ("X-Request-ID", "Vary")}
    assert shown == {name: value for name, value in slow.items() if name not in ("X-Request-ID", "Vary")}
    # The same names in Vary (Cookie is named by the view here, by the session middleware there).
    vary = [{part.strip() for part in answer["Vary"].split(",")} for answer in (fast, slow)]
    assert vary[0] == vary[1]


@pytest.mark.parametrize("headers", [{}, {"HTTP_ACCEPT": "application/json"}, {"HTTP_ACCEPT_LANGUAGE": "pl"}])
def test_a_cached_top_page_is_the_answer_drf_gives_with_no_sql(
    day, without_drf, monkeypatch, django_assert_num_queries, headers
):
    with django_assert_num_queries(0):
        fast = APIClient().get(TOP, **headers)
    issued = live.etag.keywords["issued"]
    drf_way(monkeypatch)
    monkeypatch.setattr(live, "etag", functools.partial(live.etag, issued=issued))
    slow = APIClient().get(TOP, **headers)
    same_answer(fast, slow)
    assert [row["player"] for row in fast.json()["results"]] == ["bob", "ann"]
    assert "Cookie" in fast["Vary"] and fast["Content-Type"] == "application/json"


def test_a_cached_top_page_to_a_browser_reads_no_session_and_polls_as_before(
    day, without_drf, django_assert_num_queries
):
    browser = APIClient()
    browser.force_login(day["ann"])
    with django_assert_num_queries(0):  # DRF's way would read the session from PostgreSQL
        first = browser.get(TOP)
    assert first.status_code == 200 and "sessionid" not in first.cookies
    assert browser.get(TOP, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_around_me_by_a_cached_token_is_the_answer_drf_gives_with_no_sql(day, monkeypatch, django_assert_num_queries):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=token(day["ann"]))
    assert client.get(AROUND).status_code == 200  # the token's lookup is cached now
    issued = live.etag.keywords["issued"]
    monkeypatch.setattr(boards.BoardView, "initial", lambda *args: pytest.fail("answered DRF's way"))
    with django_assert_num_queries(0):
        fast = client.get(AROUND)
    assert fast.json()["me"] == 2 and fast["Cache-Control"] == "private, no-cache"
    assert "Cookie" not in fast["Vary"]
    drf_way(monkeypatch)
    monkeypatch.setattr(live, "etag", functools.partial(live.etag, issued=issued))
    same_answer(fast, client.get(AROUND))
    assert client.get(AROUND, HTTP_IF_NONE_MATCH=fast["ETag"]).status_code == 304


def redis_commands(monkeypatch) -> list[str]:
    """The names of the commands this process sends Redis from now on (a list it appends to):
    each is a round trip, as the board reads pipeline nothing."""
    sent: list[str] = []
    original = redis.connection.AbstractConnection.send_command

    def send_command(self, *args, **kwargs):
        sent.append(str(args[0]))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_command", send_command)
    return sent


def test_around_me_and_its_poll_are_one_round_trip_each(day, monkeypatch, django_assert_num_queries):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=token(day["ann"]))
    assert client.get(AROUND).status_code == 200  # the token's lookup is cached now
    sent = redis_commands(monkeypatch)
    with django_assert_num_queries(0):
        first = client.get(AROUND)
        assert first.json()["me"] == 2 and len(sent) == 1
        poll = client.get(AROUND, HTTP_IF_NONE_MATCH=first["ETag"])
    assert poll.status_code == 304 and poll["ETag"] == first["ETag"] and len(sent) == 2
    assert sent[0] == sent[1] and sent[0].upper() in ("EVALSHA", "EVAL")


def test_a_forged_tag_of_the_current_versions_gets_the_whole_answer(day, monkeypatch):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=token(day["ann"]))
    first = client.get(AROUND)
    tag = first["ETag"]
    forged = tag[:-2] + ("0" if tag[-2] != "0" else "1") + '"'  # the signature's last digit changed
    again = client.get(AROUND, HTTP_IF_NONE_MATCH=forged)
    assert again.status_code == 200 and again.content == first.content


def test_around_me_stops_at_once_for_a_deactivated_account(day, django_capture_on_commit_callbacks):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=token(day["ann"]))
    assert client.get(AROUND).status_code == 200 and client.get(AROUND).status_code == 200
    key = accounts.user_token(day["ann"])
    assert cache.get(_player_key(key)) == day["ann"].pk
    with django_capture_on_commit_callbacks(execute=True):
        day["ann"].is_active = False
        day["ann"].save()
    assert cache.get(_player_key(key)) is None
    refused = client.get(AROUND)
    assert refused.status_code == 401 and refused.json()["error"]["message"] == "User inactive or deleted."


def test_what_the_fast_way_cannot_answer_goes_drfs_way(day):
    anonymous = APIClient()
    indented = anonymous.get(TOP, HTTP_ACCEPT="application/json; indent=2")
    assert indented.status_code == 200 and indented.content.startswith(b"{\n  ")
    assert anonymous.get(f"{TOP}&format=json").json() == anonymous.get(TOP).json()
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert bad.get(TOP).status_code == 401  # a top page still authenticates a token it is given
    assert bad.get(AROUND).status_code == 401
    assert anonymous.get("/api/leaderboards/daily/?page=0&page_size=25").status_code == 400
    assert anonymous.get("/api/leaderboards/daily/?page=1&page_size=9999").status_code == 400


def test_an_error_on_a_board_is_in_the_readers_language(day):
    refused = APIClient().get(AROUND, HTTP_ACCEPT_LANGUAGE="pl")
    assert refused.status_code == 401
    assert refused.json()["error"]["message"] == "Zaloguj się, by zobaczyć swoje miejsce."
    wrong = APIClient().get("/api/leaderboards/daily/?around=you", HTTP_ACCEPT_LANGUAGE="pl")
    assert wrong.status_code == 400 and wrong.json()["error"]["message"] == "around przyjmuje tylko wartość 'me'."


def test_a_session_without_its_csrf_token_is_still_refused_a_post(day):
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(day["ann"])
    assert browser.get(TOP).status_code == 200
    refused = browser.post("/api/attempts/", {"mode": "daily"}, format="json")
    assert refused.status_code == 403


# -- answered early: right after the metrics and the request id (config.middleware.LiveReadMiddleware)

LANGUAGES = [{}, {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}, {"HTTP_ACCEPT_LANGUAGE": "pl"}]


def answered_early(monkeypatch) -> list:
    """The requests LiveReadMiddleware answered (a list it appends to)."""
    early = []
    shaped = middleware.LiveReadMiddleware._shaped

    def counted(self, request):
        answer = shaped(self, request)
        if answer is not None:
            early.append(request.path_info)
        return answer

    monkeypatch.setattr(middleware.LiveReadMiddleware, "_shaped", counted)
    return early


@pytest.mark.parametrize(("headers", "language"), list(zip(LANGUAGES, ["en", "de", "pl"])))
def test_an_early_answer_has_every_header_of_the_whole_chain(day, monkeypatch, headers, language):
    early = answered_early(monkeypatch)
    fast = APIClient().get(TOP, **headers)
    assert early == ["/api/leaderboards/daily/"]
    monkeypatch.setattr(middleware.LiveReadMiddleware, "_shaped", lambda self, request: None)
    monkeypatch.setattr(boards.BoardView, "live_fast", lambda *args: None)  # DRF's way, the whole chain
    slow = APIClient().get(TOP, **headers)
    assert early == ["/api/leaderboards/daily/"] and fast.content == slow.content
    names = {name for name in fast.headers if name != "X-Request-ID"}
    assert names == {name for name in slow.headers if name != "X-Request-ID"}
    for name in names - {"Vary"}:
        assert fast[name] == slow[name], name
    assert {part.strip() for part in fast["Vary"].split(",")} == {part.strip() for part in slow["Vary"].split(",")}
    assert fast["Content-Language"] == language
    assert len(fast["X-Request-ID"]) == 32 and fast["X-Frame-Options"] == "DENY"


def test_an_early_answer_still_checks_the_host(day, monkeypatch):
    early = answered_early(monkeypatch)
    refused = APIClient().get(TOP, HTTP_HOST="evil.example")
    assert refused.status_code == 400 and early == []
    assert "X-Request-ID" in refused


def test_an_early_answer_and_a_poll_are_counted_under_their_view(day, monkeypatch):
    def count(status: str) -> float:
        labels = {"view": "board-daily-today", "method": "GET", "status": status}
        [family] = metrics.REQUESTS.collect()
        return sum(s.value for s in family.samples if s.name.endswith("_total") and s.labels == labels)

    early = answered_early(monkeypatch)
    before = count("200"), count("304")
    first = APIClient().get(TOP)
    assert APIClient().get(TOP, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert len(early) == 2
    assert (count("200"), count("304")) == (before[0] + 1, before[1] + 1)


def test_a_read_that_goes_down_the_chain_reads_the_versions_once(day, monkeypatch):
    reads = []
    original = live.read
    monkeypatch.setattr(live, "read", lambda *args: reads.append(args[0].board) or original(*args))
    indented = APIClient().get(TOP, HTTP_ACCEPT="application/json; indent=2")  # DRF's way
    assert indented.status_code == 200 and indented.content.startswith(b"{\n  ")
    assert len(reads) == 1 and indented["ETag"]
    assert (
        APIClient().get(TOP, HTTP_ACCEPT="application/json; indent=2", HTTP_IF_NONE_MATCH=indented["ETag"]).status_code
        == 304
    )
