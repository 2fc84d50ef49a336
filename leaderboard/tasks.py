"""Celery tasks: they take ids only and call services."""

from datetime import timedelta

from celery import shared_task

from . import days, services
from .submissions import intake, verification
from .boards import index


@shared_task(name=intake.VERIFY_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def verify_submission(submission_id: int) -> None:
    """Replay one submission's log; a duplicate delivery changes nothing."""
    verification.submission_verify(submission_id)


@shared_task(ignore_result=True)
def requeue_stale_submissions() -> int:
    """Beat: queue again what a down broker or a killed worker left pending or verifying."""
    return verification.requeue_stale()


@shared_task(ignore_result=True)
def prepare_daily_deals() -> None:
    """Beat: store today's and tomorrow's deal of the day ahead of the first player."""
    today = days.today()
    days.daily_deal_ensure(today)
    days.daily_deal_ensure(today + timedelta(days=1))


@shared_task(ignore_result=True)
def reconcile_boards() -> list[str]:
    """Beat: rebuild a recent daily board's index that disagrees with PostgreSQL."""
    return services.boards_reconcile()


@shared_task(ignore_result=True)
def rebuild_board(board: str) -> int:
    """A board's index, lost in Redis, reloaded from PostgreSQL (queued by the first reader that
    found it missing, who claimed the rebuild for this task)."""
    try:
        return services.board_rebuild(board)
    finally:
        index.board_index().release_rebuild(board)
