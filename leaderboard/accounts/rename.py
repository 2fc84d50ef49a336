"""A new name, once in RENAME_DAYS: the sign-up's checks apply (``services.name_checked``: free
in any case, like no other player's name, one script), and the name's key moves with it.

Everywhere the name shows follows: the rows kept in the boards' Redis index are rewritten
after the commit (``signals``: a saved account), the pages cached of those boards, of the
players' board and of the player's groups are staled at once (top pages too), and replays and
profiles read the name from the record."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from ..core import cache
from ..core.errors import Conflict
from ..groups.models import Membership
from ..record.models import BoardEntry
from ..record.players import PlayerName
from . import names, services

User = get_user_model()


def rename_allowed_at(user):
    """When the player may next take a new name (None: now)."""
    found = PlayerName.objects.filter(player_id=user.pk).values_list("renamed_at", flat=True).first()
    if found is None or not settings.RENAME_DAYS:
        return None
    allowed = found + timedelta(days=settings.RENAME_DAYS)
    return allowed if allowed > timezone.now() else None


def name_change(user, username: str):
    username = names.normalized(username or "").strip()
    if username == user.username:
        return user
    allowed = rename_allowed_at(user)
    if allowed is not None:
        raise Conflict(
            _("You may choose a new name again on %(date)s.") % {"date": formats.date_format(allowed)},
            code="rename_too_soon",
        )
    key = services.name_checked(username, candidate=user)
    with transaction.atomic():
        services.name_lock(username)
        if User.objects.filter(username__iexact=username).exclude(pk=user.pk).exists():
            raise services.taken(username)
        user.username = username
        user.save(update_fields=["username"])  # the key moves (signals); a look-alike that won a race drops it
        if not PlayerName.objects.filter(player_id=user.pk, key=key).update(renamed_at=timezone.now()):
            raise services.looks_alike(username)  # undoes the rename
        boards = list(BoardEntry.objects.filter(player_id=user.pk).values_list("board", flat=True))
        group_ids = list(Membership.objects.filter(player_id=user.pk).values_list("group_id", flat=True))
        transaction.on_commit(lambda: _shown_again(boards, group_ids))
    return user


def _shown_again(boards: list[str], group_ids: list[int]) -> None:
    cache.boards_changed(dict.fromkeys([*boards, "players"]))
    for group_id in group_ids:
        cache.group_changed(group_id)
