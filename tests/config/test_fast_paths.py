"""The stack's own costs cut in config/ (issue 23, item 4): prepared statements, one broker
client per channel, no flash messages or page policy on the API's JSON answers."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.http import HttpResponse, JsonResponse
from django.test import Client, RequestFactory

from config.celery import KeptClientTransport, app
from config.middleware import PageMessageMiddleware, PagePolicyMiddleware

ROOT = Path(__file__).resolve().parents[2]

_PROBE = "import json; from django.conf import settings; print(json.dumps(settings.DATABASES['default']['OPTIONS']))"


def database_options(**env) -> dict:
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env}
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + _PROBE],
        check=False,
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_server_side_binding_and_a_prepare_threshold_by_default():
    assert database_options() == {"server_side_binding": True, "prepare_threshold": 2}
    assert database_options(DATABASE_PREPARE_THRESHOLD="5")["prepare_threshold"] == 5


def test_a_deployment_behind_a_transaction_pooler_turns_them_off():
    assert database_options(DATABASE_SERVER_SIDE_BINDING="0") == {}


@pytest.mark.django_db
def test_the_connection_binds_on_the_server_and_prepares():
    connection.ensure_connection()
    assert connection.connection.cursor_factory.__name__ == "ServerBindingCursor"
    assert connection.connection.prepare_threshold == 2
    with connection.cursor() as cursor:
        for _ in range(3):
            cursor.execute("SELECT %s::int + 1", [41])
            assert cursor.fetchone() == (42,)
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["%$1::int + 1%"])
        assert cursor.fetchone() == (1,)


def test_a_channel_publishes_with_one_client_until_its_pool_changes():
    with app.connection_for_write() as broker:
        assert isinstance(broker.transport, KeptClientTransport)
        assert broker.as_uri().startswith("redis://")  # as the worker's log shows it
        channel = broker.default_channel
        first = channel._create_client()
        assert channel._create_client() is first
        assert first.connection_pool is channel.pool
        channel._pool = None  # what kombu does when it drops a channel's pool
        assert channel._create_client() is not first


def through(middleware_class, path: str, response):
    request = RequestFactory().get(path)
    request.session = {}
    middleware = middleware_class(lambda request: response)
    return request, middleware(request)


def test_no_policy_on_the_apis_json_answers():
    _, response = through(PagePolicyMiddleware, "/api/leaderboards/daily/", JsonResponse({"results": []}))
    assert "Content-Security-Policy" not in response


@pytest.mark.parametrize(
    ("path", "response"),
    [
        ("/", HttpResponse("<!doctype html>")),
        ("/api/docs/", HttpResponse("<!doctype html>")),  # Swagger UI: a page under /api/
        ("/boards/", JsonResponse({})),  # JSON outside the API keeps it too
    ],
)
def test_the_policy_on_everything_else(path, response):
    _, answered = through(PagePolicyMiddleware, path, response)
    assert "default-src 'self'" in answered["Content-Security-Policy"]


def test_no_message_storage_under_the_api_but_on_pages():
    api_request, _ = through(PageMessageMiddleware, "/api/attempts/", JsonResponse({}))
    assert not hasattr(api_request, "_messages")
    page_request, _ = through(PageMessageMiddleware, "/boards/", HttpResponse())
    assert list(get_messages(page_request)) == []
    assert hasattr(page_request, "_messages")


@pytest.mark.django_db
def test_through_the_whole_stack_pages_keep_the_policy_and_the_api_its_language():
    assert "Content-Security-Policy" in Client().get("/boards/")
    answer = Client().get("/api/nowhere/", HTTP_ACCEPT_LANGUAGE="pl")
    assert answer.status_code == 404 and "Content-Security-Policy" not in answer
    assert answer.json()["error"]["message"] == "Pod /api/nowhere/ nie ma punktu API."
    assert "Accept-Language" in answer["Vary"]
