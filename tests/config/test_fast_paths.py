"""The stack's own costs cut in config/ (issue 23, item 4): prepared statements, one broker
client per channel."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from config.celery import KeptClientTransport, app

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
        channel = broker.default_channel
        first = channel._create_client()
        assert channel._create_client() is first
        assert first.connection_pool is channel.pool
        channel._pool = None  # what kombu does when it drops a channel's pool
        assert channel._create_client() is not first
