"""submission_reads.attempt_for reads the attempt with one plain statement on PostgreSQL: the same
attempt, field for field, as the ORM reads it; unknown is 404, another player's is 403."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/service/)

from games import format_code
from leaderboard.core import days
from leaderboard.core.errors import Forbidden, NotFound
from leaderboard.models import Attempt
from leaderboard.play.selectors import submissions as submission_reads
from leaderboard.play.services import attempts

pytestmark = pytest.mark.django_db


def test_the_attempt_read_is_the_orms_field_for_field(make_player, today_deal):
    alice = make_player("alice")
    for code in ("EH1-N-AAAAAAF", format_code(today_deal.number, "D")):  # a numbered deal, the daily one
        started = attempts.attempt_start(player=alice, deal_code=code)
        read = submission_reads.attempt_for(alice, started.pk)
        stored = Attempt.objects.get(pk=started.pk)
        for field in Attempt._meta.concrete_fields:
            assert getattr(read, field.attname) == getattr(stored, field.attname), field.name
        assert read.started_at.tzinfo is not None and not read._state.adding


def test_an_unknown_attempt_is_not_found_and_anothers_is_forbidden(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    started = attempts.attempt_start(player=alice, deal_code="EH1-N-AAAAAAF")
    with pytest.raises(NotFound):
        submission_reads.attempt_for(alice, uuid.uuid4())
    with pytest.raises(Forbidden):
        submission_reads.attempt_for(bob, started.pk)


def test_an_attempt_of_an_earlier_month_is_read_too(make_player):
    # This month's partition is asked first, then every partition.
    alice = make_player("alice")
    started = attempts.attempt_start(player=alice, deal_code="EH1-N-AAAAAAF")
    Attempt.objects.filter(pk=started.pk).update(started_at=started.started_at - timedelta(days=70))
    assert submission_reads.attempt_for(alice, started.pk).started_at == started.started_at - timedelta(days=70)


def test_a_month_range_is_its_partitions_bounds():
    assert days.month_range(datetime(2026, 12, 31, 23, 59, tzinfo=UTC)) == (
        datetime(2026, 12, 1, tzinfo=UTC),
        datetime(2027, 1, 1, tzinfo=UTC),
    )
    assert days.month_range(datetime(2027, 2, 1, tzinfo=UTC)) == (
        datetime(2027, 2, 1, tzinfo=UTC),
        datetime(2027, 3, 1, tzinfo=UTC),
    )
