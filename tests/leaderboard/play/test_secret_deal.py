"""Today's deal stays secret until the day is final (issue 12, point 3), on every public door:
a daily result ranks on its day's board only, never on its deal's numbered board, which anyone
may poll for every deal number; the migration that took daily results off the deal boards; and
a signed-out visitor who reads everything public finds today's number nowhere. Real PostgreSQL
and Redis; the scan has a real Celery worker verify the game."""

import importlib
import re
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection
from leaderboard_fixtures.service import (  # noqa: F401  (fixtures)
    _fresh_redis,
    _tempo_rules_off,
    client_for,
    make_player,
    play,
    verify_queued,
    won_game,
    won_games,
)
from rest_framework.test import APIClient
from worker import wait_for

from games import format_code, parse_code, solver
from leaderboard.boards import index, order
from leaderboard.boards.services import entries
from leaderboard.core import days
from leaderboard.models import BoardEntry, DailyDeal, Submission
from leaderboard.play.services import moderation

from .test_day_and_attempts import move_day, played_for, start

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("leaderboard.migrations.0006_daily_results_off_deal_boards")


@pytest.fixture
def secret_game(won_games) -> dict:
    """A won game whose deal number (123729) cannot turn up by chance in ids, counts or dates."""
    game = won_games[3]
    assert parse_code(game["deal"]).number == 123_729
    return game


@pytest.fixture
def today_deal(secret_game) -> DailyDeal:
    number = parse_code(secret_game["deal"]).number  # its proof, as the service stores it: the solver's line
    return DailyDeal.objects.create(date=days.today(), number=number, solution=solver.solve(number).actions)


def board(path: str, client=None) -> list[tuple[str, int]]:
    return [(row["player"], row["submission"]) for row in (client or APIClient()).get(path).json()["results"]]


def deal_board(number: int) -> str:
    return f"/api/leaderboards/deals/{number}/"


# -- a daily result ranks on its day's board only ---------------------------------------------------------


def test_a_daily_result_ranks_on_its_days_board_and_a_numbered_game_on_its_deals(
    make_player, play, today_deal, secret_game
):
    number, actions = today_deal.number, secret_game["actions"]
    daily = play(make_player("alice"), "daily", actions)
    numbered = play(make_player("bob"), format_code(number, "N"), actions)
    todays_code = play(make_player("carol"), format_code(number, "D"), actions[:-1])  # the same as "daily"
    assert board("/api/leaderboards/daily/") == [("alice", daily["id"]), ("carol", todays_code["id"])]
    assert board(deal_board(number)) == [("bob", numbered["id"])]
    assert entries.boards_of(Submission.objects.get(pk=daily["id"])) == [order.daily_board(today_deal.date)]
    assert entries.boards_of(Submission.objects.get(pk=numbered["id"])) == [order.deal_board(number)]


def test_a_d_code_of_another_day_ranks_on_the_deals_board(make_player, play, today_deal, won_games):
    game = won_games[5]  # a D code: not today's deal
    played = play(make_player("alice"), game["deal"], game["actions"])
    assert played["daily_date"] is None
    assert board(deal_board(parse_code(game["deal"]).number)) == [("alice", played["id"])]
    assert APIClient().get("/api/leaderboards/daily/").json()["count"] == 0


def test_a_players_deal_entry_is_recomputed_from_numbered_games_only(make_player, play, today_deal, secret_game):
    """Hiding a player's numbered result leaves no entry on the deal's board, even though their
    daily result of that deal is better; showing it again brings it back."""
    alice = make_player("alice")
    daily = play(alice, "daily", secret_game["actions"])
    numbered = play(alice, format_code(today_deal.number, "N"), secret_game["actions"][:-1])
    assert board(deal_board(today_deal.number)) == [("alice", numbered["id"])]
    submission = Submission.objects.get(pk=numbered["id"])
    moderation.submission_set_hidden(submission, True)
    assert not BoardEntry.objects.filter(board=order.deal_board(today_deal.number)).exists()
    moderation.submission_set_hidden(submission, False)
    assert list(
        BoardEntry.objects.filter(board=order.deal_board(today_deal.number)).values_list("submission_id", flat=True)
    ) == [numbered["id"]]
    assert board("/api/leaderboards/daily/") == [("alice", daily["id"])]


# -- the migration -------------------------------------------------------------------------------


