"""Writes: every change to the record goes through these functions (views, tasks and
the admin share them)."""

import hashlib
import json
import logging
import uuid
from dataclasses import asdict
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from psycopg.types.json import Jsonb

import games
from games import solver

from . import board_rows, cache, days, sql, tempo
from .boards import index, order
from .errors import Conflict, Forbidden, Invalid, TooLarge
from .models import Attempt, BoardEntry, PlayerStats, Submission

log = logging.getLogger(__name__)
User = get_user_model()
Status = Submission.Status


# -- attempts and submissions -------------------------------------------------------------

#: What a player sends to start today's deal without knowing its code.
DAILY = "daily"


def attempt_start(*, player, deal_code: str) -> Attempt:
    """Start playing a deal now. "daily" (or the code of today's deal) starts today's deal
    of the day: ranked for the player's first DAILY_RANKED_ATTEMPTS of the day, practice
    after. A D code of another day is played like a numbered deal."""
    today = days.today()
    todays = None
    if deal_code.strip().lower() == DAILY:
        todays = days.daily_deal_ensure(today)
        code = games.DealCode(mode="D", number=todays.number)
    else:
        code = _deal_code(deal_code)
        if code.mode == "D":
            todays = days.daily_deal_ensure(today)
    if todays is None or todays.number != code.number:
        return Attempt.objects.create(player=player, deal_code=str(code), deal_number=code.number,
                                      started_at=timezone.now())
    with transaction.atomic():
        # Two starts at once must not both see "no ranked attempt yet".
        sql.run("SELECT pg_advisory_xact_lock(hashtext('daily-attempt'), hashtext(%s))",
                [f"{player.pk}:{today.isoformat()}"])
        earlier = Attempt.objects.filter(player=player, daily_date=today).count()
        return Attempt.objects.create(
            player=player, deal_code=str(code), deal_number=code.number, daily_date=today,
            ranked=earlier < settings.DAILY_RANKED_ATTEMPTS, started_at=timezone.now(),
        )


def hint_for(*, attempt: Attempt, actions) -> tuple[str | None, int]:
    """The solver's next action for the attempt's game so far (None once it is won), and the
    attempt's hints so far: each answered hint is counted on the attempt, which its result
    then carries (never the client's count)."""
    game = games.Game.new(attempt.deal_number)
    result = games.replay_onto(game, actions) if isinstance(actions, list) else None
    if result is None or not result.ok:
        raise Invalid(result.error if result else _("actions must be a list of action strings."),
                      detail={"index": result.index if result else None}, code="invalid_log")
    action = solver.hint(game, node_limit=settings.HINT_SOLVER_NODES)
    if action is None:
        return None, attempt.hints
    # Counted only while nothing was submitted: a later hint cannot help the log already sent.
    counted = sql.run(
        f'UPDATE "{_ATTEMPTS}" a SET "hints" = a."hints" + 1 WHERE a."id" = %s AND NOT EXISTS '
        f'(SELECT 1 FROM "{_SUBMISSIONS}" s WHERE s."attempt_id" = a."id") RETURNING a."hints"', [attempt.pk])
    if not counted:
        raise Conflict(_("This attempt already has a submission: start a new attempt."),
                       code="already_submitted")
    attempt.hints = counted[0][0]
    return action, attempt.hints


def _deal_code(text: str) -> games.DealCode:
    try:
        return games.parse_code(text)
    except games.InvalidCode as exc:
        raise Invalid(str(exc), code="invalid_deal") from None


def log_hash(actions: list) -> str:
    """sha256 of the log's canonical JSON: equal logs, equal hashes (copies are found by it)."""
    return hashlib.sha256(json.dumps(actions, separators=(",", ":")).encode()).hexdigest()


def tempo_rules() -> tempo.TempoRules:
    """The tempo rules' thresholds, from settings (TEMPO_*)."""
    return tempo.TempoRules(
        min_actions=settings.TEMPO_MIN_ACTIONS, min_median_ms=settings.TEMPO_MIN_MEDIAN_MS,
        max_fast_share=settings.TEMPO_MAX_FAST_SHARE, min_spread=settings.TEMPO_MIN_SPREAD,
        pause_min_actions=settings.TEMPO_PAUSE_MIN_ACTIONS, min_pauses_per_100=settings.TEMPO_MIN_PAUSES_PER_100)


