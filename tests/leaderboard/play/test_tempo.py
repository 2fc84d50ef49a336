"""The tempo profile (leaderboard/tempo.py): the shape check of ``times``, the statistics, the
rules that flag a result for staff review, and the chart. Pure Python: no database.

The four cases the rules are made for: a solver's line paced evenly at 1 and at 10 actions a
second, and with uniform jitter at 4 a second, are flagged; a person (the think-time model of
timing.py on the real won logs) is not."""

import json
import xml.etree.ElementTree as ElementTree
from dataclasses import asdict, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from leaderboard_fixtures.timing import (
    even_times,
    human_times,
    jittered_times,
    won_games,
)

from games import ACTIONS
from games.actions import COL_COL, STOCK
from games.solver import solve
from leaderboard.play import tempo
from leaderboard.play.tempo import (
    RULES,
    TempoProfile,
    TempoRules,
    chart_svg,
    check_times,
    flags,
    profile,
)
from tests.games.helpers import examples

RULES_DEFAULT = TempoRules()


def non_decreasing(elements=st.integers(0, 10**12), max_size=400):
    """Lists of ints in non-decreasing order (the shape check_times lets through)."""
    return st.lists(elements, max_size=max_size).map(sorted)


@pytest.fixture(scope="module")
def solver_line() -> list[str]:
    solution = solve(1, node_limit=30_000)
    assert solution.won and len(solution.actions) >= RULES_DEFAULT.pause_min_actions
    return solution.actions


# -- check_times ---------------------------------------------------------------------------


def test_sound_times_pass_including_a_shared_millisecond_and_the_slack_edge():
    assert check_times([0, 5, 5, 900, 1500], duration_ms=1000, actions_count=5, slack_ms=500) is None
    assert check_times([], duration_ms=0, actions_count=0, slack_ms=0) is None


@pytest.mark.parametrize("times", [None, {"0": 1}, "1,2,3", 7, (1, 2, 3)])
def test_times_that_are_not_a_list_have_no_index(times):
    assert check_times(times, 10_000, 3, 0) == (None, tempo.NOT_A_LIST)


@pytest.mark.parametrize(
    "times, count, index",
    [
        ([1, 2], 3, 2),  # the first action without a time
        ([1, 2, 3, 4], 3, 3),  # the first extra time
        ([], 2, 0),
        ([1], 0, 0),
    ],
)
def test_a_wrong_count_names_the_first_action_without_a_time_or_the_first_extra_time(times, count, index):
    assert check_times(times, 10_000, count, 0) == (index, tempo.WRONG_COUNT)


@pytest.mark.parametrize("bad", [1.0, 2.5, "3", True, None, [4], {"t": 5}])
def test_a_time_that_is_not_an_int_is_refused_at_its_index(bad):
    assert check_times([0, 1, bad, 9], 10_000, 4, 0) == (2, tempo.NOT_AN_INTEGER)


def test_a_negative_time_is_refused_at_its_index():
    assert check_times([-1, 5], 10_000, 2, 0) == (0, tempo.NEGATIVE)


def test_a_time_before_the_one_before_it_is_refused_at_its_index():
    assert check_times([10, 20, 19, 30], 10_000, 4, 0) == (2, tempo.GOES_BACK)


def test_a_time_beyond_the_servers_duration_and_the_slack_is_refused_at_its_index():
    assert check_times([10, 1500, 1501], 1000, 3, 500) == (2, tempo.TOO_LATE)
    assert check_times([10, 1001], 1000, 2, 0) == (1, tempo.TOO_LATE)


def test_the_first_problem_decides_the_index():
    # A bad element before the count runs out is reported, not the count.
    assert check_times([5, 3], 10_000, 5, 0) == (1, tempo.GOES_BACK)
    assert check_times([5, -3, 1.5], 10_000, 3, 0) == (1, tempo.NEGATIVE)


def test_each_problem_has_a_stable_distinct_code_and_an_english_message():
    problems = [
        tempo.NOT_A_LIST,
        tempo.WRONG_COUNT,
        tempo.NOT_AN_INTEGER,
        tempo.NEGATIVE,
        tempo.GOES_BACK,
        tempo.TOO_LATE,
    ]
    assert [p.code for p in problems] == [
        "times_not_a_list",
        "times_count",
        "time_not_an_integer",
        "time_negative",
        "time_goes_back",
        "time_too_late",
    ]
    assert all(p.message.endswith(".") for p in problems)


