"""What staff read in the moderation queue of the signals that judge the moves (leaderboard.play
.signals): each flag reason's sentence, each measure's label and meaning, and their values
written out. English, translated by the admin (gettext_lazy, gettext_noop)."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from . import copies, engine_match, tempo

#: The reasons of the rules that read the moves.
REASONS = {
    copies.NEAR_COPY: gettext_noop(
        "Its canonical line is very close to an earlier one of another player on this deal (a near-copy)."
    ),
    engine_match.SOLVER_LINE: gettext_noop("It plays most of the server's own solver line."),
    engine_match.FAR_FEWER_MOVES: gettext_noop("Far fewer moves than people need: near the solver's count."),
    engine_match.NEAR_SOLVER_OFTEN: gettext_noop("The player's wins sit near the solver's count day after day."),
    **tempo.DIFFICULTY_RULES,
}

#: ``Submission.signals``' measures in the order staff read them: a label and a meaning each.
SIGNAL_FIELDS = {
    "near_copy": (_("near-copy of"), _("The earlier result it is close to, and their Jaccard index (1: the same).")),
    "solver_share": (_("solver line"), _("Share of the solver line's runs of three card moves it plays.")),
    "solver_moves": (_("solver moves"), _("Moves of the server's solver line of the day.")),
    "moves_bound": (_("moves bound"), _("Fewer moves than this are far more efficient than people.")),
    "day_wins": (_("day's wins"), _("Wins on the day's board when it was verified.")),
    "day_median_moves": (_("day's median"), _("The median moves of the day's wins.")),
    "near_solver_days": (_("near the solver"), _("Of the player's last wins, those near their day's solver count.")),
    "difficulty_follow": (_("follows the game"), _("Think time against card moves: a person's is clearly above 0.")),
}


def signal_rows(signals: dict | None) -> list[tuple[str, str, str]]:
    """(label, value, meaning) of each measure in ``signals``, for the review's table."""
    rows = []
    for name, (label, meaning) in SIGNAL_FIELDS.items():
        if not signals or name not in signals:
            continue
        value = signals[name]
        if name == "near_copy":
            value = f"#{value['of']} ({value['jaccard']:g})"
        rows.append(
            (
                str(label),
                "" if value is None else f"{value:g}" if isinstance(value, float) else str(value),
                str(meaning),
            )
        )
    return rows


def profile_value(name: str, value) -> str:
    """A tempo profile's value written out."""
    if name == "share_under_150ms":
        return f"{value:.1%}"
    if name.endswith("_ms"):
        return f"{value:,.0f} ms"
    return f"{value:g}"


def minutes(ms: int | None) -> str:
    """A duration as m:ss."""
    if ms is None:
        return ""
    seconds = ms // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"