def first_malformed(actions) -> tuple[int, str] | None:
    """The index and reason of the first action that is not of the notation at all."""
    for position, text in enumerate(actions):
        try:
            games.parse_action(text)
        except games.MalformedAction as exc:
            return position, str(exc)
    return None


# The tables of the plain-SQL statements below (leaderboard.sql).
_SUBMISSIONS, _ATTEMPTS, _ENTRIES = Submission._meta.db_table, Attempt._meta.db_table, BoardEntry._meta.db_table
_STATS, _USERS = PlayerStats._meta.db_table, User._meta.db_table


def submission_create(*, attempt: Attempt, player, actions, times=None) -> Submission:
    """Store the log first (it is never lost), then queue its verification after commit.
    ``times``: the browser's time of each action (ms since the attempt started), required for
    a daily attempt; evidence for staff review, never ranked."""
    if attempt.player_id != player.pk:
        raise Forbidden("Only the player who started this attempt may submit to it.")
    if attempt.daily_date is not None and timezone.now() > days.day_accepts_until(attempt.daily_date):
        raise Conflict(_("The day of this deal has closed: its games can no longer be ranked."),
                       detail=days.day_times(attempt.daily_date), code="day_closed")
    if not isinstance(actions, list):
        raise Invalid("actions must be a list of action strings.", code="invalid_log")
    if not actions:
        raise Invalid(_("The log is empty: play at least one action."), code="empty_log")
    if len(actions) > settings.SUBMISSION_MAX_ACTIONS:
        raise TooLarge(f"A log may hold at most {settings.SUBMISSION_MAX_ACTIONS:,} actions.")
    bad = first_malformed(actions)
    if bad:
        index, reason = bad
        raise Invalid(reason, detail={"index": index}, code="malformed_action")
    submitted_at = timezone.now()
    _check_times(attempt, times, len(actions), submitted_at)
    submission = Submission(attempt=attempt, player=player, deal_number=attempt.deal_number,
                            daily_date=attempt.daily_date, actions=actions, hints=attempt.hints,
                            times=times, practice=attempt.practice, log_hash=log_hash(actions),
                            submitted_at=submitted_at)
    try:
        if connection.in_atomic_block:
            with transaction.atomic():  # a savepoint: a conflict leaves the caller's transaction usable
                _submission_insert(submission)
        else:
            _submission_insert(submission)  # one statement: its own transaction
    except IntegrityError:
        raise Conflict("This attempt already has a submission: start a new attempt.",
                       code="already_submitted") from None
    transaction.on_commit(lambda: enqueue_verification(submission.pk))
    return submission


def _check_times(attempt: Attempt, times, actions_count: int, submitted_at: datetime) -> None:
    """The times' shape (leaderboard.tempo.check_times), against the server's duration so far."""
    if times is None:
        if attempt.daily_date is not None:
            raise Invalid(_("A game of the day is sent with the time of each action."), code="times_required")
        return
    duration_ms = int((submitted_at - attempt.started_at).total_seconds() * 1000)
    found = tempo.check_times(times, duration_ms, actions_count, settings.TIMES_SLACK_MS)
    if found:
        index, problem = found
        raise Invalid(_(problem.message), detail={"index": index, "problem": problem.code}, code="invalid_times")


_INSERTED = ("attempt_id", "player_id", "deal_number", "daily_date", "actions", "times", "submitted_at", "status",
             "deliveries", "hints", "error", "hidden", "flagged", "practice", "log_hash")
_INSERTED_SQL = ", ".join(f'"{name}"' for name in _INSERTED)


def _submission_insert(submission: Submission) -> None:
    """The new row in one plain INSERT (no transaction around it, no ORM compile)."""
    values = [getattr(submission, name) for name in _INSERTED]
    values[_INSERTED.index("actions")] = Jsonb(submission.actions)
    values[_INSERTED.index("times")] = None if submission.times is None else Jsonb(submission.times)
    [(submission.pk,)] = sql.run(
        f'INSERT INTO "{_SUBMISSIONS}" ({_INSERTED_SQL}) VALUES ({", ".join(["%s"] * len(values))}) '
        f'RETURNING "id"', values)
    submission._state.adding = False


