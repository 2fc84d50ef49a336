"""Guest players: a visitor without an account plays today's ranked try as a guest, a player
with no name or password yet (``record.models.GUEST_PREFIX``), bound to one browser by its
session cookie (the API counts it as signed in). Its results are verified like any other, but
are off the boards (``Submission.guest``, part of ``ON_BOARDS``) until it keeps them.

Keeping (``guest_keep``) gives the guest a name and a password under the sign-up's own checks
(``services.signup_checked``, ``services.account_named``): the same player, so its attempts and
results stay. A result whose day is not final yet, or of a numbered deal (whose board never
closes), then goes on its board, and the streaks count it; one of a day already final stays in
the player's history and off the board, which no longer changes (``boards.freeze``).

An unclaimed guest with no attempt for GUEST_KEEP_DAYS days is deleted (``guests_forget``, beat).
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from ..boards.services import entries
from ..core import days, sql
from ..core.errors import Conflict
from ..record.models import GUEST_PREFIX, Attempt, Submission, is_guest
from ..record.players import PlayerStats
from . import services

User = get_user_model()


def guest_create():
    """A new guest player (the caller counts it under the sign-up throttle)."""
    guest = User(username=f"{GUEST_PREFIX}{secrets.token_hex(8)}")
    guest.set_unusable_password()
    with transaction.atomic():
        guest.save()
        PlayerStats.objects.create(player=guest)
    return guest


def guest_keep(guest, *, username: str, password: str):
    """The guest becomes a named account (``services``' sign-up checks), keeping its attempts,
    results and streak; its results of days not final yet (and of numbered deals) go on their
    boards. Conflict if the player is no guest."""
    if not is_guest(guest):
        raise Conflict(_("This account already has a name."), code="not_a_guest")
    username = services.signup_checked(username=username, password=password, player_id=guest.pk)
    guest = User.objects.get(pk=guest.pk)  # whole: the request's user has its fields deferred
    with transaction.atomic():
        # One keep at a time: a second one finds the name already given.
        sql.run(f'SELECT 1 FROM "{User._meta.db_table}" WHERE "id" = %s FOR UPDATE', [guest.pk])
        if not is_guest(User.objects.only("username").get(pk=guest.pk)):
            raise Conflict(_("This account already has a name."), code="not_a_guest")
        services.account_named(guest, username, password)
        _results_kept(guest.pk)
    return guest


def _results_kept(player_id: int) -> None:
    """The guest's results whose board is still open leave the guest's mark and are ranked (the
    entries and the stats recomputed, ``entries.boards_refresh``)."""
    now = timezone.now()
    for submission in Submission.objects.filter(player_id=player_id, guest=True).select_related("attempt"):
        if submission.daily_date is not None and days.day_final(submission.daily_date, now):
            continue  # its day's board is final: the result stays in the history only
        Submission.objects.filter(pk=submission.pk).update(guest=False)
        submission.guest = False
        entries.boards_refresh(submission)


def guests_forget(now=None) -> int:
    """Delete the guests that played nothing for GUEST_KEEP_DAYS days (their attempts, results
    and drafts with them); how many."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.GUEST_KEEP_DAYS)
    recent = Attempt.objects.filter(player=OuterRef("pk"), started_at__gte=cutoff)
    stale = User.objects.filter(username__startswith=GUEST_PREFIX, date_joined__lt=cutoff).exclude(Exists(recent))
    forgotten = 0
    for guest in stale.only("pk")[:1000]:
        guest.delete()
        forgotten += 1
    return forgotten
