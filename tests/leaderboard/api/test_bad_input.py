"""Bad input gets a clear 4xx in the API's error shape, never a 500 or an HTML page.

tests/service already covers: an oversized or over-long submission (413), deeply nested JSON
and wrong ``actions`` types on the submission, bad deal codes when starting an attempt,
SQL-looking and unicode usernames at sign-up, future and impossible dates of /api/daily/.
This file covers the rest of the endpoints and inputs.
"""

import json
from urllib.parse import quote

import pytest
from django.test import Client
from leaderboard_fixtures.reliability import PASSWORD
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/reliability/)

from leaderboard.accounts import services as accounts
from leaderboard.models import DailyDeal, Submission
from leaderboard.play.services import attempts

pytestmark = [pytest.mark.django_db, pytest.mark.reliability]


def send(method: str, path: str, body: str | None = None, content_type: str = "application/json", token=None):
    client = Client(raise_request_exception=False)
    extra = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    if body is None:
        return getattr(client, method)(path, **extra)
    return getattr(client, method)(path, body, content_type=content_type, **extra)


def error(response, status: int | tuple) -> dict:
    """The response is ``status`` with the error shape; returns the error."""
    statuses = status if isinstance(status, tuple) else (status,)
    assert response.status_code in statuses, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response.content[:300]
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "detail"}, body
    assert body["error"]["message"], body
    return body["error"]


@pytest.fixture
def token(make_player) -> str:
    return accounts.user_token(make_player("alice"))


@pytest.fixture
def attempt_url(token) -> str:
    from rest_framework.authtoken.models import Token

    attempt = attempts.attempt_start(player=Token.objects.get(key=token).user, deal_code="EH1-N-AAAAAAF")
    return f"/api/attempts/{attempt.pk}/submission"


def writes(attempt_url: str) -> list[tuple[str, dict]]:
    """Every JSON write of the API with a valid body."""
    return [
        ("/api/auth/signup/", {"username": "newcomer", "password": PASSWORD}),
        ("/api/auth/login/", {"username": "alice", "password": PASSWORD}),
        ("/api/attempts/", {"deal": "EH1-N-AAAAAAF"}),
        ("/api/hints/", {"attempt": attempt_url.split("/")[3], "actions": ["s"]}),
        (attempt_url, {"actions": ["s"]}),
    ]


def test_an_oversized_body_is_413_on_every_write(settings, token, attempt_url):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 4096
    settings.SUBMISSION_MAX_BYTES = 4096
    for path, body in writes(attempt_url):
        big = json.dumps({**body, "padding": "x" * 5000})
        found = error(send("post", path, big, token=token), 413)
        assert found["code"] == "too_large", path
    assert not Submission.objects.exists()


def test_deeply_nested_json_is_400_on_every_write(token, attempt_url):
    nested = "[" * 50_000 + "]" * 50_000
    for path, body in writes(attempt_url):
        key = next(iter(body))
        text = json.dumps(body).replace(json.dumps(body[key]), nested, 1)
        assert error(send("post", path, text, token=token), 400)["code"] in ("parse_error", "invalid"), path


@pytest.mark.parametrize("text", ["", "{", '{"a": 1', '{"a": 1} trailing', "nul\x00", "\xff\xfe", "[1, 2,]"])
def test_malformed_json_is_400_on_every_write(token, attempt_url, text):
    for path, _ in writes(attempt_url):
        response = send("post", path, text, token=token)
        if text == "":  # no body at all: the fields are missing
            error(response, 400)
        else:
            assert error(response, 400)["code"] in ("parse_error", "invalid"), (path, text)


@pytest.mark.parametrize(
    "content_type",
    ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", "application/xml"],
)
def test_other_content_types_are_415_on_every_write(token, attempt_url, content_type):
    for path, _ in writes(attempt_url):
        found = error(send("post", path, "deal=EH1-N-AAAAAAF", content_type, token), 415)
        assert found["code"] == "unsupported_media_type", path


@pytest.mark.parametrize("body", ["[]", "null", "1", '"s"', "true", '[{"deal": "EH1-N-AAAAAAF"}]'])
def test_a_body_that_is_not_an_object_is_400_on_every_write(token, attempt_url, body):
    for path, _ in writes(attempt_url):
        error(send("post", path, body, token=token), 400)
    assert not Submission.objects.exists()


WRONG_TYPES = [
    ("/api/auth/signup/", {"username": ["alice"], "password": PASSWORD}),
    ("/api/auth/signup/", {"username": None, "password": PASSWORD}),
    ("/api/auth/signup/", {"username": {"$ne": ""}, "password": PASSWORD}),
    ("/api/auth/signup/", {"username": "bob", "password": ["x"] * 20}),
    ("/api/auth/signup/", {"username": "bob", "password": float("nan")}),
    ("/api/auth/login/", {"username": {"$gt": ""}, "password": {"$gt": ""}}),
    ("/api/auth/login/", {"username": "alice"}),
    ("/api/attempts/", {"deal": ["EH1-N-AAAAAAF"]}),
    ("/api/attempts/", {"deal": 5}),
    ("/api/attempts/", {"deal": None}),
    ("/api/attempts/", {"deal": "EH1-N-AAAAAAF" * 10}),
    ("/api/hints/", {"attempt": None, "actions": ["s"]}),
    ("/api/hints/", {"attempt": "not-a-uuid", "actions": ["s"]}),
    ("/api/hints/", {"attempt": ["ATTEMPT"], "actions": ["s"]}),
    ("/api/hints/", {"attempt": "ATTEMPT", "actions": {"0": "s"}}),
    ("/api/hints/", {"attempt": "ATTEMPT", "actions": "s"}),
    ("/api/hints/", {"attempt": "ATTEMPT", "actions": [["s"]]}),
    ("/api/hints/", {"attempt": "ATTEMPT", "actions": ["9>1:4"]}),
    ("SUBMIT", {"actions": [float("nan")]}),
    ("SUBMIT", {"actions": ["s", None]}),
    ("SUBMIT", {"actions": None}),
]


