"""The fair-play signals of a verified result that read its moves, not only its clock: the
near-copy check (``copies``), the engine match (``engine_match``) and whether its think times
follow the game (``tempo.difficulty_follow``). The verifier stores what they measured in
``Submission.signals`` and adds the codes of the rules that fire to ``flag_reasons``."""

from dataclasses import dataclass, field

from django.conf import settings

from games import canonical

from ..record.models import Submission
from . import copies, engine_match, tempo


@dataclass
class Review:
    """What the signals found: the rules that fire, the measures for staff, the near-copy's
    original (None: none) and the best rank key the result may have (None: its own)."""

    reasons: list[str] = field(default_factory=list)
    signals: dict = field(default_factory=dict)
    near_copy_of_id: int | None = None
    rank_key_floor: int | None = None


def review(submission: Submission, won: bool, moves: int) -> Review:
    """The signals of ``submission`` (verified, with ``won`` and ``moves``)."""
    found = Review()
    line = canonical.canonical_line(submission.actions)
    if submission.copy_of_id is None:
        near = copies.near_copy_of(submission, line)
        if near is not None:
            original, similarity = near
            found.near_copy_of_id, found.rank_key_floor = original.pk, original.rank_key
            found.signals["near_copy"] = {"of": original.pk, "jaccard": similarity}
            found.reasons.append(copies.NEAR_COPY)
    engine, engine_reasons = engine_match.engine_signals(submission, line, moves, won)
    found.signals.update(engine)
    found.reasons += engine_reasons
    if submission.times is not None:
        follow = tempo.difficulty_follow(submission.times, submission.actions)
        found.signals["difficulty_follow"] = follow
        if (
            follow is not None
            and len(submission.actions) >= settings.TEMPO_MIN_ACTIONS
            and follow < settings.TEMPO_MIN_DIFFICULTY_FOLLOW
        ):
            found.reasons.append(tempo.PACE_IGNORES_MOVES)
    return found
