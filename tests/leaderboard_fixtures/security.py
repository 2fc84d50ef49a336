"""Fixtures of the security tests: the service suite's players and deals, real PostgreSQL and
Redis; the browser of the end-to-end suite for the pages under their Content-Security-Policy."""

from e2e.conftest import browser, page  # noqa: F401  (fixtures, re-exported for this directory)
from rest_framework.test import APIClient

from leaderboard.accounts import services as accounts
from leaderboard_fixtures.reliability import make_staff  # noqa: F401
from leaderboard_fixtures.service import (  # noqa: F401  (fixtures, re-exported for this directory)
    PASSWORD,
    _fresh_redis,
    client_for,
    make_player,
    today_deal,
    won_game,
    won_games,
)


def token_client(player) -> APIClient:
    """An API client as a program uses it: its token, no cookies."""
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.user_token(player)}")
    return client