@examples(300)
@given(non_decreasing(st.integers(0, 10**9)), st.integers(0, 10**6))
def test_any_non_decreasing_list_within_the_duration_passes_and_one_step_back_is_found(times, slack):
    duration = (times[-1] if times else 0) - slack
    assert check_times(times, duration, len(times), slack) is None
    if len(times) >= 2 and times[-1] > 0:
        stepped_back = [*times, times[-1] - 1]
        assert check_times(stepped_back, duration, len(stepped_back), slack) == (len(times), tempo.GOES_BACK)


# -- profile -------------------------------------------------------------------------------


def test_the_profile_of_a_small_game_by_hand():
    # Think times: 100, 200, 300, 400, 4000 (the first from 0).
    shown = profile([100, 300, 600, 1000, 5000])
    assert shown == TempoProfile(
        actions=5,
        span_ms=5000,
        median_ms=300.0,
        p10_ms=140.0,
        p90_ms=2560.0,
        spread=round(2560 / 140, 4),
        share_under_150ms=0.2,
        longest_pause_ms=4000,
        pauses_over_3s=1,
        gap_cv=shown.gap_cv,
        lag1_autocorrelation=shown.lag1_autocorrelation,
    )
    assert shown.gap_cv == pytest.approx(1.5033, abs=1e-4)  # sd 1503.3 (of all five) over mean 1000
    assert shown.lag1_autocorrelation > 0  # rising think times: each like the one before


def test_an_empty_game_has_a_neutral_profile_that_no_rule_flags():
    shown = profile([])
    assert shown.actions == 0 and shown.spread == 1.0 and flags(shown, RULES_DEFAULT) == []


def test_alternating_think_times_correlate_negatively_and_runs_positively():
    alternating = profile(_times_of([200, 2000] * 40))
    runs = profile(_times_of([200] * 20 + [2000] * 20 + [200] * 20 + [2000] * 20))
    assert alternating.lag1_autocorrelation < -0.9 and runs.lag1_autocorrelation > 0.9


@examples(400)
@given(non_decreasing(st.integers(-(10**12), 10**15)))
def test_profile_never_fails_and_is_json_with_sane_bounds(times):
    shown = profile(times)
    json.dumps(asdict(shown), allow_nan=False)
    assert shown.actions == len(times)
    if times:
        assert 0 <= shown.p10_ms <= shown.median_ms <= shown.p90_ms <= shown.longest_pause_ms
        assert 0 <= shown.share_under_150ms <= 1 and shown.spread >= 1
        assert 0 <= shown.pauses_over_3s <= shown.actions and shown.gap_cv >= 0
        assert -1 <= shown.lag1_autocorrelation <= 1
    flags(shown, RULES_DEFAULT)


def _times_of(gaps: list[int]) -> list[int]:
    times, now = [], 0
    for gap in gaps:
        now += gap
        times.append(now)
    return times


# -- each rule on its own ------------------------------------------------------------------

#: A person's profile (the model's, rounded): no rule fires on it.
PERSON = TempoProfile(
    actions=600,
    span_ms=600_000,
    median_ms=430.0,
    p10_ms=250.0,
    p90_ms=2300.0,
    spread=9.2,
    share_under_150ms=0.002,
    longest_pause_ms=20_000,
    pauses_over_3s=45,
    gap_cv=1.6,
    lag1_autocorrelation=0.5,
)


def test_no_rule_fires_on_a_persons_profile():
    assert flags(PERSON, RULES_DEFAULT) == []


@pytest.mark.parametrize(
    "change, fires",
    [
        ({"median_ms": 149.9}, ["fast_median"]),
        ({"median_ms": 150.0}, []),
        ({"share_under_150ms": 0.26}, ["fast_share"]),
        ({"share_under_150ms": 0.25}, []),
        ({"spread": 1.49}, ["even_tempo"]),
        ({"spread": 1.5}, []),
        ({"pauses_over_3s": 2}, ["few_pauses"]),  # 0.33 per 100 actions
        ({"pauses_over_3s": 3}, []),  # 0.5 per 100: not below
        ({"pauses_over_3s": 0, "actions": 199}, []),  # too short for a pause count
        ({"pauses_over_3s": 0, "actions": 200}, ["few_pauses"]),
    ],
)
def test_each_rule_fires_on_its_own_statistic_at_its_threshold(change, fires):
    assert flags(replace(PERSON, **change), RULES_DEFAULT) == fires


