"""The fixtures of the leaderboard's tests, for every folder here (tests/leaderboard_fixtures/:
players, deals and verified play; groups; results written into the record; servers the
reliability tests own; token clients). None is autouse here: a module that wants a fresh Redis
and the tempo rules off imports ``_fresh_redis`` and ``_tempo_rules_off`` itself."""

from leaderboard_fixtures.groups import *  # noqa: F403
from leaderboard_fixtures.history import *  # noqa: F403
from leaderboard_fixtures.reliability import *  # noqa: F403
from leaderboard_fixtures.security import *  # noqa: F403
from leaderboard_fixtures.service import *  # noqa: F403
