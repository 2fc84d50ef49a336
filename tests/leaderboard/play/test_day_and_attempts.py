"""Fair play for the deal of the day (issue 12): the day closes at midnight UTC plus a grace, one
ranked attempt per player per day (later ones are practice), the deal unseen until the ranked
attempt starts, hints counted by the server. Real PostgreSQL and Redis; a submission is
verified by the task function in-process (tests/fairplay/test_exploits_attempts.py does the
same through a real worker). Time travel moves the record (a deal's date, an attempt's start),
never the clock."""

import threading
from datetime import UTC, date, datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone
from leaderboard_fixtures.service import (  # noqa: F401  (fixtures)
    _fresh_redis,
    client_for,
    make_player,
    today_deal,
    verify_queued,
    won_game,
    won_games,
)
from leaderboard_fixtures.timing import human_times
from rest_framework.test import APIClient

from games import format_code
from leaderboard.core import days
from leaderboard.models import Attempt, BoardEntry, DailyDeal, PlayerStats, Submission
from leaderboard.play.services import attempts

pytestmark = pytest.mark.django_db


def start(client, deal: str = "daily") -> dict:
    answer = client.post("/api/attempts/", {"deal": deal}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def played_for(attempt_id: str, code: str, actions: list[str], seed: int = 1) -> dict:
    """The body a browser sends after playing ``actions`` at a person's pace; the attempt's
    start is moved back by the time that took (the server's clock then agrees with it)."""
    times = human_times(code, actions, seed)
    attempt = Attempt.objects.get(pk=attempt_id)
    Attempt.objects.filter(pk=attempt_id).update(
        started_at=attempt.started_at - timedelta(milliseconds=times[-1] + 5000)
    )
    return {"actions": actions, "times": times}


def submit(client, attempt: dict, actions: list[str], verify_queued):
    with verify_queued():
        return client.post(
            f"/api/attempts/{attempt['id']}/submission",
            played_for(attempt["id"], attempt["deal"], actions),
            format="json",
        )


def move_day(deal: DailyDeal, days_back: int) -> date:
    """Make today's deal, every attempt at it (started an hour before that day's close) and
    every result of it, those of ``days_back`` days ago."""
    day = deal.date - timedelta(days=days_back)
    DailyDeal.objects.filter(date=deal.date).update(date=day)
    Attempt.objects.filter(daily_date=deal.date).update(
        daily_date=day, started_at=days.day_close(day) - timedelta(hours=1)
    )
    Submission.objects.filter(daily_date=deal.date).update(daily_date=day)
    return day


# -- the day ------------------------------------------------------------------------------------


def test_the_settings_default_to_a_quarter_hour_grace_and_one_ranked_attempt():
    assert django_settings.DAILY_GRACE_SECONDS == 900
    assert django_settings.DAILY_RANKED_ATTEMPTS == 1


def test_a_day_closes_at_midnight_utc_and_is_final_after_the_grace(settings):
    settings.DAILY_GRACE_SECONDS = 900
    day = date(2026, 11, 29)
    assert days.day_close(day) == datetime(2026, 11, 30, tzinfo=UTC)
    assert days.day_accepts_until(day) == datetime(2026, 11, 30, 0, 15, tzinfo=UTC)
    assert days.day_final(day)
    today = days.today()
    assert not days.day_final(today)
    yesterday = today - timedelta(days=1)
    since_close = (timezone.now() - days.day_close(yesterday)).total_seconds()
    settings.DAILY_GRACE_SECONDS = int(since_close) + 60
    assert not days.day_final(yesterday)
    settings.DAILY_GRACE_SECONDS = int(since_close) - 1
    assert days.day_final(yesterday)


# -- starting the deal of the day ------------------------------------------------------------------


def test_the_first_daily_attempt_is_ranked_and_later_ones_are_practice(make_player, client_for, today_deal):
    alice = client_for(make_player("alice"))
    code = format_code(today_deal.number, "D")
    first = start(alice)
    close = days.day_close(today_deal.date)
    assert first | {"id": None, "started_at": None, "server_time": None} == {
        "id": None,
        "deal": code,
        "number": today_deal.number,
        "daily_date": today_deal.date.isoformat(),
        "started_at": None,
        "ranked": True,
        "practice": False,
        "hints": 0,
        "submission": None,
        "closes_at": close.isoformat().replace("+00:00", "Z"),
        "accepts_until": (close + timedelta(seconds=900)).isoformat().replace("+00:00", "Z"),
        "server_time": None,
    }
    assert first["server_time"] >= first["started_at"]  # the server's clock, by which the page shows the time
    for again in ("DAILY", " daily ", code):  # any spelling, and today's code, are the same deal
        later = start(alice, again)
        assert (later["deal"], later["daily_date"], later["ranked"], later["practice"]) == (
            code,
            today_deal.date.isoformat(),
            False,
            True,
        )
    assert start(client_for(make_player("bob")))["ranked"] is True  # one ranked try per player
    assert Attempt.objects.filter(ranked=True).count() == 2


def test_daily_ranked_attempts_sets_how_many_rank(settings, make_player, client_for, today_deal):
    settings.DAILY_RANKED_ATTEMPTS = 2
    carol = client_for(make_player("carol"))
    assert [start(carol)["ranked"] for _ in range(3)] == [True, True, False]


def test_a_day_code_of_another_day_is_played_like_a_numbered_deal(make_player, client_for, today_deal):
    other = format_code(today_deal.number % 999_999 + 1, "D")
    answer = start(client_for(make_player()), other)
    assert (answer["deal"], answer["daily_date"], answer["ranked"], answer["practice"]) == (other, None, False, False)
    assert answer["closes_at"] is None and answer["accepts_until"] is None


def test_signed_out_visitors_cannot_start_an_attempt(today_deal):
    assert APIClient().post("/api/attempts/", {"deal": "daily"}, format="json").status_code in (401, 403)
    assert not Attempt.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_concurrent_starts_give_exactly_one_ranked_attempt(make_player, today_deal):
    players = [make_player(f"p{i}") for i in range(3)]
    per_player = 4
    barrier = threading.Barrier(len(players) * per_player)
    failures = []

    def start_now(player):
        try:
            barrier.wait(10)
            attempts.attempt_start(player=player, deal_code="daily")
        except Exception as exc:  # reported below: a thread's exception is not the test's
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=start_now, args=(p,)) for p in players for _ in range(per_player)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not failures
    for player in players:
        started = Attempt.objects.filter(player=player, daily_date=today_deal.date)
        assert started.count() == per_player and started.filter(ranked=True).count() == 1, player


