"""The tempo of a game: when each action was played, and whether that looks like a person.

Pure Python (no Django, no settings): the caller builds ``TempoRules`` from settings and
translates the English texts, which are marked with ``gettext_noop`` so that ``makemessages``
extracts them. The rules and their thresholds are described in docs/fair-play.md.

Public API::

    check_times(times, duration_ms, actions_count, slack_ms) -> (index, TimesProblem) | None
    profile(times) -> TempoProfile          # think-time statistics, JSON-able via asdict
    flags(profile, rules) -> list[str]      # codes of the rules that fire (RULES describes them)
    chart_svg(times, rules=..., translate=...) -> str   # think time per action, for the admin

``times[i]`` is the browser's monotonic clock, in whole milliseconds since the attempt
started, when action ``i`` was played. A think time (gap) is the time between an action and
the one before it; the first is measured from 0.
"""

import bisect
import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple
from xml.sax.saxutils import escape, quoteattr


def gettext_noop(message: str) -> str:
    """Marks a text for translation; the caller translates it (Django's own has this name)."""
    return message


#: A think time under this is faster than a person repeats even the same click.
FAST_GAP_MS = 150
#: A think time over this is a pause: the player stopped to look or plan.
PAUSE_MS = 3000


# -- the shape of the times ----------------------------------------------------------------


class TimesProblem(NamedTuple):
    code: str
    message: str


NOT_A_LIST = TimesProblem("times_not_a_list", gettext_noop("Times must be a list of whole milliseconds."))
WRONG_COUNT = TimesProblem("times_count", gettext_noop("There must be exactly one time for each action."))
NOT_AN_INTEGER = TimesProblem("time_not_an_integer", gettext_noop("A time must be a whole number of milliseconds."))
NEGATIVE = TimesProblem("time_negative", gettext_noop("A time cannot be negative."))
GOES_BACK = TimesProblem("time_goes_back", gettext_noop("A time cannot be earlier than the one before it."))
TOO_LATE = TimesProblem("time_too_late", gettext_noop("A time is later than the submission reached the server."))


def check_times(times, duration_ms: int, actions_count: int, slack_ms: int) -> tuple[int | None, TimesProblem] | None:
    """The first problem of a submission's ``times`` as ``(index, problem)``, or None if sound.

    Sound: a list of ints, one per action, none negative, non-decreasing (two actions may
    share a millisecond: a double click sends a card and the browser records both at once),
    none beyond the server's ``duration_ms`` plus ``slack_ms``. The index is the first bad
    element, or for a wrong count the first action without a time or the first extra time;
    it is None when ``times`` is not a list at all.
    """
    if not isinstance(times, list):
        return None, NOT_A_LIST
    latest = duration_ms + slack_ms
    # Sound times (nearly every submission) pass with C-speed checks; the loop finds the problem.
    if (
        times
        and len(times) == actions_count
        and all(type(time) is int for time in times)
        and 0 <= times[0]
        and times[-1] <= latest
        and times == sorted(times)
    ):
        return None
    previous = 0
    for index in range(max(len(times), actions_count)):
        if index >= len(times) or index >= actions_count:
            return index, WRONG_COUNT
        time = times[index]
        if not isinstance(time, int) or isinstance(time, bool):
            return index, NOT_AN_INTEGER
        if time < 0:
            return index, NEGATIVE
        if time < previous:
            return index, GOES_BACK
        if time > latest:
            return index, TOO_LATE
        previous = time
    return None


# -- the profile ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TempoProfile:
    """Statistics of the think times (gaps between actions, the first from 0), in ms."""

    actions: int  #: number of think times (one per action)
    span_ms: int  #: the last action's time: the game's length by the browser's clock
    median_ms: float  #: the typical think time
    p10_ms: float  #: the quick end: 10% of think times are shorter
    p90_ms: float  #: the slow end: 10% of think times are longer
    spread: float  #: p90 / p10: how much slow and quick differ (1 = all alike)
    share_under_150ms: float  #: share of think times under FAST_GAP_MS
    longest_pause_ms: int  #: the longest think time
    pauses_over_3s: int  #: think times over PAUSE_MS
    gap_cv: float  #: standard deviation / mean: regularity, but one long pause lifts it
    lag1_autocorrelation: float  #: of log think times: people have quick runs and slow spells (> 0)


