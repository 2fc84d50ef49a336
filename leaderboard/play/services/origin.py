"""Who is behind an attempt (docs/fair-play.md, "Who is behind an attempt"): keyed hashes of the
client's address block and of a long-lived device cookie, kept per attempt for
ORIGIN_KEEP_DAYS; a ranked try linked to another account's ranked try of the same day begun
shortly before from the same device or address and not won; the hashes forgotten after.

The hashes are HMAC-SHA-256 under ORIGIN_HASH_SECRET, cut to 128 bits: equal inputs, equal
hashes, and neither an address nor a cookie can be read back from one without the secret."""

import hashlib
import hmac
import ipaddress
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils.translation import gettext_noop

from ...core import sql
from ...record.models import Attempt, Submission

#: The device cookie: a random token the server sets (HttpOnly) when an attempt starts.
DEVICE_COOKIE = "eh_device"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22,64}")

#: The flag reasons of a linked ranked try, by what the two tries shared.
LINKED = {"device": "linked_device", "address": "linked_address"}
REASONS = {
    "linked_device": gettext_noop(
        "Another account's ranked try of this day began shortly before in the same browser, and was not won."
    ),
    "linked_address": gettext_noop(
        "Another account's ranked try of this day began shortly before from the same address, and was not won."
    ),
}

_ATTEMPTS, _SUBMISSIONS = Attempt._meta.db_table, Submission._meta.db_table


@dataclass(frozen=True)
class Origin:
    """Who is behind a request, as hashes (None: not known, or not evidence)."""

    address_hash: str | None = None
    device_hash: str | None = None


def device_token(cookie: str | None) -> str:
    """The request's device token, or a new one when it has none (or one the server never made)."""
    if cookie and _TOKEN.fullmatch(cookie):
        return cookie
    return secrets.token_urlsafe(24)


def _keyed(kind: str, value: str) -> str:
    key = settings.ORIGIN_HASH_SECRET.encode()
    return hmac.new(key, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()[:32]


def origin_of(address_block: str | None, device: str | None) -> Origin:
    """The hashes of a client's address block (an IPv4 address, an IPv6 /64: the throttles'
    ``address_block``) and device token. An address that is not global (loopback, a private
    network: a proxy's or a LAN's, shared by everyone behind it) is no evidence: no hash."""
    address_hash = None
    if address_block:
        try:
            network = ipaddress.ip_network(address_block, strict=False)
        except ValueError:
            network = None
        if network is not None and network.network_address.is_global:
            address_hash = _keyed("address", str(network))
    return Origin(address_hash=address_hash, device_hash=_keyed("device", device) if device else None)


def linked_try(*, player_id: int, day, origin: Origin, now: datetime) -> tuple[int | None, str]:
    """Another account whose ranked try of ``day`` began from the same device within
    ORIGIN_DEVICE_WINDOW_SECONDS, or the same address within ORIGIN_ADDRESS_WINDOW_SECONDS,
    before ``now``, and has no won result: (its player, "device", "address" or
    "device,address"), or (None, "") when there is none. Its latest such try."""
    if origin.device_hash is None and origin.address_hash is None:
        return None, ""
    device_since = now - timedelta(seconds=settings.ORIGIN_DEVICE_WINDOW_SECONDS)
    address_since = now - timedelta(seconds=settings.ORIGIN_ADDRESS_WINDOW_SECONDS)
    rows = sql.run(
        f'SELECT a."player_id", a."device_hash" = %s AND a."started_at" >= %s, '
        f'a."address_hash" = %s AND a."started_at" >= %s FROM "{_ATTEMPTS}" a '
        f'WHERE a."daily_date" = %s AND a."ranked" AND a."player_id" <> %s '
        f'AND a."started_at" >= %s AND a."started_at" <= %s '
        f'AND ((a."device_hash" = %s AND a."started_at" >= %s) OR (a."address_hash" = %s AND a."started_at" >= %s)) '
        f'AND NOT EXISTS (SELECT 1 FROM "{_SUBMISSIONS}" s WHERE s."attempt_id" = a."id" '
        f'AND s."attempt_started_at" = a."started_at" AND s."won") '
        f'ORDER BY a."started_at" DESC LIMIT 1',
        [
            origin.device_hash,
            device_since,
            origin.address_hash,
            address_since,
            day,
            player_id,
            min(device_since, address_since),
            now,
            origin.device_hash,
            device_since,
            origin.address_hash,
            address_since,
        ],
    )
    if not rows:
        return None, ""
    other, by_device, by_address = rows[0]
    return other, ",".join(kind for kind, shared in (("device", by_device), ("address", by_address)) if shared)


def linked_reasons(linked_by: str) -> list[str]:
    """The flag reasons of an attempt's link (``Attempt.linked_by``)."""
    return [LINKED[kind] for kind in linked_by.split(",") if kind in LINKED]


def origins_forget(now: datetime) -> int:
    """Clear the hashes of attempts started more than ORIGIN_KEEP_DAYS ago (beat, daily): the
    review they serve is over. Looks back a week more, so that missed runs are caught up
    without scanning every month. The links found (``linked_player``) stay with their results."""
    cutoff = now - timedelta(days=settings.ORIGIN_KEEP_DAYS)
    return sql.run(
        f'UPDATE "{_ATTEMPTS}" SET "address_hash" = NULL, "device_hash" = NULL '
        f'WHERE "started_at" >= %s AND "started_at" < %s '
        f'AND ("address_hash" IS NOT NULL OR "device_hash" IS NOT NULL)',
        [cutoff - timedelta(days=7), cutoff],
    )
