"""Starting attempts is throttled per player (scope "attempt", THROTTLE_ATTEMPT)."""

import pytest
from django.conf import settings as django_settings
from leaderboard_fixtures.security import token_client
from leaderboard_fixtures.service import _fresh_redis  # noqa: F401  (autouse, as in tests/security/)
from rest_framework.throttling import ScopedRateThrottle

from leaderboard.models import Attempt

pytestmark = [pytest.mark.django_db, pytest.mark.security]
LIMIT = 3


def test_the_default_rate_is_thirty_a_minute():
    assert django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["attempt"] == "30/minute"


def test_starting_attempts_is_throttled_per_player(monkeypatch, make_player):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"attempt": f"{LIMIT}/minute"})
    alice, bob = token_client(make_player("alice")), token_client(make_player("bob"))
    start = {"deal": "EH1-N-AAAAAAF"}
    for _ in range(LIMIT):
        assert alice.post("/api/attempts/", start, format="json").status_code == 201
    refused = alice.post("/api/attempts/", start, format="json")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0
    assert Attempt.objects.filter(player__username="alice").count() == LIMIT
    assert bob.post("/api/attempts/", start, format="json").status_code == 201