def profile(times: Sequence[int]) -> TempoProfile:
    """The tempo profile of ``times`` (checked by check_times; a gap below 0 counts as 0)."""
    gaps = [max(b - a, 0) for a, b in zip([0, *times], times)]
    if not gaps:
        return TempoProfile(0, 0, 0.0, 0.0, 0.0, 1.0, 0.0, 0, 0, 0.0, 0.0)
    # One sort serves the quantiles and both counts (by bisection); the gaps are integers, so
    # sum() is exact, as fsum was.
    ordered = sorted(gaps)
    count = len(gaps)
    p10, p90 = _quantile(ordered, 0.1), _quantile(ordered, 0.9)
    mean = sum(ordered) / count
    deviation = math.sqrt(math.fsum([(g - mean) ** 2 for g in gaps]) / count)
    return TempoProfile(
        actions=count,
        span_ms=int(times[-1]),
        median_ms=_round(_quantile(ordered, 0.5)),
        p10_ms=_round(p10),
        p90_ms=_round(p90),
        spread=_round(max(p90, 1) / max(p10, 1)),  # ms resolution: a 0 gap counts as 1 ms
        share_under_150ms=_round(bisect.bisect_left(ordered, FAST_GAP_MS) / count),
        longest_pause_ms=int(ordered[-1]),
        pauses_over_3s=count - bisect.bisect_right(ordered, PAUSE_MS),
        gap_cv=_round(deviation / mean) if mean else 0.0,
        lag1_autocorrelation=_round(_lag1_autocorrelation(list(map(math.log1p, gaps)))),
    )


def _quantile(ordered: list, q: float) -> float:
    """Linear interpolation between the closest ranks (numpy's default)."""
    position = (len(ordered) - 1) * q
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _lag1_autocorrelation(values: list[float]) -> float:
    if len(values) < 3:
        return 0.0
    mean = math.fsum(values) / len(values)
    centred = [v - mean for v in values]
    variance = math.fsum([c * c for c in centred])
    if variance <= 1e-12:
        return 0.0
    return math.fsum(map(operator.mul, centred, centred[1:])) / variance


def _round(value: float) -> float:
    return round(float(value), 4)


# -- the rules -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TempoRules:
    """Thresholds of the rules, each a setting (in brackets); docs/fair-play.md argues the defaults.

    The person model of tests/fairplay/timing.py stays clear of each (720 games measured by
    tests/fairplay/margins.py): median think time 338 ms or more, at most 0.6% under 150 ms,
    p90 / p10 at least 5.3 in a whole game and 1.99 in its first 50 actions, and at least
    1.97 pauses per 100 actions.
    """

    #: [TEMPO_MIN_ACTIONS] below this many actions no rule applies: too few for a median
    #: and a tenth at each end to mean anything (a won game has at least 104 actions).
    min_actions: int = 50
    #: [TEMPO_MIN_MEDIAN_MS] fast_median: people repeat even the same click at 6 to 7 a second.
    min_median_ms: float = 150
    #: [TEMPO_MAX_FAST_SHARE] fast_share: a few double clicks are under 150 ms, not a quarter.
    max_fast_share: float = 0.25
    #: [TEMPO_MIN_SPREAD] even_tempo: a person's slow tenth is several times the quick tenth.
    min_spread: float = 1.5
    #: [TEMPO_PAUSE_MIN_ACTIONS] few_pauses counts from this many actions: a long game.
    pause_min_actions: int = 200
    #: [TEMPO_MIN_PAUSES_PER_100] few_pauses: fewer pauses over 3 s per 100 actions than this.
    min_pauses_per_100: float = 0.5


#: Each rule's code and what it means for staff (English, translated by the caller).
RULES = {
    "fast_median": gettext_noop("The typical think time is shorter than a person repeats a click."),
    "fast_share": gettext_noop("Too many actions came faster than a person can click."),
    "even_tempo": gettext_noop("Quick and slow actions hardly differ: a machine's even tempo."),
    "few_pauses": gettext_noop("A long game without the pauses a person takes to think."),
}


