"""End to end in a real browser: two players, one inviting the other into a group, both win
today's deal by hand, and each sees the other on the group's board for today. A real worker
verifies the games (the tempo rules off: a test plays faster than a person)."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from leaderboard_fixtures.service import not_a_copy
from playwright.sync_api import Page, expect
from worker import wait_for

from leaderboard.models import Attempt, Submission

from .conftest import PASSWORD
from .driver import BoardPlayer

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sign_up_here(page: Page, username: str) -> None:
    """On a log-in or sign-up page: create the account, and be sent on to its ?next=."""
    page.get_by_test_id("username").fill(username)
    page.get_by_test_id("password").fill(PASSWORD)
    page.get_by_test_id("auth-submit").click()
    expect(page.get_by_test_id("nav-me")).to_have_text(username)


def win_todays_deal(page: Page, base: str, username: str, deal, line: list[str]) -> None:
    """Start today's ranked try and win it by clicks and drags; the server verifies it."""
    page.goto(f"{base}/")
    page.get_by_test_id("start-daily").click()
    page.wait_for_selector("#table[data-ready=true]")
    player = BoardPlayer(page, deal.number)
    player.play(line[:1])
    attempt = wait_for(lambda: Attempt.objects.filter(player__username=username).first())
    # Far faster than MAX_ACTIONS_PER_SECOND allows: the server's clock of the try goes back.
    Attempt.objects.filter(pk=attempt.pk).update(started_at=attempt.started_at - timedelta(minutes=30))
    player.play(line[1:])
    expect(page.get_by_test_id("submission-status")).to_have_attribute("data-status", "verified", timeout=20_000)


def open_group_board(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")


def test_two_players_one_inviting_the_other_see_each_other_on_the_groups_board_today(
    page, second_page, live_server, todays_deal, human_tempo_worker, artifacts
):
    deal, line = todays_deal
    base = live_server.url
    alice, bob = page, second_page

    # Alice signs up from the groups page, creates a group and copies its invite link.
    alice.goto(f"{base}/groups/")
    alice.wait_for_url(re.compile(r"/login/\?next="))
    alice.locator(".auth-tabs").get_by_role("link", name="Sign up").click()
    sign_up_here(alice, "alice")
    alice.wait_for_url(f"{base}/groups/")
    alice.wait_for_selector("body[data-ready=true]")
    alice.get_by_test_id("group-name-input").fill("Harp friends")
    alice.get_by_test_id("group-create").click()
    alice.wait_for_url(re.compile(r"/groups/\d+/$"))
    group_url = alice.url
    expect(alice.get_by_test_id("group-title")).to_have_text("Harp friends")
    invite = alice.get_by_test_id("invite-link").input_value()
    assert re.fullmatch(rf"{re.escape(base)}/groups/join/[A-Za-z0-9_-]{{22}}/", invite), invite

    # Bob, not signed in, opens the link: log-in, then sign-up, and back to the invitation.
    bob.goto(invite)
    bob.wait_for_url(re.compile(r"/login/\?next=(/|%2F)groups(/|%2F)join"))
    bob.locator(".auth-tabs").get_by_role("link", name="Sign up").click()
    sign_up_here(bob, "bob")
    bob.wait_for_url(invite)
    expect(bob.get_by_test_id("invite-summary")).to_contain_text("Harp friends, the group of alice, with 1 member.")
    bob.get_by_test_id("group-join").click()
    bob.wait_for_url(group_url)
    expect(bob.get_by_test_id("members")).to_contain_text("alice")
    expect(bob.get_by_test_id("members")).to_contain_text("bob")
    expect(bob.get_by_test_id("invite-block")).to_be_hidden()  # the owner's only

    # Both win today's deal by hand (bob in another order of the same moves: not a copy).
    win_todays_deal(alice, base, "alice", deal, line)
    alices = Submission.objects.select_related("attempt").get(player__username="alice")
    bobs_line = not_a_copy(get_user_model().objects.get(username="bob"), alices.attempt.deal_code, line)
    win_todays_deal(bob, base, "bob", deal, bobs_line)
    assert Submission.objects.filter(status="verified", copy_of__isnull=True, flagged=False).count() == 2

    # Each sees the other on the group's board for today, in the day board's order.
    for viewer, me, other in ((alice, "alice", "bob"), (bob, "bob", "alice")):
        open_group_board(viewer, group_url)
        board = viewer.get_by_test_id("group-board")
        expect(board.locator(f"tr[data-player='{other}']")).to_be_visible()
        expect(board.locator(f"tr[data-player='{me}']")).to_have_class("me")
        expect(board.locator("tbody tr")).to_have_count(2)
        expect(viewer.get_by_test_id("group-board-meta")).to_contain_text("2 of 2 members played")
        expect(viewer.get_by_test_id("my-place")).to_contain_text("your place #")
        expect(viewer.get_by_test_id("standings")).to_contain_text(other)
    ranks = [
        bob.locator(f"#group-board tr[data-player='{name}'] [data-testid=row-day-rank]").inner_text()
        for name in ("alice", "bob")
    ]
    assert sorted(ranks) == ["#1", "#2"]
    bob.screenshot(path=str(artifacts / "group-board.png"), full_page=True)
    alice.screenshot(path=str(artifacts / "group-owner.png"), full_page=True)

    # The group is on bob's boards page, and on alice's page as bob sees it (a shared group).
    bob.goto(f"{base}/boards/")
    bob.wait_for_selector("body[data-ready=true]")
    expect(bob.get_by_test_id("groups-block")).to_contain_text("Harp friends")
    bob.goto(f"{base}/players/alice/")
    bob.wait_for_selector("body[data-ready=true]")
    expect(bob.get_by_test_id("player-groups-block")).to_contain_text("Harp friends")

    # The owner's tools: a new link, a revoked one, a new one again, then bob removed.
    open_group_board(alice, group_url)
    alice.on("dialog", lambda dialog: dialog.accept())
    alice.get_by_test_id("invite-rotate").click()
    expect(alice.get_by_test_id("invite-link")).not_to_have_value(invite)
    rotated = alice.get_by_test_id("invite-link").input_value()
    alice.get_by_test_id("invite-revoke").click()
    expect(alice.get_by_test_id("invite")).to_contain_text("No invite link")
    alice.get_by_test_id("invite-rotate").click()
    expect(alice.get_by_test_id("invite-link")).not_to_have_value(rotated)
    alice.locator("#members tr[data-player='bob']").get_by_test_id("member-remove").click()
    expect(alice.locator("#members tr[data-player='bob']")).to_have_count(0)
    open_group_board(bob, group_url)
    expect(bob.get_by_test_id("group-error")).to_have_text("No such group.")
    expect(bob.get_by_test_id("group-board")).to_be_hidden()
