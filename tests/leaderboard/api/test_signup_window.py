"""Sign-ups per address block in a sliding window (``SignupThrottle``): SIGNUPS_PER_HOUR in any
60 minutes and SIGNUPS_PER_DAY in any 24 hours, an IPv4 address whole, an IPv6 address by its
/64. The clock is the throttle's own (``timer``), moved by the tests: nothing sleeps."""

import json

import pytest
from django.test import Client, RequestFactory
from leaderboard_fixtures.reliability import PASSWORD
from leaderboard_fixtures.service import _fresh_redis  # noqa: F401  (autouse)

from leaderboard.accounts import services as accounts
from leaderboard.api.throttling import SignupThrottle, address_block

pytestmark = [pytest.mark.django_db, pytest.mark.security]
START = 1_800_000_000.0  # a fixed-window throttle's hour would start here


@pytest.fixture
def clock(monkeypatch, settings):
    settings.SIGNUPS_PER_HOUR, settings.SIGNUPS_PER_DAY = 20, 60
    now = {"t": START}
    monkeypatch.setattr(SignupThrottle, "timer", staticmethod(lambda: now["t"]))
    return now


def signup_allowed(address: str) -> bool:
    request = RequestFactory().post("/api/auth/signup/", REMOTE_ADDR=address)
    return SignupThrottle().allow_request(request, None)


def test_the_21st_sign_up_in_an_hour_is_refused_across_a_window_edge(clock):
    """20 in the last ten minutes of one clock hour, one more in the first minute of the next:
    a fixed window would start afresh there and let 20 more through."""
    for i in range(20):
        clock["t"] = START + 3000 + i * 30
        assert signup_allowed("203.0.113.7"), i
    clock["t"] = START + 3601
    assert not signup_allowed("203.0.113.7")
    throttle = SignupThrottle()
    assert not throttle.allow_request(RequestFactory().post("/", REMOTE_ADDR="203.0.113.7"), None)
    assert throttle.wait() == 3000 + 3600 - 3601 + 1  # until the first of the 20 leaves the hour
    clock["t"] = START + 3000 + 3600 + 1  # the first left the hour: one place, not twenty
    assert signup_allowed("203.0.113.7") and not signup_allowed("203.0.113.7")


def test_the_day_has_its_own_limit(clock):
    for hour in range(3):
        for i in range(20):
            clock["t"] = START + hour * 3600 + i
            assert signup_allowed("198.51.100.4"), (hour, i)
    clock["t"] = START + 10 * 3600  # the hour is empty, the day is full
    throttle = SignupThrottle()
    assert not throttle.allow_request(RequestFactory().post("/", REMOTE_ADDR="198.51.100.4"), None)
    assert throttle.wait() == 86400 - 10 * 3600 + 1
    clock["t"] = START + 86400 + 1
    assert signup_allowed("198.51.100.4")
    assert signup_allowed("198.51.100.5")  # another address counted apart all along


def test_ipv6_addresses_of_one_64_share_a_limit_and_another_64_does_not(clock):
    for i in range(20):
        assert signup_allowed(f"2001:db8:1:2:{i:x}:{i * 7:x}::{i + 1:x}"), i
    assert not signup_allowed("2001:db8:1:2:ffff:ffff:ffff:ffff")
    assert signup_allowed("2001:db8:1:3::1")
    assert address_block("2001:DB8:1:2::1") == "2001:db8:1:2::/64"
    assert address_block("::ffff:192.0.2.1") == address_block("192.0.2.1") == "192.0.2.1"
    assert address_block(None) == address_block("") == "none"  # no REMOTE_ADDR: one block, no 500


def test_the_sign_up_endpoint_is_held_to_the_window(clock, settings):
    """Through the API: a refused sign-up is a 429 with Retry-After and makes no account; a
    forged X-Forwarded-For is no new address; another address signs up."""
    settings.SIGNUPS_PER_HOUR = 2

    def signup(client, name, **extra):
        return client.post(
            "/api/auth/signup/",
            json.dumps({"username": name, "password": PASSWORD}),
            content_type="application/json",
            **extra,
        )

    client = Client()
    assert [signup(client, f"p{i}").status_code for i in range(2)] == [201, 201]
    refused = signup(Client(), "p2", HTTP_X_FORWARDED_FOR="203.0.113.99")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "throttled"
    assert int(refused["Retry-After"]) == 3601
    assert not accounts.User.objects.filter(username="p2").exists()
    assert signup(Client(REMOTE_ADDR="10.0.0.2"), "elsewhere").status_code == 201


def test_an_unreachable_redis_lets_sign_ups_in(clock, settings):
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": "redis://127.0.0.1:9/0"}}
    settings.SIGNUPS_PER_HOUR = 1
    assert all(signup_allowed("203.0.113.8") for _ in range(3))