def enqueue_verification(submission_id: int) -> None:
    """Queue the task; a broker that is down only delays it (beat re-queues pending rows)."""
    from .tasks import verify_submission

    try:
        verify_submission.apply_async((submission_id,), retry=False)
    except Exception:  # the row is safe in the database; requeue_stale picks it up
        log.warning("could not queue submission %s; it stays pending", submission_id, exc_info=True)


def submission_verify(submission_id: int) -> Submission | None:
    """Claim (pending -> verifying), replay, store the result. A duplicate delivery, or a
    submission another worker holds, changes nothing and returns None."""
    claim = uuid.uuid4()
    submission = _claim(submission_id, claim)
    if submission is None:
        return None
    result = games.replay(submission.attempt.deal_code, submission.actions)
    with transaction.atomic():
        fields = _result_fields(submission, result)
        if not _result_store(submission_id, claim, fields):
            return None  # re-claimed after we took too long: the other worker finishes it
        for name, value in fields.items():
            setattr(submission, name, value)
        if submission.status == Status.VERIFIED:
            boards_refresh(submission, verified_now=True)
    return submission


_CLAIMED = ("id", "attempt_id", "player_id", "deal_number", "daily_date", "actions", "times", "submitted_at",
            "hints", "hidden", "deliveries", "practice", "log_hash")
_CLAIMED_SQL = ", ".join(f's."{name}"' for name in _CLAIMED)
# The earliest submission of another player with the same log on the same deal (not rejected),
# submitted before this one: this one is its copy. One probe of the (deal_number, log_hash) index.
_ORIGINAL_SQL = (
    f'(SELECT o."id" FROM "{_SUBMISSIONS}" o WHERE o."deal_number" = s."deal_number" '
    f'AND o."log_hash" = s."log_hash" AND s."log_hash" <> \'\' AND o."player_id" <> s."player_id" '
    f'AND o."status" <> \'{Status.REJECTED}\' AND (o."submitted_at", o."id") < (s."submitted_at", s."id") '
    f'ORDER BY o."submitted_at", o."id" LIMIT 1)')


def _claim(submission_id: int, claim: uuid.UUID) -> Submission | None:
    """Pending -> verifying under ``claim``; the submission (what verifying it needs, with the
    original it copies in ``copy_of_id``) and its attempt, or None when it is not pending:
    one UPDATE ... RETURNING."""
    now = timezone.now()
    rows = sql.run(
        f'UPDATE "{_SUBMISSIONS}" s SET "status" = %s, "claim" = %s, "claimed_at" = %s, '
        f'"deliveries" = s."deliveries" + 1 FROM "{_ATTEMPTS}" a '
        f'WHERE s."id" = %s AND s."status" = %s AND a."id" = s."attempt_id" '
        f'RETURNING {_CLAIMED_SQL}, {_ORIGINAL_SQL}, a."deal_code", a."started_at"',
        [Status.VERIFYING, claim, now, submission_id, Status.PENDING])
    if not rows:
        return None
    row = rows[0]
    values = dict(zip(_CLAIMED, row))
    for name in ("actions", "times"):
        if isinstance(values[name], str):  # jsonb as text, as Django's backend loads it
            values[name] = json.loads(values[name])
    values["copy_of_id"], deal_code, started_at = row[len(_CLAIMED):]
    submission = Submission(**values, status=Status.VERIFYING, claim=claim, claimed_at=now)
    submission.attempt = Attempt(pk=values["attempt_id"], player_id=values["player_id"], deal_code=deal_code,
                                 deal_number=values["deal_number"], daily_date=values["daily_date"],
                                 started_at=started_at)
    return submission


def _result_store(submission_id: int, claim: uuid.UUID, fields: dict) -> bool:
    """Store the result, if the claim is still ours."""
    columns = ", ".join(f'"{name}" = %s' for name in fields)
    values = [Jsonb(value) if isinstance(value, (dict, list)) else value for value in fields.values()]
    return sql.run(f'UPDATE "{_SUBMISSIONS}" SET {columns} WHERE "id" = %s AND "status" = %s AND "claim" = %s',
                   [*values, submission_id, Status.VERIFYING, claim]) == 1