# -- the deal unseen until the ranked attempt starts -------------------------------------------------


def test_the_deal_is_unseen_until_the_players_attempt_starts(make_player, client_for, today_deal):
    code = format_code(today_deal.number, "D")
    alice_player = make_player("alice")
    alice, bob, visitor = client_for(alice_player), client_for(make_player("bob")), APIClient()
    close = days.day_close(today_deal.date)
    hidden = {
        "date": today_deal.date.isoformat(),
        "proven_winnable": True,
        "players": 0,
        "closes_at": close.isoformat().replace("+00:00", "Z"),
        "accepts_until": (close + timedelta(seconds=900)).isoformat().replace("+00:00", "Z"),
        "final": False,
        "code": None,
        "number": None,
        "solution": None,
        "attempt": None,
        "server_time": None,
    }
    for client in (visitor, alice):
        answer = client.get("/api/daily/")
        assert answer.json() | {"server_time": None} == hidden and code not in answer.content.decode()
    assert code not in visitor.get("/").content.decode()  # nor in the page of the day

    attempt = start(alice)
    assert attempt["deal"] == code  # the cards go to the player in the answer that starts the try
    mine = alice.get("/api/daily/").json()
    assert mine["code"] is None and mine["attempt"] == {
        "id": attempt["id"],
        "code": code,
        "ranked": True,
        "started_at": attempt["started_at"],
        "submission": None,
    }
    for client in (bob, visitor):
        answer = client.get("/api/daily/")
        assert answer.json()["attempt"] is None and code not in answer.content.decode()


