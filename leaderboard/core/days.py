"""The day: the one "today" every module uses, and a day's close, grace and final. (The deal
of the day itself is ``daily``.)

A day is a UTC date. Its deal takes ranked games until its close (the next midnight UTC) plus
DAILY_GRACE_SECONDS; after that the day is final: its deal, solution and every log are public.
"""

from datetime import UTC, date, datetime, timedelta

from django.conf import settings
from django.utils import timezone


def today() -> date:
    """Today, the UTC date by the server's clock: the only "today" of the service."""
    return day_of(timezone.now())


def day_of(moment: datetime) -> date:
    """The UTC date of an aware ``moment``."""
    return moment.astimezone(UTC).date()


def as_utc_datetime(day: date) -> datetime:
    """Midnight UTC at the start of ``day``."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def day_closed(day: date) -> bool:
    """``day`` is over (its midnight UTC has passed), grace or not."""
    return day < today()


def day_close(day: date) -> datetime:
    """When ``day`` closes: the next midnight UTC."""
    return as_utc_datetime(day + timedelta(days=1))


def day_accepts_until(day: date) -> datetime:
    """The last moment a submission to ``day``'s deal is taken: its close plus the grace."""
    return day_close(day) + timedelta(seconds=settings.DAILY_GRACE_SECONDS)


def day_final(day: date, now: datetime | None = None) -> bool:
    """The day's close plus the grace for late submissions has passed (by the server's clock,
    or at ``now``: a clock the caller moves, as a simulation of many days does): its deal's
    solution and every player's log of it may be shown."""
    return (now or timezone.now()) >= day_accepts_until(day)


def day_times(day: date) -> dict[str, datetime]:
    """``closes_at`` and ``accepts_until`` of ``day``, as the API names them."""
    return {"closes_at": day_close(day), "accepts_until": day_accepts_until(day)}


# -- the deal of the day: stored ahead, then read ---------------------------------------------


def month_range(moment: datetime) -> tuple[datetime, datetime]:
    """The UTC month of ``moment``, from its first midnight up to the next month's: the bounds of
    its partition (docs/partitions.md), so a statement that names them is planned against one."""
    first = day_of(moment).replace(day=1)
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return as_utc_datetime(first), as_utc_datetime(following)