def _result_fields(submission: Submission, result: games.ReplayResult) -> dict:
    now = timezone.now()
    if not result.ok:
        return {"status": Status.REJECTED, "verified_at": now, "error_index": result.index,
                "error": result.error}
    duration_ms = int((submission.submitted_at - submission.attempt.started_at).total_seconds() * 1000)
    profile = tempo.profile(submission.times) if submission.times is not None else None
    reasons = tempo.flags(profile, tempo_rules()) if profile else []
    if not plausible(len(submission.actions), duration_ms):
        reasons.append(TOO_FAST)
    return {
        "status": Status.VERIFIED, "verified_at": now,
        "won": result.won, "score": result.score, "moves": result.moves,
        "foundation": result.foundation, "undos": result.undos, "take_backs": result.take_backs,
        "stock_passes": result.stock_passes, "waste_to_column": result.waste_to_column,
        "duration_ms": duration_ms, "clean": result.undos == 0 and submission.hints == 0,
        "rank_key": order.rank_key(result.won, result.moves, result.score, duration_ms,
                                   foundation=result.foundation, hints=submission.hints),
        "tempo": asdict(profile) if profile else None, "flag_reasons": reasons, "flagged": bool(reasons),
        "copy_of_id": submission.copy_of_id,
    }


#: The flag reason of a game played faster than MAX_ACTIONS_PER_SECOND by the server's clock.
TOO_FAST = "too_fast_server_clock"


def plausible(actions: int, duration_ms: int) -> bool:
    """A person cannot play faster than MAX_ACTIONS_PER_SECOND, measured by the server's clock."""
    return actions <= settings.MAX_ACTIONS_PER_SECOND * max(duration_ms, 0) / 1000 + 5


def requeue_stale() -> int:
    """Queue again what a down broker or a dead worker left behind: pending rows older than
    STALE_PENDING_SECONDS, and verifying rows whose claim is older than STALE_VERIFYING_SECONDS."""
    now = timezone.now()
    Submission.objects.filter(
        status=Status.VERIFYING, claimed_at__lt=now - timedelta(seconds=settings.STALE_VERIFYING_SECONDS)
    ).update(status=Status.PENDING, claim=None)
    stale = list(Submission.objects.filter(
        status=Status.PENDING, submitted_at__lt=now - timedelta(seconds=settings.STALE_PENDING_SECONDS)
    ).values_list("pk", flat=True)[:5000])
    for submission_id in stale:
        enqueue_verification(submission_id)
    return len(stale)


def submission_reverify(submission: Submission) -> None:
    """Staff: verify again from scratch (after a fix, or a doubt)."""
    with transaction.atomic():
        Submission.objects.filter(pk=submission.pk).update(
            status=Status.PENDING, claim=None, rank_key=None, won=None, error_index=None, error="",
        )
        submission.refresh_from_db()
        boards_refresh(submission)
        transaction.on_commit(lambda: enqueue_verification(submission.pk))


def submission_set_hidden(submission: Submission, hidden: bool) -> None:
    """Staff: take a result off every board, or put it back."""
    with transaction.atomic():
        Submission.objects.filter(pk=submission.pk).update(hidden=hidden)
        submission.hidden = hidden
        boards_refresh(submission)


def submission_set_flagged(submission: Submission, flagged: bool) -> None:
    """Staff review of an implausible result: clearing the flag puts it on the boards."""
    with transaction.atomic():
        Submission.objects.filter(pk=submission.pk).update(flagged=flagged)
        submission.flagged = flagged
        boards_refresh(submission)


# -- boards -------------------------------------------------------------------------------

def boards_of(submission: Submission) -> list[str]:
    """A daily result ranks on its day's board only: on its deal's board it would tell anyone
    polling every numbered board which deal is today's before the day is final. A deal's board
    holds the attempts played as numbered deals (N codes, and D codes of other days)."""
    if submission.daily_date:
        return [order.daily_board(submission.daily_date)]
    return [order.deal_board(submission.deal_number)]


