"""The project's Celery app with CELERY_DB_REUSE_MAX and a leaner ``boards_refresh``.

An experiment only (``bench_pipeline.py --drain N --lean``), never used by the project: it
measures what the changes proposed in benchmarks/README.md ("What would close the gaps", items
1 and 2) would do for the worker, by replacing ``leaderboard.services.boards_refresh`` in the
worker process with a version that sends fewer statements for the same result:

- the player's row is locked without loading it;
- the best submission is read without its move log;
- each board entry is written with one INSERT ... ON CONFLICT DO UPDATE (no savepoint, select,
  update, release);
- the stats are written the same way, and not recomputed for a newly verified lost game (it
  changes neither wins nor streaks);
- one on-commit callback mirrors both boards: one read of the entries, one Redis pipeline.

The drain's checks (every submission verified once, BoardEntry and Redis index counts) and the
pipeline's (the first ranks equal in Redis and PostgreSQL) still apply to it.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.conf import settings  # noqa: E402

settings.CELERY_DB_REUSE_MAX = int(os.environ.get("BENCH_DB_REUSE_MAX", "1000"))

from config.celery import app  # noqa: E402,F401


from celery.signals import worker_process_init  # noqa: E402


@worker_process_init.connect
def _install(**kwargs) -> None:
    """In each pool process, once Django is set up: replace services.boards_refresh."""
    import logging
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import transaction

    from leaderboard import cache, ranking, services
    from leaderboard.models import BoardEntry, PlayerStats, Submission

    log = logging.getLogger("bench.lean")
    Status = Submission.Status
    User = get_user_model()

    def stats_refresh(player_id: int) -> None:
        days = sorted(set(
            Submission.objects.filter(player_id=player_id, status=Status.VERIFIED, won=True, hidden=False,
                                      flagged=False, daily_date__isnull=False)
            .values_list("daily_date", flat=True)))
        best = run = 0
        previous = None
        for day in days:
            run = run + 1 if previous and day - previous == timedelta(days=1) else 1
            best = max(best, run)
            previous = day
        PlayerStats.objects.bulk_create(
            [PlayerStats(player_id=player_id, daily_wins=len(days), best_streak=best,
                         last_streak=run if days else 0, last_win_date=previous)],
            update_conflicts=True, unique_fields=["player"],
            update_fields=["daily_wins", "best_streak", "last_streak", "last_win_date"])
        transaction.on_commit(lambda: cache.board_changed("players"))

    def mirror(boards: list[str], player_id: int) -> None:
        index = ranking.redis_ranking()
        if index is not None:
            entries = {e.board: e for e in BoardEntry.objects.filter(player_id=player_id, board__in=boards)}
            try:
                pipe = index.client.pipeline(transaction=True)
                for board in boards:
                    zset, players, _ = index._keys(board)
                    index._remove(keys=[zset, players], args=[player_id], client=pipe)
                    entry = entries.get(board)
                    if entry is not None:
                        index._upsert(keys=[zset, players], client=pipe, args=[
                            player_id, ranking.member(entry.submitted_at, entry.submission_id), entry.rank_key])
                pipe.execute()
            except Exception:
                log.warning("ranking index not updated for %s", boards, exc_info=True)
        for board in boards:
            cache.board_changed(board)

    def boards_refresh(submission) -> None:
        player_id = submission.player_id
        list(User.objects.select_for_update().filter(pk=player_id).values_list("pk", flat=True))
        boards = services.boards_of(submission)
        for board in boards:
            scope = {"daily_date": submission.daily_date} if board.startswith("daily:") else {
                "deal_number": submission.deal_number}
            best = (Submission.objects.filter(player_id=player_id, status=Status.VERIFIED, hidden=False,
                                              flagged=False, **scope)
                    .order_by("rank_key", "submitted_at", "pk").values_list("pk", "rank_key", "submitted_at").first())
            if best is None:
                BoardEntry.objects.filter(board=board, player_id=player_id).delete()
            else:
                BoardEntry.objects.bulk_create(
                    [BoardEntry(board=board, player_id=player_id, submission_id=best[0], rank_key=best[1],
                                submitted_at=best[2])],
                    update_conflicts=True, unique_fields=["board", "player"],
                    update_fields=["submission", "rank_key", "submitted_at"])
        transaction.on_commit(lambda: mirror(boards, player_id))
        newly_lost = submission.status == Status.VERIFIED and submission.won is False
        if submission.daily_date and not newly_lost:
            stats_refresh(player_id)

    services.boards_refresh = boards_refresh
    log.warning("bench experiment: leaner boards_refresh installed")
