"""Shared pytest configuration. pytest-django reads DJANGO_SETTINGS_MODULE from pytest.ini."""

import pytest
import redis
from django.conf import settings as django_settings
from worker import Worker


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests create many accounts: a fast hasher keeps them quick (production keeps PBKDF2)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def clean_redis():
    """The ranking index and the cache live in Redis: an empty database before and after."""
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    client.flushdb()
    yield client
    client.flushdb()


@pytest.fixture
def worker(tmp_path, transactional_db):
    """A started Celery worker (tests/worker.py) on committed data; stopped after the test.
    Its queue and the Redis index start empty."""
    redis.Redis.from_url(django_settings.REDIS_URL).flushdb()
    process = Worker(tmp_path / "worker.log").start()
    yield process
    process.stop()
