"""Fixtures and helpers of the leaderboard's tests (tests/leaderboard/), importable by any suite
(tests/e2e too). A module that wants the autouse fixtures of its old folder imports them."""