#: The flag of a game sent without times (the wire allows it for a numbered deal): no tempo to
#: check, so it stays in the player's history, off the boards (every ranked result has a tempo).
NO_TIMES = "no_times"
NO_TIMES_TEXT = gettext_noop("Sent without the time of each action: no tempo to check, so off the boards.")


def flags(profile: TempoProfile, rules: TempoRules) -> list[str]:
    """The codes of the rules that fire on ``profile``, in RULES order; [] for a short game."""
    if profile.actions < max(rules.min_actions, 1):
        return []
    fired = {
        "fast_median": profile.median_ms < rules.min_median_ms,
        "fast_share": profile.share_under_150ms > rules.max_fast_share,
        "even_tempo": profile.spread < rules.min_spread,
        "few_pauses": (
            profile.actions >= rules.pause_min_actions
            and profile.pauses_over_3s * 100 < rules.min_pauses_per_100 * profile.actions
        ),
    }
    return [code for code in RULES if fired[code]]


#: The rule on ``difficulty_follow``, apart from RULES (it reads the actions, not the profile).
PACE_IGNORES_MOVES = "pace_ignores_moves"
DIFFICULTY_RULES = {
    PACE_IGNORES_MOVES: gettext_noop("Think times do not follow the game: card moves come as fast as stock taps."),
}


def difficulty_follow(times: Sequence[int], actions: Sequence[str]) -> float | None:
    """Whether think time follows how hard the position is: the correlation of each action's log
    think time with whether it moves a card (1) or taps the stock (0). A person decides a card
    move and only glances at a tapped card, so it is clearly positive; a machine replaying
    recorded gaps, or drawing them at random, is near 0. None without both kinds of action."""
    gaps = [math.log1p(max(b - a, 0)) for a, b in zip([0, *times], times)]
    moves = [0.0 if action == "s" else 1.0 for action in actions]
    count = len(gaps)
    if count != len(moves) or count < 2:
        return None
    mean_gap, mean_move = sum(gaps) / count, sum(moves) / count
    covariance = math.fsum((g - mean_gap) * (m - mean_move) for g, m in zip(gaps, moves))
    spread = math.fsum((g - mean_gap) ** 2 for g in gaps) * math.fsum((m - mean_move) ** 2 for m in moves)
    return _round(covariance / math.sqrt(spread)) if spread else None


# -- the chart -----------------------------------------------------------------------------

_WIDTH, _HEIGHT = 800, 240
_LEFT, _RIGHT, _TOP, _BOTTOM = 50, 150, 12, 30
_PLOT_WIDTH = _WIDTH - _LEFT - _RIGHT
#: The log scale's ends, in ms: 10 ms to 100 s covers every think time a chart needs to tell apart.
_LOW_MS, _HIGH_MS = 10, 100_000
_TICKS_MS = (10, 100, 1000, 10_000, 100_000)
_LABEL_GAP = 11  # px between threshold labels, so that near ones do not overlap
#: A generous width of one character at the chart's 10 px sans-serif: a label estimated wider
#: than the right margin is squeezed into it (a translation may be long).
_CHAR_PX = 6
_LABEL_X, _LABEL_WIDTH = _LEFT + _PLOT_WIDTH + 4, _RIGHT - 6


