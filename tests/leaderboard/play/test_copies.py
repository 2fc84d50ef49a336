"""Copies by what was played (issue 26, item 2), with a real Celery worker: a log with an alias
rewritten and its undone detours taken out is its original's exact copy; a near-copy (moves
swapped, a detour left in) ranks after its original and is flagged for review, its original
named; a modelled person's game on the same deal is neither. Then the index itself: candidates
from Redis, and a clean day of 1,000 modelled games on one deal with no false alarm."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from leaderboard_fixtures.people import person_line
from leaderboard_fixtures.service import (  # noqa: F401
    _fresh_redis,
    _tempo_rules_off,
    client_for,
    make_player,
    today_deal,
    won_game,
    won_games,
)
from rest_framework.test import APIClient

from games import canonical, format_code, parse_code, replay
from leaderboard.models import Attempt, Submission
from leaderboard.play import copies
from leaderboard.play.services import intake, verification

from .test_day_and_attempts import played_for, start
from .test_exploits_attempts import verified

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.move_rules]


def with_detours(actions: list[str], code: str) -> list[str]:
    """The same game with every one-card move written ``N>M:1`` and a draw taken back before each
    tenth action: its canonical line is the original's."""
    out = []
    for i, text in enumerate(actions):
        if i % 10 == 0 and i:
            out += ["s", "u"]
        out.append(f"{text}:1" if text[0].isdigit() and text[-1] != "f" and ":" not in text else text)
    assert replay(code, out).ok and canonical.canonical_line(out) == canonical.canonical_line(actions)
    return out