def test_a_daily_result_hides_its_deal_from_others_until_the_day_is_final(
    settings, make_player, client_for, today_deal, won_game, verify_queued
):
    alice = client_for(make_player("alice"))
    attempt = start(alice)
    sent = submit(alice, attempt, won_game["actions"], verify_queued)
    assert sent.status_code == 202, sent.content
    url = sent.json()["url"]
    own = alice.get(url).json()
    assert own["status"] == "verified" and own["deal"] == attempt["deal"] and own["deal_number"] == today_deal.number
    for viewer in (client_for(make_player("bob")), APIClient()):
        other = viewer.get(url)
        assert other.status_code == 200 and other.json()["won"] is True
        assert (other.json()["deal"], other.json()["deal_number"], other.json()["actions"]) == (None, None, None)
        assert attempt["deal"] not in other.content.decode()
    players = alice.get("/api/daily/").json()["players"]
    assert players == 1

    day = move_day(today_deal, 1)
    settings.DAILY_GRACE_SECONDS = 0  # the day is over and final
    final = APIClient().get(url).json()
    assert (final["deal"], final["deal_number"], final["actions"]) == (
        attempt["deal"],
        today_deal.number,
        won_game["actions"],
    )
    shown = APIClient().get(f"/api/daily/{day.isoformat()}/").json()
    assert (shown["final"], shown["code"], shown["number"], shown["solution"]) == (
        True,
        attempt["deal"],
        today_deal.number,
        today_deal.solution,
    )


# -- the day closes -----------------------------------------------------------------------------------


def test_a_submission_after_close_plus_grace_is_refused_and_nothing_is_ranked(
    settings, make_player, client_for, today_deal, won_game, verify_queued
):
    """Yesterday's attempt, started before midnight, and the day's solution published after
    close plus grace: submitting that line now is refused, nothing stored or ranked."""
    alice = client_for(make_player("alice"))
    attempt = start(alice)
    day = move_day(today_deal, 1)
    settings.DAILY_GRACE_SECONDS = 0
    solution = APIClient().get(f"/api/daily/{day.isoformat()}/").json()["solution"]
    assert solution == today_deal.solution
    refused = submit(alice, attempt, solution, verify_queued)
    assert refused.status_code == 409, refused.content
    error = refused.json()["error"]
    assert error["code"] == "day_closed"
    assert error["detail"] == {
        "closes_at": days.day_close(day).isoformat().replace("+00:00", "Z"),
        "accepts_until": days.day_close(day).isoformat().replace("+00:00", "Z"),
    }
    assert not Submission.objects.exists() and not BoardEntry.objects.exists()
    assert PlayerStats.objects.get(player__username="alice").daily_wins == 0


def test_within_the_grace_a_late_submission_is_accepted_and_ranked(
    settings, make_player, client_for, today_deal, won_game, verify_queued
):
    alice = client_for(make_player("alice"))
    attempt = start(alice)
    day = move_day(today_deal, 1)
    since_close = (timezone.now() - days.day_close(day)).total_seconds()
    settings.DAILY_GRACE_SECONDS = int(since_close) + 600  # the close passed, the grace has not
    sent = submit(alice, attempt, won_game["actions"], verify_queued)
    assert sent.status_code == 202, sent.content
    assert alice.get(sent.json()["url"]).json()["status"] == "verified"
    board = alice.get(f"/api/leaderboards/daily/{day.isoformat()}/?around=me").json()
    assert board["me"] == 1 and board["results"][0]["won"] is True
    assert PlayerStats.objects.get(player__username="alice").daily_wins == 1


