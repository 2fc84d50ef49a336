"""Fixtures of the groups' tests: the service suite's (players, clients, verified play) and
groups made through the service."""

from datetime import UTC

import pytest

from leaderboard.groups import services

# The service suite's fixtures.
from leaderboard_fixtures.service import (  # noqa: F401  (fixtures, re-exported for this directory)
    PASSWORD,
    _fresh_redis,
    _tempo_rules_off,
    client_for,
    make_player,
    play,
    today_deal,
    verify_queued,
    won_game,
    won_games,
)


@pytest.fixture
def make_group(make_player):
    """``make_group(owner, *members, name=...)``: a group owned by ``owner`` (a player or a
    name) that the ``members`` joined by its invite code."""

    def make(owner, *members, name: str = "Harpists"):
        owner = make_player(owner) if isinstance(owner, str) else owner
        group = services.group_create(owner=owner, name=name)
        for member in members:
            member = make_player(member) if isinstance(member, str) else member
            services.group_join(player=member, code=group.invite_code)
        return group

    return make


def board_entry(
    player, day, *, won: bool = True, moves: int = 100, score: int = 1000, seconds: int = 600, at=None, hints: int = 0
):
    """A ranked daily result of ``player`` on ``day`` written straight into the record (an
    attempt, its verified submission and the board entry), as verification leaves them: for
    reads that rank from PostgreSQL (standings), over days that can no longer be played."""
    from datetime import datetime, time, timedelta, timezone

    from leaderboard.boards import order
    from leaderboard.models import Attempt, BoardEntry, Submission

    started = datetime.combine(day, time(8), tzinfo=UTC)
    at = at or started + timedelta(seconds=seconds)
    key = order.rank_key(won, moves, score, seconds * 1000, foundation=104 if won else 50, hints=hints)
    attempt = Attempt.objects.create(
        player=player,
        deal_code="EH1-D-AAAAAAF",
        deal_number=1,
        daily_date=day,
        started_at=started,
        ranked=True,
        hints=hints,
    )
    submission = Submission.objects.create(
        attempt=attempt,
        player=player,
        deal_number=1,
        daily_date=day,
        actions=["s"],
        submitted_at=at,
        status=Submission.Status.VERIFIED,
        won=won,
        moves=moves,
        score=score,
        duration_ms=seconds * 1000,
        hints=hints,
        clean=not hints,
        rank_key=key,
    )
    return BoardEntry.objects.create(
        board=order.daily_board(day), player=player, submission=submission, rank_key=key, submitted_at=at
    )
