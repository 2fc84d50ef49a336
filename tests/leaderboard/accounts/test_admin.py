"""Staff deleting players in the Django admin: the same erasure as a player's own deletion."""

import pytest
from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.auth import get_user_model
from django.test import Client
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, daily_code  # noqa: F401  (autouse)

from leaderboard.models import BoardEntry
from leaderboard.record.models import ArchiveErasure

pytestmark = pytest.mark.django_db
User = get_user_model()


def ranked(client) -> list[str]:
    return [row["player"] for row in client.get("/api/leaderboards/daily/").json()["results"]]


def test_a_player_deleted_by_staff_leaves_the_boards_and_the_archives(
    staff_client, make_player, play, today_deal, won_game, django_capture_on_commit_callbacks
):
    players = {name: make_player(name) for name in ("alice", "bob", "carol")}
    for player in players.values():
        play(player, daily_code(today_deal), won_game["actions"])
    assert sorted(ranked(staff_client)) == ["alice", "bob", "carol"]

    with django_capture_on_commit_callbacks(execute=True):  # one from its page, one by the action
        page = staff_client.post(f"/admin/auth/user/{players['alice'].pk}/delete/", {"post": "yes"})
        action = staff_client.post(
            "/admin/auth/user/",
            {"action": "delete_selected", "_selected_action": [str(players["carol"].pk)], "post": "yes"},
        )
    assert page.status_code == action.status_code == 302
    assert ranked(staff_client) == ["bob"]  # the boards' index dropped them
    assert set(BoardEntry.objects.values_list("player__username", flat=True)) == {"bob"}
    gone = {players["alice"].pk, players["carol"].pk}
    assert set(ArchiveErasure.objects.values_list("player_id", flat=True)) == gone
    assert not User.objects.filter(pk__in=gone).exists()


def test_the_admins_log_keeps_a_deleted_players_entries_without_the_name(
    staff_client, make_player, django_capture_on_commit_callbacks
):
    alice = make_player("alice")
    with django_capture_on_commit_callbacks(execute=True):
        staff_client.post(f"/admin/auth/user/{alice.pk}/delete/", {"post": "yes"})
    (entry,) = LogEntry.objects.filter(object_id=str(alice.pk))
    assert entry.action_flag == DELETION and entry.object_repr == f"#{alice.pk}"
    assert not LogEntry.objects.filter(object_repr__icontains="alice").exists()