def boards_refresh(submission: Submission, *, verified_now: bool = False) -> None:
    """Recompute the player's best entry on each board the submission belongs to, and their
    stats (inside the caller's transaction), then mirror the changes into the Redis index after
    commit. ``verified_now``: the submission's result has just been stored and nothing else of
    the player's changed, so each entry can only improve (one conditional upsert) and a game that was not won leaves the stats as they were."""
    player_id = submission.player_id
    # One refresh per player at a time: concurrent verifications must not race on entries.
    sql.run(f'SELECT 1 FROM "{_USERS}" WHERE "id" = %s FOR UPDATE', [player_id])
    boards = boards_of(submission)
    if verified_now:
        boards = _entries_improve(submission.pk, boards)
    else:
        for board in boards:
            _entry_recompute(board, submission)
    stats = bool(submission.daily_date) and (not verified_now or (submission.won and submission.on_boards))
    if stats:
        stats_refresh(player_id)
    if boards or stats:
        transaction.on_commit(lambda: boards_mirror(boards, player_id, players=stats))


def _entry_recompute(board: str, submission: Submission) -> None:
    """The player's entry on ``board``: their best verified result there that is on the boards."""
    scope = {"daily_date": submission.daily_date} if order.is_daily(board) else {
        "deal_number": submission.deal_number, "daily_date__isnull": True}  # daily results: boards_of
    best = (
        Submission.objects.filter(player_id=submission.player_id, status=Status.VERIFIED, hidden=False,
                                  flagged=False, practice=False, copy_of__isnull=True, **scope)
        .order_by("rank_key", "submitted_at", "pk").values_list("pk", "rank_key", "submitted_at").first()
    )
    if best is None:
        BoardEntry.objects.filter(board=board, player_id=submission.player_id).delete()
        return
    BoardEntry.objects.bulk_create(
        [BoardEntry(board=board, player_id=submission.player_id, submission_id=best[0], rank_key=best[1],
                    submitted_at=best[2])],
        update_conflicts=True, unique_fields=["board", "player"],
        update_fields=["submission", "rank_key", "submitted_at"],
    )


def _entries_improve(submission_id: int, boards: list[str]) -> list[str]:
    """A newly verified submission: on each board, make it the player's entry
    when it is on the boards (not hidden, flagged, practice or a copy) and ranks better than their entry (or they have none), in one
    statement. The boards whose entry changed."""
    return [board for board, in sql.run(
        f'INSERT INTO "{_ENTRIES}" AS e ("board", "player_id", "submission_id", "rank_key", "submitted_at") '
        f'SELECT b.board, s."player_id", s."id", s."rank_key", s."submitted_at" '
        f'FROM "{_SUBMISSIONS}" s, unnest(%s::varchar[]) AS b(board) '
        f'WHERE s."id" = %s AND s."status" = %s AND NOT s."hidden" AND NOT s."flagged" '
        f'AND NOT s."practice" AND s."copy_of_id" IS NULL '
        f'ON CONFLICT ("board", "player_id") DO UPDATE SET "submission_id" = EXCLUDED."submission_id", '
        f'"rank_key" = EXCLUDED."rank_key", "submitted_at" = EXCLUDED."submitted_at" '
        f'WHERE (EXCLUDED."rank_key", EXCLUDED."submitted_at", EXCLUDED."submission_id") '
        f'< (e."rank_key", e."submitted_at", e."submission_id") '
        f'RETURNING e."board"', [boards, submission_id, Status.VERIFIED])]


def boards_mirror(boards: list[str], player_id: int, *, players: bool = False) -> None:
    """Copy a player's committed entries on ``boards`` into the Redis index (re-read, so that
    callbacks running out of order still leave the latest record), then mark the boards
    changed (and the players' board when ``players``). When the index update fails, those
    boards' indexes are dropped: the next read rebuilds them from PostgreSQL instead of
    serving a stale rank."""
    changed: dict[str, int | None] = dict.fromkeys(boards)
    ranks = index.board_index()
    if boards:
        try:
            entries = dict.fromkeys(boards)
            for board, key, submitted_at, submission_id, row in _entries_of(player_id, boards):
                entries[board] = (key, order.member(submitted_at, submission_id), row)
            changed = ranks.set_entries(player_id, entries)
        except Exception:  # PostgreSQL or Redis away after the commit
            log.warning("ranking index not updated for %s; dropping it", boards, exc_info=True)
            changed = dict.fromkeys(boards)
            for board in boards:
                try:
                    ranks.drop(board)
                except Exception:  # Redis away: reconcile_boards rebuilds the index from PostgreSQL
                    log.warning("ranking index of %s not dropped", board, exc_info=True)
    if players:
        changed["players"] = None
    cache.boards_changed(changed)


