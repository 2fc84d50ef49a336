"""Delete my account: the account and everything that names it go, at once and for good.

- Its results leave every board, and the boards are ranked again: an open board's Redis index
  drops the player's entry, a frozen day's final ranks are written again in PostgreSQL
  (``boards.store``: the same re-rank as staff hiding a result). Other players move up; nothing
  remains under a "deleted player" placeholder, since a result with its move log, times and
  day is itself data about the person (GDPR art. 17 asks for erasure, not a pseudonym).
- A group it owns passes to its longest-standing other member; a group with no other member
  is deleted. Its memberships go.
- Its attempts, submissions (logs and times), entries, stats, name key, tokens (and their
  cached lookups), sessions, email, unsent mail, and axes' log-in records under its name are
  deleted; another player's submission that was flagged as a copy of one of its results keeps
  the flag and loses the link (``copy_of``: null). The admin's log of what staff did to it
  keeps its entries, under its old id and without its name.
- After the commit, the boards' cached pages that showed the player are deleted from Redis
  (not merely staled), so no copy of the name outlives the account there either.
- The archived months (``history.services.erasure``) lose the player's lines later, in a task:
  rewriting every month's file is too slow for the request. The erasure to do is kept, by the
  account's id alone, in the deletion's transaction, so that it is done even if the task is
  lost (beat queues it again).
"""

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache as django_cache
from django.db import transaction
from django.utils.translation import gettext as _

from ..boards import store
from ..boards.services import entries
from ..core import cache, sql
from ..core.errors import Invalid
from ..groups import services as groups
from ..groups.models import Group, Membership
from ..history.services import erasure
from ..record.models import BoardEntry
from . import authentication, passwords
from .models import OutgoingMail

User = get_user_model()


def account_delete(user, password: str) -> None:
    """Delete ``user``'s account, confirmed with its password."""
    if not user.check_password(password):
        raise Invalid(_("The password is wrong."), code="wrong_password")
    account_erase(user)


def account_erase(user) -> None:
    """Delete the account and every trace of it (no check: staff, or ``account_delete``)."""
    player_id, username = user.pk, user.username
    with transaction.atomic():
        sql.run(f'SELECT 1 FROM "{User._meta.db_table}" WHERE "id" = %s FOR UPDATE', [player_id])
        boards = sorted(BoardEntry.objects.filter(player_id=player_id).values_list("board", flat=True))
        stores = store.stores_to_change(boards)
        for group in Group.objects.filter(owner_id=player_id).order_by("pk"):
            _group_hand_on(user, group)
        for group_id in Membership.objects.filter(player_id=player_id).values_list("group_id", flat=True):
            transaction.on_commit(lambda group_id=group_id: cache.group_changed(group_id))
        BoardEntry.objects.filter(player_id=player_id).delete()
        for board in boards:
            stores[board].entries_changed()  # a frozen day is ranked again
        authentication.forget_users([player_id])
        passwords.sessions_end(user)
        if user.email:  # a reset asked for at its address (mail under the account cascades)
            OutgoingMail.objects.filter(to__iexact=user.email).delete()
        for model in (AccessAttempt, AccessFailureLog, AccessLog):
            model.objects.filter(username=username).delete()
        _admin_log_anonymize(player_id)
        User.objects.get(pk=player_id).delete()  # everything with a foreign key to it cascades
        erasure.erasure_record(player_id)
        transaction.on_commit(lambda: _boards_forget(boards, player_id))


def _admin_log_anonymize(player_id: int) -> None:
    """The admin's log keeps what staff did to the account (its deletion included, logged
    before it), but not its name: each entry about it shows its old id alone."""
    LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(User), object_id=str(player_id)).update(
        object_repr=f"#{player_id}"
    )


def _group_hand_on(user, group: Group) -> None:
    heir = Membership.objects.filter(group=group).exclude(player=user).order_by("joined_at", "pk").first()
    if heir is None:
        groups.group_delete(owner=user, group_id=group.pk)
    else:
        groups.owner_hand_on(owner=user, group_id=group.pk, username=heir.player.username)


def _boards_forget(boards: list[str], player_id: int) -> None:
    """After the commit: the player's entries out of each board's index (``boards_mirror``
    re-reads the record, which holds none), the boards and the players' board marked
    changed, and their cached pages deleted."""
    entries.boards_mirror(boards, player_id, players=True)
    for board in [*boards, "players"]:
        django_cache.delete_pattern(f"board:{board}:*")
