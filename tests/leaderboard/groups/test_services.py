"""The groups' writes: create, join by the invite code, the limits (100 members, 20 groups),
the roles (leave, remove, hand on, delete), and the invite code's rotation and revocation."""

import pytest
from django.contrib.auth import get_user_model
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/groups/)

from leaderboard.core.errors import Conflict, Forbidden, Invalid, NotFound
from leaderboard.groups import selectors, services
from leaderboard.groups.models import Group, Membership

pytestmark = pytest.mark.django_db
User = get_user_model()


def players(count: int, prefix: str = "p") -> list:
    return User.objects.bulk_create([User(username=f"{prefix}{i:03d}") for i in range(count)])


def members_of(group) -> list[str]:
    return sorted(Membership.objects.filter(group=group).values_list("player__username", flat=True))


def test_a_player_creates_a_group_owns_it_and_is_its_first_member(make_player):
    alice = make_player("alice")
    group = services.group_create(owner=alice, name="  Friday   harpists ")
    assert group.name == "Friday harpists" and group.owner == alice
    assert members_of(group) == ["alice"]
    assert len(group.invite_code) == 22  # secrets.token_urlsafe(16)
    assert selectors.invite_of(group) == {"code": group.invite_code, "url": f"/groups/join/{group.invite_code}/"}


@pytest.mark.parametrize(
    ("name", "code"), [("", "name_required"), ("   ", "name_required"), ("x" * 61, "name_too_long")]
)
def test_a_group_needs_a_name_of_at_most_60_characters(make_player, name, code):
    with pytest.raises(Invalid) as refused:
        services.group_create(owner=make_player("alice"), name=name)
    assert refused.value.code == code
    assert not Group.objects.exists()


def test_joining_by_the_code_and_joining_twice_changes_nothing(make_player, make_group):
    group = make_group("alice")
    bob = make_player("bob")
    assert services.group_join(player=bob, code=group.invite_code) == (group, True)
    assert services.group_join(player=bob, code=group.invite_code) == (group, False)
    assert members_of(group) == ["alice", "bob"]


@pytest.mark.parametrize("code", ["", "not-a-code", "x" * 22])
def test_an_unknown_code_joins_nothing(make_player, make_group, code):
    make_group("alice")
    with pytest.raises(NotFound) as refused:
        services.group_join(player=make_player("bob"), code=code)
    assert refused.value.code == "invalid_invite"


def test_a_group_holds_at_most_100_members(make_group):
    group = make_group("alice")
    for player in players(services.MAX_MEMBERS - 1):
        services.group_join(player=player, code=group.invite_code)
    assert Membership.objects.filter(group=group).count() == 100
    late = players(1, "late")[0]
    with pytest.raises(Conflict) as refused:
        services.group_join(player=late, code=group.invite_code)
    assert refused.value.code == "group_full" and refused.value.detail == {"limit": 100}
    # A member joining again is no new member: no refusal.
    assert services.group_join(player=User.objects.get(username="p000"), code=group.invite_code)[1] is False
    # A place freed is a place taken.
    services.group_leave(player=User.objects.get(username="p000"), group_id=group.pk)
    assert services.group_join(player=late, code=group.invite_code)[1] is True


def test_a_player_is_in_at_most_20_groups_owned_ones_included(make_player, make_group):
    bob = make_player("bob")
    owners = players(12, "owner")
    for owner in owners:
        services.group_join(player=bob, code=make_group(owner).invite_code)
    for i in range(services.MAX_GROUPS - len(owners)):
        services.group_create(owner=bob, name=f"Bob's {i}")
    assert Membership.objects.filter(player=bob).count() == 20
    with pytest.raises(Conflict) as refused:
        services.group_create(owner=bob, name="One too many")
    assert refused.value.code == "group_limit"
    with pytest.raises(Conflict) as refused:
        services.group_join(player=bob, code=make_group("carol").invite_code)
    assert refused.value.code == "group_limit" and refused.value.detail == {"limit": 20}
    assert Group.objects.filter(owner=bob).count() == 8


def test_a_member_leaves_and_an_owner_hands_on_before_leaving(make_player, make_group):
    group = make_group("alice", "bob", "carol")
    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    assert services.group_leave(player=bob, group_id=group.pk) is False
    assert members_of(group) == ["alice", "carol"]
    with pytest.raises(Conflict) as refused:
        services.group_leave(player=alice, group_id=group.pk)
    assert refused.value.code == "owner_must_hand_on"
    services.owner_hand_on(owner=alice, group_id=group.pk, username="carol")
    group.refresh_from_db()
    assert group.owner.username == "carol" and members_of(group) == ["alice", "carol"]
    assert services.group_leave(player=alice, group_id=group.pk) is False
    # The last member is the owner: leaving deletes the group.
    assert services.group_leave(player=User.objects.get(username="carol"), group_id=group.pk) is True
    assert not Group.objects.exists() and not Membership.objects.exists()