def player_rows_refresh(player_id: int) -> None:
    """Rewrite the player's rows in the index of every board they are on, after commit (their
    name is in each row)."""
    boards = list(BoardEntry.objects.filter(player_id=player_id).values_list("board", flat=True))
    if boards:
        transaction.on_commit(lambda: boards_mirror(boards, player_id))


def _entries_of(player_id: int, boards: list[str]):
    """``(board, rank_key, submitted_at, submission_id, row)`` of the player's entries on
    ``boards``, the row as ``board_rows`` renders it."""
    found = sql.run(f'SELECT e."board", e."rank_key", e."submitted_at", {board_rows.SQL_COLUMNS} '
                    f'FROM "{_ENTRIES}" e INNER JOIN {board_rows.SQL_JOIN} ON s."id" = e."submission_id" '
                    f'WHERE e."player_id" = %s AND e."board" = ANY(%s)', [player_id, boards])
    return [(board, key, at, values[0], board_rows.render(values)) for board, key, at, *values in found]


def stats_refresh(player_id: int) -> PlayerStats:
    """Daily wins and streaks, recomputed from the player's verified daily wins (the caller
    marks the players' board changed after commit)."""
    won_days = [day for day, in sql.run(
        f'SELECT DISTINCT "daily_date" FROM "{_SUBMISSIONS}" WHERE "player_id" = %s AND "status" = %s '
        f'AND "won" AND NOT "hidden" AND NOT "flagged" AND NOT "practice" AND "copy_of_id" IS NULL '
        f'AND "daily_date" IS NOT NULL ORDER BY 1',
        [player_id, Status.VERIFIED])]
    best = run = 0
    previous = None
    for day in won_days:
        run = run + 1 if previous and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    stats = PlayerStats(player_id=player_id, daily_wins=len(won_days), best_streak=best,
                        last_streak=run if won_days else 0, last_win_date=previous)
    sql.run(f'INSERT INTO "{_STATS}" ("player_id", "daily_wins", "best_streak", "last_streak", "last_win_date") '
            f'VALUES (%s, %s, %s, %s, %s) ON CONFLICT ("player_id") DO UPDATE SET '
            f'"daily_wins" = EXCLUDED."daily_wins", "best_streak" = EXCLUDED."best_streak", '
            f'"last_streak" = EXCLUDED."last_streak", "last_win_date" = EXCLUDED."last_win_date"',
            [player_id, stats.daily_wins, stats.best_streak, stats.last_streak, stats.last_win_date])
    return stats


def board_rebuild(board: str) -> int:
    """Reload a board's Redis index from PostgreSQL (after Redis lost it)."""
    ranks = index.board_index()
    ranks.drop(board)
    found = (BoardEntry.objects.filter(board=board)
             .values_list("player_id", "rank_key", "submitted_at", *board_rows.ENTRY_FIELDS).iterator(chunk_size=5000))
    count = ranks.rebuild(board, ((player, key, at, values[0], board_rows.render(values))
                                  for player, key, at, *values in found))
    cache.board_changed(board)
    return count


def board_rebuild_queue(board: str) -> None:
    """Queue ``board_rebuild`` for a board whose index a reader claimed (``claim_rebuild``);
    the task releases the claim. If the broker is away, the claim is released at once so the
    next reader tries again."""
    from .tasks import rebuild_board

    try:
        rebuild_board.apply_async((board,), retry=False)
    except Exception:
        log.warning("could not queue the rebuild of %s", board, exc_info=True)
        index.board_index().release_rebuild(board)


def boards_reconcile(recent=None) -> list[str]:
    """Rebuild the index of recent daily boards (``recent`` days; today's and yesterday's by
    default) whose size differs from the record."""
    ranks = index.board_index()
    today = days.today()
    rebuilt = []
    for day in recent or (today, today - timedelta(days=1)):
        board = order.daily_board(day)
        if ranks.size(board) != BoardEntry.objects.filter(board=board).count():
            board_rebuild(board)
            rebuilt.append(board)
    return rebuilt
