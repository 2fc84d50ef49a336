"""docs/fair-play.md names only settings that config/settings.py reads from the environment
(or constants of leaderboard/play/tempo.py, which it names as such)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_every_setting_the_fair_play_page_names_is_read_by_the_settings():
    page = (ROOT / "docs" / "fair-play.md").read_text()
    settings_source = (ROOT / "config" / "settings.py").read_text()
    constants = set(
        re.findall(r"^([A-Z][A-Z0-9_]*) = ", (ROOT / "leaderboard" / "play" / "tempo.py").read_text(), re.M)
    )
    named = set(re.findall(r"`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`", page)) - constants
    assert {"TIMES_SLACK_MS", "TEMPO_MIN_MEDIAN_MS", "DAILY_GRACE_SECONDS", "THROTTLE_ATTEMPT"} <= named
    assert sorted(name for name in named if f'"{name}"' not in settings_source) == []
