"""Every log-in locks after AXES_FAILURE_LIMIT failures of one username from one address
(django-axes, the database handler): the admin's form and the API's log-in count the same
failures, and a session the API made opens the admin only after the admin's own log-in."""

import json
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from leaderboard_fixtures.security import PASSWORD
from leaderboard_fixtures.service import _fresh_redis  # noqa: F401  (autouse, as in tests/security/)

pytestmark = [pytest.mark.django_db, pytest.mark.security]
LIMIT = 3


@pytest.fixture(autouse=True)
def _small_limit(settings):
    settings.AXES_FAILURE_LIMIT = LIMIT


def admin_login(client: Client, password: str, **extra):
    return client.post("/admin/login/?next=/admin/", {"username": "staff", "password": password}, **extra)


def signed_in_to_admin(client: Client) -> bool:
    return client.get("/admin/").status_code == 200


@pytest.mark.parametrize("forged_address", [False, True])
def test_the_admin_log_in_locks_after_the_failure_limit(make_staff, forged_address):
    """Locked even for the right password, and a forged X-Forwarded-For (a new one each try)
    is not a new address: axes counts the address the API's throttles count."""
    make_staff("staff")
    client = Client()
    for i in range(LIMIT):
        extra = {"HTTP_X_FORWARDED_FOR": f"203.0.113.{i}"} if forged_address else {}
        failed = admin_login(client, "guess", **extra)
        if i < LIMIT - 1:
            assert failed.status_code == 200 and b"Please enter the correct username" in failed.content
    assert failed.status_code == 429  # the failure that reaches the limit is answered with the lock
    locked = admin_login(client, PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.9")
    assert locked.status_code == 429 and b"too many login attempts" in locked.content
    assert not signed_in_to_admin(client)
    assert AccessAttempt.objects.get(username="staff").failures_since_start >= LIMIT


def test_the_lock_is_per_username_and_address_and_ends_after_the_cool_off(make_staff, settings):
    make_staff("staff")
    attacker = Client(REMOTE_ADDR="203.0.113.5")
    for _ in range(LIMIT):
        admin_login(attacker, "guess")
    assert admin_login(attacker, PASSWORD).status_code == 429

    elsewhere = Client(REMOTE_ADDR="192.0.2.10")  # the staff member at their own desk
    assert admin_login(elsewhere, PASSWORD).status_code == 302 and signed_in_to_admin(elsewhere)

    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    )
    assert admin_login(attacker, PASSWORD).status_code == 302 and signed_in_to_admin(attacker)


def api_login(client: Client, password: str, **extra):
    return client.post(
        "/api/auth/login/",
        json.dumps({"username": "staff", "password": password}),
        content_type="application/json",
        **extra,
    )


def test_failures_on_the_api_lock_the_admin_too(make_staff):
    """Ten wrong passwords on the API's log-in (the door the pages' form uses): the account is
    locked there, right password or not, and on the admin's form."""
    make_staff("staff")
    client = Client()
    answers = [api_login(client, "guess").status_code for _ in range(10)]
    assert answers[: LIMIT - 1] == [400] * (LIMIT - 1) and set(answers[LIMIT - 1 :]) == {429}
    locked = api_login(client, PASSWORD)
    assert locked.status_code == 429 and locked.json()["error"]["code"] == "throttled"
    assert int(locked["Retry-After"]) > 0 and "sessionid" not in client.cookies
    assert admin_login(client, PASSWORD).status_code == 429 and not signed_in_to_admin(client)


def test_failures_on_the_admin_lock_the_api_too(make_staff):
    make_staff("staff")
    client = Client()
    for _ in range(LIMIT):
        admin_login(client, "guess")
    assert admin_login(client, PASSWORD).status_code == 429
    assert api_login(client, PASSWORD).status_code == 429 and "sessionid" not in client.cookies


def test_a_right_password_on_the_api_resets_the_count(make_staff):
    make_staff("staff")
    client = Client()
    for _ in range(LIMIT - 1):
        assert api_login(client, "guess").status_code == 400
    assert api_login(client, PASSWORD).status_code == 200
    assert api_login(Client(), "guess").status_code == 400  # the count started again


def test_a_session_from_the_api_opens_the_admin_only_after_the_admins_log_in(make_staff):
    make_staff("staff")
    client = Client()
    assert api_login(client, PASSWORD).status_code == 200
    index = client.get("/admin/")
    assert index.status_code == 302 and index["Location"].startswith("/admin/login/")
    form = client.get("/admin/login/?next=/admin/")
    assert form.status_code == 200 and b'name="password"' in form.content  # the form, not the index
    assert admin_login(client, PASSWORD).status_code == 302 and signed_in_to_admin(client)
    assert client.get("/api/auth/me/").json()["username"] == "staff"  # one session, the same player


def test_with_a_second_factor_required_the_password_alone_opens_no_admin(make_staff, settings):
    make_staff("staff")
    settings.ADMIN_SECOND_FACTOR = True
    client = Client()
    assert admin_login(client, PASSWORD).status_code == 302
    assert not signed_in_to_admin(client)
    form = client.get("/admin/login/?next=/admin/")
    assert form.status_code == 200 and b'data-testid="admin-second-factor"' in form.content
    settings.ADMIN_SECOND_FACTOR = False  # the same session, without the rule: the password is enough
    assert signed_in_to_admin(client)