def test_a_numbered_deal_never_closes(settings, make_player, client_for, won_game, verify_queued):
    settings.DAILY_GRACE_SECONDS = 0
    alice = client_for(make_player("alice"))
    attempt = start(alice, won_game["deal"])
    Attempt.objects.filter(pk=attempt["id"]).update(started_at=timezone.now() - timedelta(days=3))
    sent = submit(alice, attempt, won_game["actions"], verify_queued)
    assert sent.status_code == 202, sent.content


# -- practice -------------------------------------------------------------------------------------------


def test_a_practice_win_is_verified_but_off_every_board_and_streak_and_in_history_as_practice(
    make_player, client_for, today_deal, won_game, verify_queued
):
    alice = client_for(make_player("alice"))
    ranked = start(alice)
    lost = submit(alice, ranked, ["s"], verify_queued)
    practice = start(alice)
    assert practice["practice"] is True
    won = submit(alice, practice, won_game["actions"], verify_queued)
    assert alice.get(won.json()["url"]).json()["status"] == "verified"
    assert alice.get(won.json()["url"]).json()["won"] is True

    rows = alice.get("/api/leaderboards/daily/").json()["results"]
    assert [(row["submission"], row["won"]) for row in rows] == [(lost.json()["id"], False)]
    assert (
        alice.get(f"/api/leaderboards/deals/{today_deal.number}/").json()["count"] == 0
    )  # daily results: their day's board only
    assert PlayerStats.objects.get(player__username="alice").daily_wins == 0
    history = APIClient().get("/api/players/alice/").json()["history"]
    assert [(row["submission"], row["practice"], row["rank"], row["won"]) for row in history] == [
        (lost.json()["id"], False, 1, False),
        (won.json()["id"], True, None, True),
    ]


# -- hints counted by the server ---------------------------------------------------------------------------


def test_hints_are_counted_on_the_owners_attempt_only(make_player, client_for, today_deal, won_game):
    alice_player = make_player("alice")
    alice, bob = client_for(alice_player), client_for(make_player("bob"))
    attempt = start(alice)
    ask = {"attempt": attempt["id"], "actions": won_game["actions"][:5]}
    assert APIClient().post("/api/hints/", ask, format="json").status_code in (401, 403)
    stranger = bob.post("/api/hints/", ask, format="json")
    assert stranger.status_code == 404 and stranger.json()["error"]["code"] == "not_found"
    unknown = alice.post("/api/hints/", {**ask, "attempt": "00000000-0000-0000-0000-000000000000"}, format="json")
    assert unknown.status_code == 404
    assert Attempt.objects.get(pk=attempt["id"]).hints == 0

    answers = [alice.post("/api/hints/", ask, format="json").json() for _ in range(2)]
    assert [answer["hints"] for answer in answers] == [1, 2] and answers[0]["action"]
    assert Attempt.objects.get(pk=attempt["id"]).hints == 2
    assert alice.get(f"/api/attempts/{attempt['id']}/").json()["hints"] == 2


def test_no_hint_once_the_attempt_has_a_submission(make_player, client_for, won_game, verify_queued):
    alice = client_for(make_player("alice"))
    attempt = start(alice, won_game["deal"])
    submit(alice, attempt, ["s"], verify_queued)
    late = alice.post("/api/hints/", {"attempt": attempt["id"], "actions": ["s"]}, format="json")
    assert late.status_code == 409 and late.json()["error"]["code"] == "already_submitted"
    assert Attempt.objects.get(pk=attempt["id"]).hints == 0


def test_the_clients_hint_count_is_not_read(make_player, client_for, won_game, verify_queued):
    alice = client_for(make_player("alice"))
    attempt = start(alice, won_game["deal"])
    assert alice.post("/api/hints/", {"attempt": attempt["id"], "actions": []}, format="json").status_code == 200
    with verify_queued():
        sent = alice.post(
            f"/api/attempts/{attempt['id']}/submission",
            {**played_for(attempt["id"], attempt["deal"], won_game["actions"]), "hints": 0},
            format="json",
        )
    shown = alice.get(sent.json()["url"]).json()
    assert (shown["hints"], shown["clean"], shown["won"]) == (1, False, True)
