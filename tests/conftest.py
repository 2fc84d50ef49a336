"""Shared pytest configuration. pytest-django reads DJANGO_SETTINGS_MODULE from pytest.ini."""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests create many accounts: a fast hasher keeps them quick (production keeps PBKDF2)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