def test_a_game_shorter_than_the_minimum_is_never_flagged():
    machine = replace(PERSON, median_ms=50.0, share_under_150ms=1.0, spread=1.0, pauses_over_3s=0)
    assert flags(replace(machine, actions=49), RULES_DEFAULT) == []
    assert flags(replace(machine, actions=50), RULES_DEFAULT) == ["fast_median", "fast_share", "even_tempo"]
    assert flags(profile(even_times(49, 10)), RULES_DEFAULT) == []


def test_the_thresholds_come_from_the_rules_given():
    strict = TempoRules(min_median_ms=500, min_spread=10, min_pauses_per_100=10)
    assert flags(PERSON, strict) == ["fast_median", "even_tempo", "few_pauses"]
    assert flags(replace(PERSON, median_ms=50.0), TempoRules(min_median_ms=10)) == []
    assert flags(replace(PERSON, spread=1.0), TempoRules(min_actions=601)) == []


def test_every_rule_has_a_description_for_staff():
    assert list(RULES) == ["fast_median", "fast_share", "even_tempo", "few_pauses"]
    assert all(text.endswith(".") for text in RULES.values())


# -- the four cases ------------------------------------------------------------------------


def test_a_solver_line_paced_evenly_at_one_action_a_second_is_flagged(solver_line):
    assert flags(profile(even_times(len(solver_line), 1)), RULES_DEFAULT) == ["even_tempo", "few_pauses"]


def test_a_solver_line_at_ten_actions_a_second_is_flagged(solver_line):
    assert flags(profile(even_times(len(solver_line), 10)), RULES_DEFAULT) == [
        "fast_median",
        "fast_share",
        "even_tempo",
        "few_pauses",
    ]


@pytest.mark.parametrize("seed", range(5))
def test_a_solver_line_with_uniform_jitter_at_four_a_second_is_flagged_for_its_missing_pauses(solver_line, seed):
    shown = profile(jittered_times(len(solver_line), 150, 350, seed))
    assert 240 <= shown.median_ms <= 260  # 4 actions a second
    assert "few_pauses" in flags(shown, RULES_DEFAULT)


def test_an_even_pace_with_long_pauses_added_is_still_too_even():
    # One long pause in fifty lifts the coefficient of variation into a person's range (the
    # model's games: 1.1 to 3.2); the spread between the quick and the slow tenth stays 1.
    gaps = [1000] * 600
    gaps[::50] = [30_000] * len(gaps[::50])
    shown = profile(_times_of(gaps))
    assert shown.gap_cv > 2 and shown.pauses_over_3s == 12
    assert flags(shown, RULES_DEFAULT) == ["even_tempo"]


@pytest.mark.slow
def test_a_person_is_not_flagged_on_any_real_won_game_quick_or_slow():
    """Every won log of tests/data, each at one of three paces; and every opening of 50, 100 and
    200 actions of them (the model is causal: a prefix of the times is the prefix game's)."""
    paces = (0.6, 1.0, 1.6)
    for index, game in enumerate(won_games()):
        times = human_times(game["deal"], game["actions"], seed=index, pace=paces[index % 3])
        assert check_times(times, times[-1], len(game["actions"]), 0) is None
        for length in (50, 100, 200, len(times)):
            shown = profile(times[:length])
            assert flags(shown, RULES_DEFAULT) == [], (game["deal"], length, shown)


def test_a_person_playing_the_solvers_line_is_not_flagged(solver_line):
    for seed, pace in enumerate((0.6, 1.0, 1.6)):
        times = human_times("EH1-N-AAAAAAB", solver_line, seed=seed, pace=pace)
        assert flags(profile(times), RULES_DEFAULT) == []


# -- the human model does what its docstring says ------------------------------------------


