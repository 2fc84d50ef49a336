"""JSON logs on the production-shaped stack (tests/production/test_smoke.py's Stack) with
DJANGO_LOG_FORMAT=json: Django's, gunicorn's and the worker's lines are JSON objects, and the
request id that the submission's response carries (X-Request-ID) is on web's access line and on
the worker's lines for the verification that submission queued."""

import json
import urllib.request

import pytest
from django.conf import settings

# production_bin and smoke_database_url: test_smoke's fixtures.
from .test_smoke import Stack, call, production_bin, shortest_won_game, smoke_database_url  # noqa: F401

pytestmark = [pytest.mark.slow]


@pytest.fixture
def stack(production_bin, smoke_database_url, clean_redis, tmp_path):  # noqa: F811
    stack = Stack(
        production_bin,
        smoke_database_url,
        settings.REDIS_URL,
        tmp_path,
        extra_environment={"DJANGO_LOG_FORMAT": "json"},
    )
    yield stack
    stack.stop()


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def post(base: str, path: str, body: dict, token: str, **headers) -> tuple[int, dict, dict]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Authorization": f"Token {token}",
            **headers,
        },
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, dict(response.headers), json.loads(response.read())


def test_a_submission_is_followed_from_web_to_worker_by_its_request_id(stack):
    try:
        follow_a_submission(stack)
    except BaseException:
        print(stack.logs())
        raise


def follow_a_submission(stack: Stack) -> None:
    stack.start("web", "worker")
    web, worker = stack.services["web"], stack.services["worker"]
    game = shortest_won_game()
    status, account = call(
        stack.url, "POST", "/api/auth/signup/", {"username": "json_player", "password": "a-long-json-test-password-7"}
    )
    assert status == 201, account
    status, attempt = call(stack.url, "POST", "/api/attempts/", {"deal": game["deal"]}, account["token"])
    assert status == 201, attempt
    status, headers, accepted = post(
        stack.url,
        f"/api/attempts/{attempt['id']}/submission",
        {"actions": game["actions"], "hints": 0},
        account["token"],
    )
    assert status == 202, accepted
    request_id = headers["X-Request-ID"]
    assert len(request_id) == 32

    def verified_in_the_worker_log():
        return [
            line
            for line in json_lines(worker.output())
            if line.get("request_id") == request_id and "succeeded" in line["message"]
        ]

    (done,) = stack.wait("the verification's line in the worker's log", verified_in_the_worker_log, 60)
    assert done["logger"] == "celery.app.trace" and done["level"] == "INFO"
    assert done["task_id"] != "-" and "verify" in done["message"]

    # A proxy's id is kept when it looks like one; anything else is replaced.
    status, headers, _body = post(
        stack.url,
        "/api/auth/login/",
        {"username": "json_player", "password": "a-long-json-test-password-7"},
        account["token"],
        **{"X-Request-ID": "proxy-id.42"},
    )
    assert headers["X-Request-ID"] == "proxy-id.42"
    with urllib.request.urlopen(
        urllib.request.Request(f"{stack.url}/healthz", headers={"X-Request-ID": "no spaces, please"})
    ) as response:
        assert response.headers["X-Request-ID"] != "no spaces, please"

    # Every line web wrote is JSON: gunicorn's own, its access lines, Django's.
    text = web.output()
    lines = json_lines(text)
    assert len(lines) == len([line for line in text.splitlines() if line.strip()]), text[-3000:]
    assert any(line["logger"] == "gunicorn.error" for line in lines)
    (access,) = [line for line in lines if line["logger"] == "gunicorn.access" and line.get("request_id") == request_id]
    assert (access["method"], access["status"]) == ("POST", 202)
    assert access["path"] == f"/api/attempts/{attempt['id']}/submission"
    assert {"time", "level", "message", "duration_ms", "bytes"} <= set(access)
    # The health check's requests are not logged.
    assert not [line for line in lines if line.get("path") == "/healthz"]
    # The worker logs as JSON too (its start banner is printed, not logged).
    assert any(line["message"].endswith(" ready.") for line in json_lines(worker.output()))
