"""How far the person model and the machines stand from each tempo threshold (docs/fair-play.md).

Run by hand from the project root (about 1.5 minutes of CPU)::

    PYTHONPATH=.:tests .venv/bin/python -m fairplay.margins

For the person: every won log of tests/data at three paces and five seeds each, the whole game
and its opening 50 actions; the worst value of each statistic a rule reads. For the machines: a
solver line (deal 1) at an even 1/s and 10/s, and with uniform jitter at 4/s (150-350 ms).
"""

from games.solver import solve
from leaderboard.play.tempo import TempoRules, flags, profile
from leaderboard_fixtures.timing import (
    even_times,
    human_times,
    jittered_times,
    won_games,
)

PACES = (0.6, 1.0, 1.6)
SEEDS = range(5)


def person_extremes() -> dict:
    worst = {
        "median_ms": [],
        "share_under_150ms": [],
        "spread (whole)": [],
        "spread (first 50)": [],
        "pauses per 100": [],
        "flagged": 0,
        "games": 0,
    }
    for index, game in enumerate(won_games()):
        for pace in PACES:
            for seed in SEEDS:
                times = human_times(game["deal"], game["actions"], seed=seed * 1000 + index, pace=pace)
                whole, opening = profile(times), profile(times[:50])
                worst["median_ms"].append(whole.median_ms)
                worst["share_under_150ms"].append(whole.share_under_150ms)
                worst["spread (whole)"].append(whole.spread)
                worst["spread (first 50)"].append(opening.spread)
                worst["pauses per 100"].append(100 * whole.pauses_over_3s / whole.actions)
                worst["flagged"] += bool(flags(whole, TempoRules()) or flags(opening, TempoRules()))
                worst["games"] += 1
    return {key: (min(value), max(value)) if isinstance(value, list) else value for key, value in worst.items()}


def machines() -> dict:
    line = solve(1).actions
    shown = {}
    for name, times in (
        ("even 1/s", even_times(len(line), 1)),
        ("even 10/s", even_times(len(line), 10)),
        ("jitter 4/s", jittered_times(len(line), 150, 350, 0)),
    ):
        tempo = profile(times)
        shown[name] = {
            "median_ms": tempo.median_ms,
            "share_under_150ms": tempo.share_under_150ms,
            "spread": tempo.spread,
            "pauses per 100": 100 * tempo.pauses_over_3s / tempo.actions,
            "flags": flags(tempo, TempoRules()),
        }
    return shown


def main() -> None:
    print("person (min, max):")
    for key, value in person_extremes().items():
        print(f"  {key}: {value}")
    for name, values in machines().items():
        print(f"{name}: {values}")


if __name__ == "__main__":
    main()
