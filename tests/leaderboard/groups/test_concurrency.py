"""Races for the limits, with threads that each hold their own database connection: two
players joining for a group's last place, and one player joining two groups for their last."""

import pytest
from django.contrib.auth import get_user_model
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/groups/)
from threads import together

from leaderboard.core.errors import Conflict
from leaderboard.groups import services
from leaderboard.groups.models import Group, Membership

pytestmark = pytest.mark.django_db(transaction=True)
User = get_user_model()
ROUNDS = 5


def test_two_joins_racing_for_the_last_place_let_one_in(make_group):
    for round_ in range(ROUNDS):
        group = make_group(f"owner{round_}")
        fillers = User.objects.bulk_create([User(username=f"f{round_}-{i}") for i in range(services.MAX_MEMBERS - 2)])
        for player in fillers:
            services.group_join(player=player, code=group.invite_code)
        racers = User.objects.bulk_create([User(username=f"r{round_}-{i}") for i in range(2)])

        results = together(2, lambda i: services.group_join(player=racers[i], code=group.invite_code))

        assert sorted(type(r).__name__ for r in results) == ["Conflict", "tuple"], results
        assert next(r for r in results if isinstance(r, Conflict)).code == "group_full"
        assert Membership.objects.filter(group=group).count() == services.MAX_MEMBERS


def test_one_player_joining_two_groups_for_their_last_place_gets_one(make_group):
    for round_ in range(ROUNDS):
        player = User.objects.create(username=f"joiner{round_}")
        for i in range(services.MAX_GROUPS - 1):
            services.group_create(owner=player, name=f"own {i}")
        groups = [make_group(f"o{round_}-{i}") for i in range(2)]

        results = together(2, lambda i: services.group_join(player=player, code=groups[i].invite_code))

        assert sorted(type(r).__name__ for r in results) == ["Conflict", "tuple"], results
        assert next(r for r in results if isinstance(r, Conflict)).code == "group_limit"
        assert Membership.objects.filter(player=player).count() == services.MAX_GROUPS
    assert Group.objects.count() == ROUNDS * (services.MAX_GROUPS - 1 + 2)