def test_the_migration_takes_daily_results_off_the_deal_boards_and_drops_their_index(
    make_player, play, today_deal, secret_game, django_capture_on_commit_callbacks
):
    """As before the change: alice's and bob's daily results also held entries on the deal's
    board, whose index and top page were loaded. After: bob's entry is gone, alice's falls back
    to her numbered game of the deal, carol's numbered entry and the day's board stay, and the
    board's next read is rebuilt from the entries."""
    number, actions = today_deal.number, secret_game["actions"]
    alice, bob, carol = (make_player(name) for name in ("alice", "bob", "carol"))
    alices_daily, bobs_daily = play(alice, "daily", actions), play(bob, "daily", actions[:-1])
    alices_numbered = play(alice, format_code(number, "N"), actions[:-2])
    carols = play(carol, format_code(number, "N"), actions)
    deal = order.deal_board(number)
    BoardEntry.objects.filter(board=deal, player=alice).delete()
    for result in (alices_daily, bobs_daily):
        submission = Submission.objects.get(pk=result["id"])
        BoardEntry.objects.create(
            board=deal,
            player=submission.player,
            submission=submission,
            rank_key=submission.rank_key,
            submitted_at=submission.submitted_at,
        )
    entries.board_rebuild(deal)
    leaked = [("alice", alices_daily["id"]), ("carol", carols["id"]), ("bob", bobs_daily["id"])]
    assert board(deal_board(number)) == leaked  # the old state, its top page now cached
    daily_before = board("/api/leaderboards/daily/")

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        MIGRATION.forwards(apps, SimpleNamespace(connection=connection))
    assert len(callbacks) == 1  # the index is dropped again after commit

    assert sorted(BoardEntry.objects.filter(board=deal).values_list("player__username", "submission_id")) == [
        ("alice", alices_numbered["id"]),
        ("carol", carols["id"]),
    ]
    assert index.board_index().size(deal) == 0 and not index.board_index().is_ready(deal)
    assert board(deal_board(number)) == [("carol", carols["id"]), ("alice", alices_numbered["id"])]
    assert board("/api/leaderboards/daily/") == daily_before


def test_the_migration_with_nothing_to_move_touches_no_board(
    make_player, play, today_deal, secret_game, django_capture_on_commit_callbacks
):
    play(make_player("alice"), "daily", secret_game["actions"])
    numbered = play(make_player("carol"), format_code(today_deal.number, "N"), secret_game["actions"])
    assert board(deal_board(today_deal.number)) == [("carol", numbered["id"])]  # its index now ready
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        MIGRATION.forwards(apps, SimpleNamespace(connection=connection))
    assert callbacks == []
    assert index.board_index().is_ready(order.deal_board(today_deal.number))
    assert BoardEntry.objects.count() == 2


# -- nothing public tells today's number before the day is final -----------------------------------------


def public_reads(username: str, submission_id: int, day: str) -> dict[str, str]:
    """Every public answer about the day and its players, API and pages, as their text."""
    paths = [
        "/api/daily/",
        f"/api/daily/{day}/",
        "/api/leaderboards/daily/",
        f"/api/leaderboards/daily/{day}/",
        "/api/leaderboards/players/",
        f"/api/players/{username}/",
        f"/api/submissions/{submission_id}/",
        "/",
        "/boards/",
        f"/players/{username}/",
        f"/replay/{submission_id}/",
    ]
    answers = {}
    for path in paths:
        response = APIClient().get(path)
        assert response.status_code == 200, (path, response.status_code)
        answers[path] = response.content.decode()
    return answers


def mentions(text: str, deal: DailyDeal) -> list[str]:
    """Where ``text`` names the deal: its number as a whole number, or its code in any mode."""
    number = re.compile(rf"(?<![0-9]){deal.number}(?![0-9])")
    letters = format_code(deal.number).rsplit("-", 1)[1]  # the same in both modes
    return number.findall(text) + re.findall(letters, text)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_visitor_finds_todays_number_nowhere_until_the_day_is_final(
    worker, settings, make_player, client_for, today_deal, secret_game
):
    alice = client_for(make_player("alice"))
    attempt = start(alice)
    sent = alice.post(
        f"/api/attempts/{attempt['id']}/submission",
        played_for(attempt["id"], attempt["deal"], secret_game["actions"]),
        format="json",
    )
    assert sent.status_code == 202, sent.content
    done = wait_for(lambda: Submission.objects.filter(pk=sent.json()["id"], status="verified").first())
    assert done.won and BoardEntry.objects.filter(submission=done).exists()  # ranked, on the day's board

    day = today_deal.date.isoformat()
    answers = public_reads("alice", done.pk, day)
    assert {path: mentions(text, today_deal) for path, text in answers.items() if mentions(text, today_deal)} == {}
    assert '"count":1' in answers["/api/leaderboards/daily/"].replace(" ", "")  # her result is public
    # The deal's board answers as for a deal nobody played: polling every number finds nothing.
    unplayed = today_deal.number + 1
    for number in (today_deal.number, unplayed):
        shown = APIClient().get(deal_board(number)).json()
        assert (shown["count"], shown["results"]) == (0, []), number

    # Once the day is final, the deal is public: the same reads name it (the scan sees it).
    settings.DAILY_GRACE_SECONDS = 0
    past = move_day(today_deal, 1).isoformat()
    final = public_reads("alice", done.pk, past)
    assert mentions(final[f"/api/daily/{past}/"], today_deal) and mentions(
        final[f"/api/submissions/{done.pk}/"], today_deal
    )