@pytest.mark.parametrize("path, body", WRONG_TYPES, ids=[f"{p}-{json.dumps(b)[:40]}" for p, b in WRONG_TYPES])
def test_wrong_types_are_clear_400s(token, attempt_url, path, body):
    path = attempt_url if path == "SUBMIT" else path
    attempt = attempt_url.split("/")[3]  # "ATTEMPT": the player's own attempt
    body = {key: attempt if value == "ATTEMPT" else value for key, value in body.items()}
    error(send("post", path, json.dumps(body), token=token), 400)
    assert not Submission.objects.exists()


NAMES = [
    "' OR 1=1 --",
    "alice'; DROP TABLE auth_user; --",
    "%",
    "_",
    "a%",
    "ALICE",
    "alic_",
    "名前",
    "zoë",
    "\u202eecila",
    "alice\u200b",
    "a" * 151,
    " alice",
    "nul\x00name",
    "../../etc/passwd",
]


@pytest.mark.parametrize("name", NAMES)
def test_odd_usernames_never_reach_another_account(make_player, name):
    make_player("alice")
    login = send("post", "/api/auth/login/", json.dumps({"username": name, "password": PASSWORD}))
    if name.strip() == "alice":  # surrounding spaces are trimmed: alice's own name and password
        assert login.json()["username"] == "alice"
    else:
        assert error(login, 400)["code"] in ("invalid_credentials", "invalid"), name
    profile = send("get", f"/api/players/{quote(name, safe='')}/")
    if profile.status_code == 200:  # only the exact name of an active player has a page
        assert profile.json()["player"] == name
    else:
        error(profile, (400, 404))


@pytest.mark.parametrize("name", ["nul\x00name", "a" * 151, "alice\u200b", "   ", "tab\tname", "new\nline"])
def test_unusable_usernames_are_refused_at_signup(name):
    found = error(send("post", "/api/auth/signup/", json.dumps({"username": name, "password": PASSWORD})), 400)
    assert found["code"] in ("invalid", "invalid_signup", "username_required")


BAD_DAYS = [
    "2026-13-01",
    "2026-00-10",
    "2026-02-29",
    "0000-01-01",
    "99999-01-01",
    "2026-01-01T00:00",
    "2026-01-01x",
    "-2026-01-01",
    "\u0662\u0660\u0662\u0666-01-01",
    "2026%2F01%2F01",
    "9" * 300,
    "%00",
    "%C2%B2",
]


@pytest.mark.parametrize("day", BAD_DAYS)
def test_bad_dates_are_404s_in_the_error_shape(day):
    for path in (f"/api/daily/{day}/", f"/api/leaderboards/daily/{day}/"):
        error(send("get", path), 404)


def test_a_reader_cannot_make_the_server_solve_an_old_date(today_deal):
    """Only stored days have a deal: an anonymous GET of any past date used to run the solver
    (seconds of CPU for some dates) and store a row for it."""
    for day in ("0001-01-01", "1970-01-01", "2000-02-29"):
        assert error(send("get", f"/api/daily/{day}/"), 404)["code"] == "not_found"
    assert list(DailyDeal.objects.values_list("date", flat=True)) == [today_deal.date]
    assert send("get", "/api/daily/").status_code == 200


BAD_DEALS = [
    "0",
    "-1",
    "1000000",
    "99999999999999999999",
    "%C2%B2",
    "%D9%A1%D9%A2",
    "1.5",
    "1e3",
    "EH1-N-AAAAAA",
    "EH1-N-AAAAAAA",
    "EH2-N-AAAAAAF",
    "EH1-N-AAAAAAF-",
    "%00",
    "x" * 300,
    "%20",
    "EH1-N-%C3%84AAAAAF",
]


@pytest.mark.parametrize("deal", BAD_DEALS)
def test_bad_deal_codes_and_numbers_are_404s_in_the_error_shape(deal):
    assert error(send("get", f"/api/leaderboards/deals/{deal}/"), 404)["code"] in ("not_found", "invalid_deal")


@pytest.mark.parametrize(
    "query",
    [
        "page=%C2%B2",
        "page=%D9%A1",
        "page=-1",
        "page=1.0",
        "page=1e3",
        "page=%201",
        "page_size=0",
        "page_size=%C2%B3",
        "page=99999999999999999999",
        "around=",
        "around=ME",
        "page=1&page=%C2%B2",
    ],
)
def test_bad_board_parameters_are_400s(query):
    for path in ("/api/leaderboards/daily/", "/api/leaderboards/deals/5/", "/api/leaderboards/players/"):
        if path.endswith("players/") and query.startswith("around"):
            continue
        assert error(send("get", f"{path}?{query}"), 400)["code"] == "invalid_parameter", (path, query)


@pytest.mark.parametrize(
    "path",
    [
        "/api/submissions/0/",
        "/api/submissions/99999999999999999999/",
        "/api/submissions/-1/",
        "/api/submissions/x/",
        "/api/attempts/not-a-uuid/",
        "/api/attempts/00000000-0000-0000-0000-000000000000/",
    ],
)
def test_unknown_or_malformed_ids_are_404s(token, path):
    error(send("get", path, token=token), 404)