def test_the_human_model_is_deterministic_and_thinks_longer_before_hard_moves():
    game = won_games()[0]
    times = human_times(game["deal"], game["actions"], seed=7)
    assert times == human_times(game["deal"], game["actions"], seed=7)
    assert times != human_times(game["deal"], game["actions"], seed=8)
    gaps = [b - a for a, b in zip([0, *times], times)]
    kinds = [ACTIONS[text][0] for text in game["actions"]]
    redraws = sorted(g for g, k, before in zip(gaps[1:], kinds[1:], kinds) if k == STOCK == before)
    builds = sorted(g for g, k in zip(gaps, kinds) if k == COL_COL)
    assert len(builds) >= 5
    assert 250 <= redraws[len(redraws) // 2] <= 500  # a repeated click: about 2.5 to 4 a second
    assert builds[len(builds) // 2] > 4 * redraws[len(redraws) // 2]


# -- the chart -----------------------------------------------------------------------------


def test_the_chart_draws_one_bar_per_action_and_the_thresholds():
    svg = chart_svg([100, 300, 600, 4600])
    root = ElementTree.fromstring(svg)
    ns = {"svg": "http://www.w3.org/2000/svg"}
    assert len(root.findall("svg:g/svg:rect", ns)) == 4
    labels = [text.text for text in root.iter("{http://www.w3.org/2000/svg}text")]
    # Equal thresholds share one line, their labels stacked.
    assert {"lowest median 150 ms", "fast 150 ms", "pause 3 s", "median 250 ms"} <= set(labels)
    assert len(root.findall("svg:line", ns)) == 3
    heights = [float(rect.get("height")) for rect in root.findall("svg:g/svg:rect", ns)]
    assert heights[3] > heights[2] > heights[1] > heights[0]  # 4 s, 300, 200, 100 ms


def _text_box(text) -> tuple[float, float, float, float]:
    """Left, right, top and bottom of an SVG text element: 10 px high from its baseline up, as
    wide as its textLength, or else 6 px a character (a generous width at 10 px sans-serif)."""
    x, y = float(text.get("x")), float(text.get("y"))
    width = float(text.get("textLength") or len(text.text) * 6)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[text.get("text-anchor", "start")]
    return left, left + width, y - 10, y


@pytest.mark.parametrize(
    "case, gaps, rules, translate",
    [
        ("three thresholds at 150 ms", [150] * 80, RULES_DEFAULT, lambda text: text),
        ("all four at 3 s", [3000] * 80, replace(RULES_DEFAULT, min_median_ms=3000), lambda text: text),
        ("a long translation", [150] * 80, RULES_DEFAULT, lambda text: f"{text} ({text}, {text})"),
        ("stacked at the bottom", [1] * 80, replace(RULES_DEFAULT, min_median_ms=2), lambda text: text * 3),
        ("a median off the top", [200_000] * 3, RULES_DEFAULT, lambda text: text),
    ],
)
def test_every_text_lies_inside_the_chart_and_margin_labels_do_not_overlap(case, gaps, rules, translate):
    root = ElementTree.fromstring(chart_svg(_times_of(gaps), rules, translate))
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    texts = list(root.iter("{http://www.w3.org/2000/svg}text"))
    for text in texts:
        left, right, top, bottom = _text_box(text)
        assert 0 <= left and right <= width and 0 <= top and bottom <= height, (case, text.text, left, right, top)
    margin = sorted(float(t.get("y")) for t in texts if t.get("fill"))  # the thresholds' labels
    assert len(margin) == 4 and all(b - a >= 10 for a, b in zip(margin, margin[1:])), (case, margin)
    axis_top = min(_text_box(t)[2] for t in texts if t.text.startswith("action"))
    assert margin[-1] <= axis_top, (case, margin)  # above the axis' labels


def test_a_long_game_is_binned_so_no_pause_is_lost():
    gaps = [300] * 50_000
    gaps[31_337] = 60_000
    root = ElementTree.fromstring(chart_svg(_times_of(gaps)))
    bars = root.findall("{http://www.w3.org/2000/svg}g/{http://www.w3.org/2000/svg}rect")
    assert len(bars) <= 800
    assert max(float(bar.get("height")) for bar in bars) > 2 * min(float(bar.get("height")) for bar in bars)


def test_the_chart_translates_its_words_and_escapes_them():
    svg = chart_svg([100, 200], translate=lambda text: f"<{text} & co>")
    root = ElementTree.fromstring(svg)
    assert root.find("{http://www.w3.org/2000/svg}title").text == "<Think time per action & co>"
    assert "<median & co> 100 ms" in [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]


@examples(200)
@given(non_decreasing(st.integers(-(10**6), 10**12), max_size=2000))
def test_the_chart_is_valid_xml_for_any_non_decreasing_times(times):
    root = ElementTree.fromstring(chart_svg(times))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
