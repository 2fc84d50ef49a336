"""Writes of groups: create, join by the invite code, leave, remove a member, hand ownership
on, rotate or revoke the code, delete.

Limits: a group holds at most ``MAX_MEMBERS`` players and a player is in at most
``MAX_GROUPS`` groups (owned ones included). Both are counted under row locks, so two joins
racing for a group's last place, or one player joining two groups at their last place, cannot
both get in: a join locks the group's row, then the player's (``FOR NO KEY UPDATE``: a lock
that the rows' foreign keys do not wait for); a creation locks the player's only. Every path
takes the group before the player, so no two of them wait for each other in a circle.

The owner is a member. Owners hand ownership on before they leave (``owner_must_hand_on``)
while others are in the group; an owner who is the last member leaving deletes the group.
"""

import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext

from ..core import cache
from ..core.errors import Conflict, Forbidden, Invalid, NotFound
from ..record.models import is_guest
from .models import Group, Membership
from .selectors import not_found

User = get_user_model()

MAX_MEMBERS = 100
MAX_GROUPS = 20
NAME_MAX = Group._meta.get_field("name").max_length
#: Bytes of randomness in an invite code (``secrets.token_urlsafe``: 22 characters).
CODE_BYTES = 16


def new_code() -> str:
    """A fresh invite code: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(CODE_BYTES)


def group_create(*, owner, name: str) -> Group:
    """A new group owned (and joined) by ``owner``, with an invite code."""
    name = _clean_name(name)
    _named(owner)
    with transaction.atomic():
        _lock_player(owner)
        _check_player_room(owner)
        group = Group.objects.create(name=name, owner=owner, invite_code=new_code())
        Membership.objects.create(group=group, player=owner)
    return group


def group_join(*, player, code: str) -> tuple[Group, bool]:
    """``player`` joins the group whose invite code is ``code``: ``(group, joined)``, joined
    False when they were a member already (joining twice changes nothing)."""
    _named(player)
    with transaction.atomic():
        group = Group.objects.select_for_update(no_key=True).filter(invite_code=code).first() if code else None
        if group is None:
            raise NotFound(
                gettext("This invite link is not valid: it may have been revoked or replaced."), code="invalid_invite"
            )
        if Membership.objects.filter(group=group, player=player).exists():
            return group, False
        _lock_player(player)
        if Membership.objects.filter(group=group).count() >= MAX_MEMBERS:
            raise Conflict(
                gettext("This group is full: it has %(limit)d members.") % {"limit": MAX_MEMBERS},
                code="group_full",
                detail={"limit": MAX_MEMBERS},
            )
        _check_player_room(player)
        Membership.objects.create(group=group, player=player)
        _members_changed(group.pk)
    return group, True


def group_leave(*, player, group_id: int) -> bool:
    """``player`` leaves the group; answers whether the group was deleted (its owner left it
    as its last member). An owner with other members hands ownership on first."""
    with transaction.atomic():
        group = _locked_group(group_id, player)
        if group.owner_id == player.pk:
            if Membership.objects.filter(group=group).exclude(player=player).exists():
                raise Conflict(
                    gettext("Hand the group on to another member before you leave it."), code="owner_must_hand_on"
                )
            _members_changed(group.pk)
            group.delete()
            return True
        Membership.objects.filter(group=group, player=player).delete()
        _members_changed(group.pk)
    return False


def member_remove(*, owner, group_id: int, username: str) -> None:
    """The owner takes a member out of the group (who may join again while the code they
    know is valid: rotate it to keep them out)."""
    with transaction.atomic():
        group = _owned_group(group_id, owner)
        member = _member(group, username)
        if member.pk == owner.pk:
            raise Invalid(
                gettext("The owner cannot remove themselves: hand the group on, or leave it."),
                code="owner_cannot_be_removed",
            )
        Membership.objects.filter(group=group, player=member).delete()
        _members_changed(group.pk)


def owner_hand_on(*, owner, group_id: int, username: str) -> Group:
    """The owner makes another member the owner (and stays a member)."""
    with transaction.atomic():
        group = _owned_group(group_id, owner)
        member = _member(group, username)
        if member.pk != owner.pk:
            group.owner = member
            group.save(update_fields=["owner"])
    return group


def invite_rotate(*, owner, group_id: int) -> str:
    """A new invite code; the old one stops working (a revoked invite is renewed)."""
    with transaction.atomic():
        group = _owned_group(group_id, owner)
        group.invite_code = new_code()
        group.save(update_fields=["invite_code"])
    return group.invite_code


def invite_revoke(*, owner, group_id: int) -> None:
    """No invite code: nobody joins until the owner makes a new one."""
    with transaction.atomic():
        group = _owned_group(group_id, owner)
        group.invite_code = None
        group.save(update_fields=["invite_code"])


def group_delete(*, owner, group_id: int) -> None:
    """The owner deletes the group and every membership of it."""
    with transaction.atomic():
        _owned_group(group_id, owner).delete()
        _members_changed(group_id)


def _members_changed(group_id: int) -> None:
    """After commit: the group's boards' ETags stop matching (``boards.live``), so a removed
    member's next poll is answered whole (a 404) and the others see the members now."""
    transaction.on_commit(lambda: cache.group_changed(group_id))


# -- the checks -----------------------------------------------------------------------------


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise Invalid(gettext("Give the group a name."), code="name_required")
    if len(name) > NAME_MAX:
        raise Invalid(
            gettext("A group's name has at most %(limit)d characters.") % {"limit": NAME_MAX},
            code="name_too_long",
            detail={"limit": NAME_MAX},
        )
    return name


def _lock_player(player) -> None:
    """Serialise the changes of one player's memberships until the transaction ends."""
    User.objects.select_for_update(no_key=True).filter(pk=player.pk).values_list("pk").first()


def _named(player) -> None:
    """A guest (``accounts.guests``) has no name to show the other members: it keeps its result first."""
    if is_guest(player):
        raise Forbidden(
            gettext("Keep your result under a name first: a guest has no name to show a group."), code="guest"
        )


def _check_player_room(player) -> None:
    if Membership.objects.filter(player=player).count() >= MAX_GROUPS:
        raise Conflict(
            gettext("You are in %(limit)d groups, the most a player may be in: leave one first.")
            % {"limit": MAX_GROUPS},
            code="group_limit",
            detail={"limit": MAX_GROUPS},
        )


def _locked_group(group_id: int, player) -> Group:
    """The group, locked, when ``player`` is a member; to anyone else it does not exist."""
    group = Group.objects.select_for_update(no_key=True).filter(pk=group_id).first()
    if group is None or not Membership.objects.filter(group=group, player=player).exists():
        raise not_found()
    return group


def _owned_group(group_id: int, owner) -> Group:
    """The group, locked, when ``owner`` owns it; a member who does not is refused (403)."""
    group = _locked_group(group_id, owner)
    if group.owner_id != owner.pk:
        raise Forbidden(gettext("Only the group's owner may do this."), code="not_owner")
    return group


def _member(group: Group, username: str):
    member = User.objects.filter(memberships__group=group, username=username).first()
    if member is None:
        raise NotFound(gettext("%(player)s is not a member of this group.") % {"player": username}, code="not_a_member")
    return member