def near_copy(actions: list[str], code: str) -> list[str]:
    """The same game with three neighbouring pairs of actions swapped, far apart, where the
    result stays the same: another line, very close to the original."""
    line, swapped_at = list(actions), []
    outcome = replay(code, actions)
    for i in range(len(line) // 4, len(line) - 1):
        if len(swapped_at) == 3:
            break
        if line[i] == line[i + 1] or (swapped_at and i < swapped_at[-1] + 40):
            continue
        swapped = [*line[:i], line[i + 1], line[i], *line[i + 2 :]]
        again = replay(code, swapped)
        if again.ok and again.won == outcome.won:
            line = swapped
            swapped_at.append(i)
    assert len(swapped_at) == 3
    return line


def send(client, code: str, actions: list[str]):
    """Start ``code`` and submit ``actions`` played at a person's pace; the answer to the post."""
    attempt = start(client, code)
    return client.post(
        f"/api/attempts/{attempt['id']}/submission", played_for(attempt["id"], code, actions), format="json"
    )


def test_an_alias_and_undone_detours_make_an_exact_copy_and_a_near_copy_ranks_after_and_is_flagged(
    worker, make_player, client_for, won_game
):
    code = won_game["deal"]  # a numbered deal: no engine match
    number = parse_code(code).number
    alice, bob, carol, dan = (client_for(make_player(name)) for name in ("alice", "bob", "carol", "dan"))
    original = verified(alice, send(alice, code, won_game["actions"]))
    assert original["status"] == "verified" and not original["flagged"]

    exact = verified(bob, send(bob, code, with_detours(won_game["actions"], code)))
    assert (exact["copy_of"], exact["flagged"]) == (original["id"], False)

    close = near_copy(won_game["actions"], code)
    near = verified(carol, send(carol, code, close))
    row = Submission.objects.get(pk=near["id"])
    assert (row.flagged, row.flag_reasons, row.near_copy_of_id, row.copy_of_id) == (
        True,
        ["near_copy"],
        original["id"],
        None,
    )
    assert row.signals["near_copy"]["of"] == original["id"] and row.signals["near_copy"]["jaccard"] >= 0.8
    assert row.rank_key >= Submission.objects.get(pk=original["id"]).rank_key  # never above its original

    # A person's own game of the deal is neither.
    own = person_line(number, seed=7)
    persons = verified(dan, send(dan, code, own))
    row = Submission.objects.get(pk=persons["id"])
    assert (row.flagged, row.copy_of_id, row.near_copy_of_id) == (False, None, None)

    board = APIClient().get(f"/api/leaderboards/deals/{number}/").json()["results"]
    assert [r["player"] for r in board] == ["alice", "dan"]


def direct(player, number: int, actions: list[str], minutes: float = 30) -> Submission:
    """A numbered result stored as intake stores it and verified by the service (no worker)."""
    attempt = Attempt.objects.create(
        player=player,
        deal_code=format_code(number),
        deal_number=number,
        started_at=timezone.now() - timedelta(minutes=minutes),
    )
    submission = intake.submission_create(attempt=attempt, player=player, actions=actions)
    return verification.submission_verify(submission.pk)


@pytest.mark.slow
def test_a_clean_day_of_1000_modelled_games_on_one_deal_has_no_false_alarm(make_player, won_game):
    """Verification called directly (a worker for 1,000 is too slow for the suite): 1,000 modelled
    people's games of one deal, each compared through the index with every earlier one it finds;
    none is a near-copy. Their closest pair is far under the threshold."""
    number = parse_code(won_game["deal"]).number
    lines = [person_line(number, seed) for seed in range(1000)]
    players = [make_player(f"p{i}") for i in range(len(lines))]
    flagged = [direct(player, number, line) for player, line in zip(players, lines)]
    # Sent without times, each is held as ``no_times`` (the numbered deals' tempo rule): the
    # rules here are the moves', and none of them fires.
    assert {reason for s in flagged for reason in s.flag_reasons} == {"no_times"}
    assert [s.pk for s in flagged if s.near_copy_of_id] == []
    assert Submission.objects.filter(copy_of__isnull=False).count() == 0  # and no two the same game
    sample = random.Random(1).sample(range(len(lines)), 60)
    shingles = [copies.line_shingles(canonical.canonical_line(lines[i])) for i in sample]
    closest = max(canonical.jaccard(a, b) for i, a in enumerate(shingles) for b in shingles[:i])
    assert closest < 0.8


def test_the_index_finds_a_near_copy_and_leaves_the_comparison_to_the_lines():
    line = canonical.canonical_line(person_line(1, seed=1))
    other = canonical.canonical_line(person_line(1, seed=2))
    assert copies.candidates_claim(1, 10, copies.line_shingles(line)) == set()
    assert copies.candidates_claim(1, 11, copies.line_shingles([*line[:100], "s", *line[100:]])) == {10}
    # Another person's game may share a band (a common opening): a candidate, which the exact
    # comparison then clears.
    assert copies.candidates_claim(1, 12, copies.line_shingles(other)) <= {10, 11}
    assert canonical.jaccard(copies.line_shingles(line), copies.line_shingles(other)) < 0.8
    assert copies.candidates_claim(2, 13, copies.line_shingles(line)) == set()  # another deal


@pytest.mark.parametrize("size", [0, 1, 7, 300])
def test_the_signature_is_datasketchs_minhash_bit_for_bit(size):
    """Our numpy signature is datasketch's MinHash (its default scheme, our seed), so the index
    keeps its measured chances; datasketch stays in the test requirements as the oracle."""
    from datasketch import MinHash

    shingles = {" ".join(random.Random(size).choices(["s", "1>2", "3>4:2", "u"], k=8)) + f" {i}" for i in range(size)}
    oracle = MinHash(num_perm=copies.PERMUTATIONS, seed=copies._SEED)
    oracle.update_batch([shingle.encode() for shingle in shingles])
    assert copies.signature(shingles) == oracle.hashvalues.astype("<u4").tobytes()
    assert len(copies.signature(shingles)) == copies.SIGNATURE_BYTES


def test_importing_the_near_copy_index_leaves_scipy_out_of_the_worker():
    """The worker imports this module in every process; scipy (pulled in by datasketch) would add
    about 60 MB to each."""
    import subprocess
    import sys

    code = "import sys, django; django.setup(); import leaderboard.play.copies; print('scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
