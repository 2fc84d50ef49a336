"""Fixtures of the groups' tests: the service suite's (players, clients, verified play) and
groups made through the service."""

import pytest

from leaderboard.groups import services
# The service suite's fixtures.
from service.conftest import (  # noqa: F401  (fixtures, re-exported for this directory)
    PASSWORD, _fresh_redis, _tempo_rules_off, client_for, make_player, play, today_deal, verify_queued, won_game,
    won_games,
)


@pytest.fixture
def make_group(make_player):
    """``make_group(owner, *members, name=...)``: a group owned by ``owner`` (a player or a
    name) that the ``members`` joined by its invite code."""
    def make(owner, *members, name: str = "Harpists"):
        owner = make_player(owner) if isinstance(owner, str) else owner
        group = services.group_create(owner=owner, name=name)
        for member in members:
            member = make_player(member) if isinstance(member, str) else member
            services.group_join(player=member, code=group.invite_code)
        return group
    return make
