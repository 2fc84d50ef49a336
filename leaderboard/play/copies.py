"""Near-copies: a canonical line very close to an earlier one of another player on the same deal.

The similarity is the Jaccard index of two lines' shingles (``games.canonical.shingles``: runs of
``SHINGLE`` actions in a row, the runs of stock taps alone left out, since every game has them).
A line whose similarity with an earlier line of another player reaches ``NEAR_COPY_JACCARD`` is a
near-copy of it (docs/fair-play.md says why these numbers).

Candidates come from an index, never from a scan: each line's MinHash signature (datasketch's
"affine32" scheme, computed here with numpy alone; ``PERMUTATIONS`` hash functions) is cut into
``BANDS`` bands of ``ROWS`` values; two lines whose signatures agree on a whole band are
candidates (locality-sensitive hashing: the chance is ``1 - (1 - J**ROWS)**BANDS`` for a Jaccard
index J). The index is in Redis, one small hash per (deal, band, bucket): field a band's hash,
value the first submission that had it. One script reads each band's holder and claims the free
bands for the new line, in one round trip; the candidates' logs are then read from PostgreSQL
and compared exactly. The keys expire after ``NEAR_COPY_INDEX_SECONDS``.
"""

import hashlib
import logging
from collections.abc import Sequence

import numpy as np
import redis
from django.conf import settings
from django_redis import get_redis_connection

from games import canonical

from ..record.models import Submission

log = logging.getLogger(__name__)

#: The flag reason of a near-copy (its original is in ``near_copy_of_id``).
NEAR_COPY = "near_copy"

#: Runs of this many actions in a row are a line's shingles.
SHINGLE = 8
PERMUTATIONS, BANDS, ROWS = 128, 16, 8
#: Buckets per (deal, band): 2**14 keeps a day's million lines at about 60 fields a hash, so that
#: each stays a listpack (Redis's compact encoding, up to 128 fields by default).
BUCKET_BITS = 14
_SEED = 26
_VALUE_BYTES = 4
SIGNATURE_BYTES = PERMUTATIONS * _VALUE_BYTES
_ONLY_STOCK = " ".join(["s"] * SHINGLE)

# datasketch 2's MinHash(num_perm=PERMUTATIONS, seed=_SEED), bit for bit (tests/leaderboard/play
# compares the two): importing datasketch pulls in scipy, 62 MB of every worker's memory (86 MB
# against numpy's 24 MB, ru_maxrss of a bare interpreter), for three lines of arithmetic.
_uint32 = np.uint32
_generator = np.random.RandomState(_SEED)
_A = _generator.randint(0, 1 << 31, PERMUTATIONS, dtype=_uint32) * _uint32(2) + _uint32(1)
_B = _generator.randint(0, 1 << 32, PERMUTATIONS, dtype=_uint32)
del _generator

# KEYS: a band's hash key each; ARGV: the band's field each, then the submission id, the TTL.
_CLAIM = """
local id, ttl = ARGV[#ARGV - 1], ARGV[#ARGV]
local found = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('HGET', key, ARGV[i])
  if holder then
    found[#found + 1] = holder
  else
    redis.call('HSET', key, ARGV[i], id)
    redis.call('EXPIRE', key, ttl, 'NX')
  end
end
return found
"""


def line_shingles(line: Sequence[str]) -> set[str]:
    """The shingles that the similarity compares (runs of stock taps alone left out)."""
    return canonical.shingles(line, SHINGLE) - {_ONLY_STOCK}


def _fmix32(values: np.ndarray) -> np.ndarray:
    """MurmurHash3's 32-bit finalizer, a bijection that spreads the input hashes (wrapping
    multiplication is the intended arithmetic modulo 2**32)."""
    values = values ^ (values >> _uint32(16))
    values = values * _uint32(0x85EBCA6B)
    values = values ^ (values >> _uint32(13))
    values = values * _uint32(0xC2B2AE35)
    return values ^ (values >> _uint32(16))


def signature(shingles: set[str]) -> bytes:
    """The MinHash signature of a set of shingles: PERMUTATIONS 32-bit values, little-endian
    bytes (SIGNATURE_BYTES). Each shingle's hash is the first 4 bytes of its SHA-1, little-endian,
    mixed once; each value is the least of ``a * h + b`` modulo 2**32 over the shingles (all ones
    for no shingles)."""
    if not shingles:
        return np.full(PERMUTATIONS, 0xFFFFFFFF, dtype="<u4").tobytes()
    hashes = np.frombuffer(
        b"".join(hashlib.sha1(shingle.encode()).digest()[:4] for shingle in shingles), dtype="<u4"
    ).astype(_uint32)
    permuted = _fmix32(hashes).reshape(-1, 1) * _A + _B
    return permuted.min(axis=0).astype("<u4").tobytes()


def band_slots(deal_number: int, signature_bytes: bytes) -> list[tuple[str, bytes]]:
    """Each band's (Redis key, field): a hash of its ROWS values, the first BUCKET_BITS of which
    pick the bucket."""
    width = ROWS * _VALUE_BYTES
    slots = []
    for band in range(BANDS):
        digest = hashlib.blake2b(signature_bytes[band * width : (band + 1) * width], digest_size=8).digest()
        bucket = int.from_bytes(digest[:2], "big") >> (16 - BUCKET_BITS)
        slots.append((f"nearcopy:{deal_number}:{band}:{bucket}", digest[2:]))
    return slots


def candidates_claim(deal_number: int, submission_id: int, shingles: set[str], client=None) -> set[int]:
    """The submissions that hold one of this line's bands (claiming the free ones for it); an
    empty set when Redis cannot be reached (the copy check then misses near-copies, never stops)."""
    slots = band_slots(deal_number, signature(shingles))
    try:
        client = client or get_redis_connection("default")
        found = client.eval(
            _CLAIM,
            len(slots),
            *[key for key, _field in slots],
            *[field for _key, field in slots],
            submission_id,
            settings.NEAR_COPY_INDEX_SECONDS,
        )
    except (redis.ConnectionError, redis.TimeoutError):
        log.warning("near-copy index unreachable; submission %s not compared", submission_id)
        return set()
    return {int(holder) for holder in found} - {submission_id}


def near_copy_of(submission: Submission, line: list[str]) -> tuple[Submission, float] | None:
    """The earliest earlier submission of another player on the deal (not rejected) whose
    canonical line is a near-copy's original for ``line``, with the similarity; None if none.
    A line too short to judge (under NEAR_COPY_MIN_ACTIONS) is neither indexed nor compared."""
    if len(line) < settings.NEAR_COPY_MIN_ACTIONS:
        return None
    shingles = line_shingles(line)
    ids = candidates_claim(submission.deal_number, submission.pk, shingles)
    if not ids:
        return None
    earlier = (
        Submission.objects.filter(
            pk__in=ids, deal_number=submission.deal_number, submitted_at__lte=submission.submitted_at
        )
        .exclude(player_id=submission.player_id)
        .exclude(status=Submission.Status.REJECTED)
        .order_by("submitted_at", "id")
        .only("id", "actions", "rank_key", "submitted_at", "player_id")
    )
    for original in earlier:
        if (original.submitted_at, original.pk) >= (submission.submitted_at, submission.pk) or original.archived:
            continue
        similarity = canonical.jaccard(shingles, line_shingles(canonical.canonical_line(original.actions)))
        if similarity >= settings.NEAR_COPY_JACCARD:
            return original, round(similarity, 3)
    return None