def chart_svg(
    times: Sequence[int], rules: TempoRules = TempoRules(), translate: Callable[[str], str] = gettext_noop
) -> str:
    """An inline SVG of the think time of each action on a log scale, the thresholds drawn.

    One bar per action; when there are more actions than pixels, a bar stands for several and
    shows their longest think time, so no pause disappears. ``translate`` is the caller's gettext.
    """
    gaps = [max(b - a, 0) for a, b in zip([0, *times], times)]
    title = translate(gettext_noop("Think time per action"))
    axis = translate(gettext_noop("action"))
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{_HEIGHT}" '
            f'viewBox="0 0 {_WIDTH} {_HEIGHT}" role="img" aria-label={quoteattr(title)} '
            'font-family="sans-serif" font-size="10">',
            f"<title>{escape(title)}</title>",
            f'<rect x="{_LEFT}" y="{_TOP}" width="{_PLOT_WIDTH}" height="{_y(_LOW_MS) - _TOP}" '
            'fill="#fafafa" stroke="#ccc"/>',
            *(
                f'<text x="{_LEFT - 4}" y="{_y(tick) + 3:.1f}" text-anchor="end">{_format_ms(tick)}</text>'
                for tick in _TICKS_MS
            ),
            _bars(gaps),
            *_threshold_lines(gaps, rules, translate),
            f'<text x="{_LEFT}" y="{_HEIGHT - 8}">{escape(f"{axis} 1")}</text>',
            f'<text x="{_LEFT + _PLOT_WIDTH}" y="{_HEIGHT - 8}" text-anchor="end">'
            f"{escape(f'{axis} {len(gaps)}')}</text>",
            "</svg>",
        ]
    )


def _bars(gaps: list[int]) -> str:
    per_bar = max(1, math.ceil(len(gaps) / _PLOT_WIDTH))
    bars = [max(gaps[i : i + per_bar]) for i in range(0, len(gaps), per_bar)]
    width = _PLOT_WIDTH / max(len(bars), 1)
    bottom = _y(_LOW_MS)
    rects = (
        f'<rect x="{_LEFT + i * width:.2f}" y="{_y(gap):.1f}" width="{width:.2f}" height="{bottom - _y(gap):.1f}"/>'
        for i, gap in enumerate(bars)
    )
    return f'<g fill="#4a6fa5" shape-rendering="crispEdges">{"".join(rects)}</g>'


def _threshold_lines(gaps: list[int], rules: TempoRules, translate: Callable[[str], str]) -> list[str]:
    """Dashed lines across the plot, labelled in the right margin, one label a row: equal values
    share a line and stack their labels (joined on one row, two ran past the chart's edge)."""
    median = _quantile(sorted(gaps), 0.5) if gaps else 0
    lines: dict[float, list[tuple[str, str]]] = {}
    for ms, colour, label in (
        (PAUSE_MS, "#27ae60", gettext_noop("pause")),
        (median, "#333333", gettext_noop("median")),
        (rules.min_median_ms, "#e67e22", gettext_noop("lowest median")),
        (FAST_GAP_MS, "#c0392b", gettext_noop("fast")),
    ):
        if ms > 0:
            lines.setdefault(ms, []).append((colour, translate(label)))
    parts, labels, label_y = [], [], 0.0
    for ms in sorted(lines, reverse=True):
        y = _y(ms)
        parts.append(
            f'<line x1="{_LEFT}" x2="{_LEFT + _PLOT_WIDTH}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="{lines[ms][0][0]}" stroke-dasharray="4 3"/>'
        )
        for colour, label in lines[ms]:
            label_y = max(y + 3, label_y + _LABEL_GAP)
            labels.append((label_y, colour, f"{label} {_format_ms(ms)}"))
    overflow = max(label_y - (_y(_LOW_MS) + 3), 0)  # rows stacked past the plot's foot: lift them all
    return parts + [_margin_label(y - overflow, colour, text) for y, colour, text in labels]


def _margin_label(y: float, colour: str, text: str) -> str:
    """A label in the right margin, squeezed to its width when it may not fit."""
    fit = f' textLength="{_LABEL_WIDTH}" lengthAdjust="spacingAndGlyphs"' if len(text) * _CHAR_PX > _LABEL_WIDTH else ""
    return f'<text x="{_LABEL_X}" y="{y:.1f}" fill="{colour}"{fit}>{escape(text)}</text>'


def _y(ms: float) -> float:
    """The height of ``ms`` on the log scale, clamped to its ends."""
    ms = min(max(ms, _LOW_MS), _HIGH_MS)
    fraction = math.log10(ms / _LOW_MS) / math.log10(_HIGH_MS / _LOW_MS)
    return _TOP + (1 - fraction) * (_HEIGHT - _TOP - _BOTTOM)


def _format_ms(ms: float) -> str:
    return f"{ms / 1000:g} s" if ms >= 1000 else f"{ms:g} ms"
