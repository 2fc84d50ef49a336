"""Celery tasks: they take ids only and call services. Services never import this module:
they send a task by its name (``intake.VERIFY_TASK``, ``rebuild.REBUILD_TASK``, ``mail.MAIL_TASK``), under which
the task is registered here."""

from datetime import date, timedelta

from celery import shared_task
from django.utils import timezone

from .accounts import guests, mail, sessions
from .boards import freeze
from .boards.services import entries, idle, rebuild
from .core import days
from .history.services import erasure, partitions
from .models import Submission
from .play.services import deal as daily
from .play.services import drafts, intake, origin, verification


@shared_task(name=intake.VERIFY_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def verify_submission(submission_id: int) -> Submission | None:
    """Replay one submission's log; a duplicate delivery changes nothing (None). The result
    returned is read by the worker's metrics (config/metrics.py), never stored."""
    return verification.submission_verify(submission_id)


@shared_task(ignore_result=True)
def requeue_stale_submissions() -> int:
    """Beat: queue again what a down broker or a killed worker left pending or verifying."""
    return verification.requeue_stale()


@shared_task(ignore_result=True)
def prepare_daily_deals() -> None:
    """Beat: store today's and tomorrow's deal of the day ahead of the first player."""
    today = days.today()
    daily.daily_deal_ensure(today)
    daily.daily_deal_ensure(today + timedelta(days=1))


@shared_task(ignore_result=True)
def reconcile_boards() -> list[str]:
    """Beat: rebuild a recent daily board's index that disagrees with PostgreSQL."""
    return entries.boards_reconcile()


@shared_task(name=rebuild.REBUILD_TASK, ignore_result=True)
def rebuild_board(board: str) -> int:
    """A board's index, lost in Redis, reloaded from PostgreSQL (queued by the first reader that
    found it missing, who claimed the rebuild for this task)."""
    return rebuild.board_rebuild_claimed(board)


# A million-entry day's freeze rewrites a million entries: minutes, not the default 60 s limit
# (a day killed at the limit would roll back and start over at every run).
@shared_task(ignore_result=True, soft_time_limit=1800, time_limit=1900)
def freeze_days() -> list[str]:
    """Beat: freeze every final day's board not frozen yet into PostgreSQL (``freeze``)."""
    return freeze.days_freeze()


@shared_task(ignore_result=True)
def evict_idle_boards() -> list[str]:
    """Beat: drop the Redis index of numbered deals' boards idle for BOARD_IDLE_DAYS (``idle``)."""
    return idle.idle_boards_evict()


@shared_task(ignore_result=True)
def create_partitions() -> list[str]:
    """Beat: the monthly partitions of attempts and submissions, PARTITION_MONTHS_AHEAD months
    ahead (``partitions``); nothing when they exist."""
    return partitions.months_ensure()


@shared_task(ignore_result=True)
def submit_unfinished_dailies() -> int:
    """Beat: once a day is final, the last log saved of each ranked try never sent becomes its
    result, verified like any other (``drafts``)."""
    return drafts.drafts_submit()


@shared_task(ignore_result=True)
def forget_guests() -> int:
    """Beat: delete the unclaimed guests idle for GUEST_KEEP_DAYS days (``guests``)."""
    return guests.guests_forget()


@shared_task(ignore_result=True)
def forget_origins() -> int:
    """Beat: clear the address and device hashes of attempts older than ORIGIN_KEEP_DAYS."""
    return origin.origins_forget(timezone.now())


@shared_task(ignore_result=True)
def forget_expired_sessions() -> int:
    """Beat: delete the sessions past their expiry (``accounts.sessions``)."""
    return sessions.sessions_forget_expired()


@shared_task(name=mail.MAIL_TASK, acks_late=True, ignore_result=True)
def send_mail(mail_id: int) -> bool:
    """Render and send one stored mail (a duplicate delivery sends nothing)."""
    return mail.mail_send(mail_id)


@shared_task(ignore_result=True)
def requeue_unsent_mail() -> int:
    """Beat: queue again the mail a down broker lost or a down mail server refused."""
    return mail.mail_requeue()


# One archived month a step (its file read, rewritten and checked): long for a large month.
@shared_task(
    name=erasure.ERASE_TASK, ignore_result=True, soft_time_limit=erasure.TIME_LIMIT, time_limit=erasure.TIME_LIMIT + 60
)
def erase_from_archives(player_id: int, from_month: str | None = None) -> int:
    """A deleted player's lines out of one archived month, from ``from_month`` (ISO; None: the
    oldest), the next month's step queued (``history.services.erasure``); a repeated delivery
    changes nothing."""
    return erasure.archives_erase(player_id, date.fromisoformat(from_month) if from_month else None)


@shared_task(ignore_result=True)
def requeue_archive_erasures() -> int:
    """Beat: queue again the archives' erasures a lost message or a killed worker left pending."""
    return erasure.erasures_requeue()