def test_leaving_a_group_one_is_not_in_is_as_for_no_group(make_player, make_group):
    group = make_group("alice")
    with pytest.raises(NotFound) as refused:
        services.group_leave(player=make_player("mallory"), group_id=group.pk)
    assert refused.value.code == "group_not_found"
    with pytest.raises(NotFound):
        services.group_leave(player=User.objects.get(username="mallory"), group_id=group.pk + 1000)


def test_only_the_owner_removes_members_hands_on_and_manages_the_invite(make_group):
    group = make_group("alice", "bob", "carol")
    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    for action in (
        lambda: services.member_remove(owner=bob, group_id=group.pk, username="carol"),
        lambda: services.owner_hand_on(owner=bob, group_id=group.pk, username="bob"),
        lambda: services.invite_rotate(owner=bob, group_id=group.pk),
        lambda: services.invite_revoke(owner=bob, group_id=group.pk),
        lambda: services.group_delete(owner=bob, group_id=group.pk),
    ):
        with pytest.raises(Forbidden) as refused:
            action()
        assert refused.value.code == "not_owner"
    services.member_remove(owner=alice, group_id=group.pk, username="carol")
    assert members_of(group) == ["alice", "bob"]
    with pytest.raises(NotFound) as refused:
        services.member_remove(owner=alice, group_id=group.pk, username="carol")
    assert refused.value.code == "not_a_member"
    with pytest.raises(NotFound):
        services.owner_hand_on(owner=alice, group_id=group.pk, username="carol")
    with pytest.raises(Invalid) as refused:
        services.member_remove(owner=alice, group_id=group.pk, username="alice")
    assert refused.value.code == "owner_cannot_be_removed"
    services.group_delete(owner=alice, group_id=group.pk)
    assert not Group.objects.exists() and not Membership.objects.exists()


def test_rotating_the_code_ends_the_old_link_and_revoking_ends_every_link(make_player, make_group):
    group = make_group("alice")
    alice = group.owner
    old = group.invite_code
    new = services.invite_rotate(owner=alice, group_id=group.pk)
    assert new != old and len(new) == 22
    with pytest.raises(NotFound):
        services.group_join(player=make_player("bob"), code=old)
    assert services.group_join(player=User.objects.get(username="bob"), code=new)[1]
    services.invite_revoke(owner=alice, group_id=group.pk)
    group.refresh_from_db()
    assert group.invite_code is None and selectors.invite_of(group) is None
    with pytest.raises(NotFound):
        services.group_join(player=make_player("carol"), code=new)
    # A new code after a revocation works again.
    renewed = services.invite_rotate(owner=alice, group_id=group.pk)
    assert services.group_join(player=User.objects.get(username="carol"), code=renewed)[1]
    assert members_of(group) == ["alice", "bob", "carol"]


def test_a_removed_member_may_come_back_by_a_link_still_valid_and_not_by_a_rotated_one(make_group):
    group = make_group("alice", "bob")
    alice, bob = group.owner, User.objects.get(username="bob")
    services.member_remove(owner=alice, group_id=group.pk, username="bob")
    assert services.group_join(player=bob, code=group.invite_code)[1]
    services.member_remove(owner=alice, group_id=group.pk, username="bob")
    code = services.invite_rotate(owner=alice, group_id=group.pk)
    with pytest.raises(NotFound):
        services.group_join(player=bob, code=group.invite_code)
    assert code != group.invite_code and members_of(group) == ["alice"]


def test_a_players_groups_and_those_another_player_may_see(make_player, make_group):
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    both = make_group(alice, bob, name="Both")
    make_group(alice, name="Alice alone")
    make_group(carol, bob, name="Carol and Bob")
    assert [g["name"] for g in selectors.groups_of(alice)] == ["Both", "Alice alone"]
    assert selectors.groups_of(alice)[0] == {
        "id": both.pk,
        "name": "Both",
        "owner": "alice",
        "members": 2,
        "is_owner": True,
        "joined_at": Membership.objects.get(group=both, player=alice).joined_at,
    }
    assert [g["name"] for g in selectors.groups_shared(alice, "alice")] == ["Both", "Alice alone"]
    assert [g["name"] for g in selectors.groups_shared(alice, "bob")] == ["Both"]
    assert [g["name"] for g in selectors.groups_shared(bob, "alice")] == ["Both"]
    assert [g["name"] for g in selectors.groups_shared(carol, "alice")] == []
    assert [g["name"] for g in selectors.groups_shared(carol, "nobody")] == []
