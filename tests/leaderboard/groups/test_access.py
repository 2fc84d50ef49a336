"""Who may do what with a group, over every endpoint of /api/groups/ and the group pages, for
four people: anonymous, a player outside the group, a member and the owner.

Anonymous is a 401 everywhere. To an outsider a group does not exist: every endpoint answers
the 404 of an unknown group, byte for byte, and no answer names the group or its members. A
member reads the group, its boards and standings, and leaves; the owner's actions refuse them
(403). The invite's code is the owner's to see.
"""

import pytest
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off, daily_code  # noqa: F401  (autouse, as in tests/groups/)
from rest_framework.test import APIClient

from leaderboard.accounts import services as accounts
from leaderboard.core import days
from leaderboard.groups import services
from leaderboard.groups.models import Group, Membership

pytestmark = pytest.mark.django_db
ROLES = ("anonymous", "outsider", "member", "owner")
SECRET = "Secret Harpists"


@pytest.fixture
def people(make_player) -> dict:
    return {
        "owner": make_player("olivia"),
        "member": make_player("mira"),
        "outsider": make_player("oscar"),
        "other": make_player("otto"),
    }


@pytest.fixture
def group(people):
    """A fresh group of olivia (owner), mira and otto."""

    def make():
        made = services.group_create(owner=people["owner"], name=SECRET)
        for who in ("member", "other"):
            services.group_join(player=people[who], code=made.invite_code)
        return made

    return make


def api(people, role: str) -> APIClient:
    client = APIClient()
    if role != "anonymous":
        client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.user_token(people[role])}")
    return client


def leaks(response) -> list[str]:
    """The group's words an answer shows: its name, its members' names, its code."""
    text = response.content.decode()
    words = [SECRET, "olivia", "mira", "otto"]
    code = Group.objects.filter(name=SECRET).values_list("invite_code", flat=True).first()
    return [word for word in words + ([code] if code else []) if word in text]


# endpoint name -> (method, path of the group, body, status by role)
TODAY = days.today().isoformat()
MATRIX = {
    "detail": ("get", "/api/groups/{id}/", None, {"outsider": 404, "member": 200, "owner": 200}),
    "board today": ("get", "/api/groups/{id}/boards/daily/", None, {"outsider": 404, "member": 200, "owner": 200}),
    "board of a day": (
        "get",
        f"/api/groups/{{id}}/boards/daily/{TODAY}/",
        None,
        {"outsider": 404, "member": 200, "owner": 200},
    ),
    "board around me": (
        "get",
        "/api/groups/{id}/boards/daily/?around=me",
        None,
        {"outsider": 404, "member": 200, "owner": 200},
    ),
    "standings": ("get", "/api/groups/{id}/standings/", None, {"outsider": 404, "member": 200, "owner": 200}),
    "standings of a month": (
        "get",
        "/api/groups/{id}/standings/?month=2026-01",
        None,
        {"outsider": 404, "member": 200, "owner": 200},
    ),
    "rotate invite": ("post", "/api/groups/{id}/invite/", None, {"outsider": 404, "member": 403, "owner": 200}),
    "revoke invite": ("delete", "/api/groups/{id}/invite/", None, {"outsider": 404, "member": 403, "owner": 204}),
    "leave": ("post", "/api/groups/{id}/leave/", None, {"outsider": 404, "member": 200, "owner": 409}),
    "remove member": ("delete", "/api/groups/{id}/members/otto/", None, {"outsider": 404, "member": 403, "owner": 204}),
    "hand on": ("post", "/api/groups/{id}/owner/", {"player": "otto"}, {"outsider": 404, "member": 403, "owner": 200}),
    "delete": ("delete", "/api/groups/{id}/", None, {"outsider": 404, "member": 403, "owner": 204}),
}


@pytest.mark.parametrize("endpoint", MATRIX)
def test_every_group_endpoint_for_each_role(people, group, endpoint, today_deal):
    method, path, body, expected = MATRIX[endpoint]
    for role in ROLES:
        made = group()
        response = getattr(api(people, role), method)(path.format(id=made.pk), body, format="json")
        want = 401 if role == "anonymous" else expected[role]
        assert response.status_code == want, (endpoint, role, response.content)
        if role in ("anonymous", "outsider"):
            assert not leaks(response), (endpoint, role, leaks(response))
            assert set(response.json()) == {"error"}
        if role == "outsider":
            unknown = getattr(api(people, role), method)(path.format(id=made.pk + 10_000), body, format="json")
            assert (unknown.status_code, unknown.content) == (404, response.content), endpoint
        Group.objects.filter(pk=made.pk).delete()


def test_the_invite_code_is_shown_to_the_owner_only(people, group):
    made = group()
    assert api(people, "owner").get(f"/api/groups/{made.pk}/").json()["invite"]["code"] == made.invite_code
    shown = api(people, "member").get(f"/api/groups/{made.pk}/")
    assert shown.json()["invite"] is None and made.invite_code not in shown.content.decode()
    assert [m["player"] for m in shown.json()["members"]] == ["olivia", "mira", "otto"]


def test_an_invite_link_shows_the_name_and_size_only_and_the_id_to_members(people, group):
    made = group()
    path = f"/api/groups/invites/{made.invite_code}/"
    assert api(people, "anonymous").get(path).status_code == 401
    seen = api(people, "outsider").get(path)
    assert seen.json() == {"name": SECRET, "owner": "olivia", "members": 3, "member": False, "id": None}
    assert "mira" not in seen.content.decode()
    assert api(people, "member").get(path).json()["id"] == made.pk
    assert api(people, "outsider").get("/api/groups/invites/wrong-code/").status_code == 404


def test_joining_by_the_api(people, group):
    made = group()
    assert (
        api(people, "anonymous").post("/api/groups/join/", {"code": made.invite_code}, format="json").status_code == 401
    )
    wrong = api(people, "outsider").post("/api/groups/join/", {"code": "nope"}, format="json")
    assert wrong.status_code == 404 and wrong.json()["error"]["code"] == "invalid_invite" and not leaks(wrong)
    joined = api(people, "outsider").post("/api/groups/join/", {"code": made.invite_code}, format="json")
    assert joined.status_code == 201 and joined.json()["joined"] is True
    assert joined.json()["invite"] is None  # a member, not the owner
    again = api(people, "outsider").post("/api/groups/join/", {"code": made.invite_code}, format="json")
    assert again.status_code == 200 and again.json()["joined"] is False
    assert api(people, "outsider").get(f"/api/groups/{made.pk}/").status_code == 200


def test_the_list_of_groups_and_another_players_groups(people, group):
    made = group()
    services.group_create(owner=people["outsider"], name="Oscar's own")
    assert api(people, "anonymous").get("/api/groups/").status_code == 401
    assert [g["name"] for g in api(people, "member").get("/api/groups/").json()["results"]] == [SECRET]
    assert [g["name"] for g in api(people, "outsider").get("/api/groups/").json()["results"]] == ["Oscar's own"]
    # Another player's groups: only those the caller shares with them.
    theirs = api(people, "outsider").get("/api/groups/?player=mira")
    assert theirs.json()["results"] == [] and not leaks(theirs)
    assert [g["id"] for g in api(people, "owner").get("/api/groups/?player=mira").json()["results"]] == [made.pk]
    assert api(people, "anonymous").get("/api/groups/?player=mira").status_code == 401


def test_creating_a_group_needs_a_player(people):
    assert api(people, "anonymous").post("/api/groups/", {"name": "x"}, format="json").status_code == 401
    made = api(people, "outsider").post("/api/groups/", {"name": "Mine"}, format="json")
    assert made.status_code == 201 and made.json()["invite"]["url"].startswith("/groups/join/")
    assert Membership.objects.filter(group_id=made.json()["id"], player=people["outsider"]).exists()


def test_a_members_board_shows_the_members_results_and_an_outsiders_sees_nothing(
    people, group, play, won_game, today_deal
):
    made = group()
    play(people["member"], daily_code(today_deal), won_game["actions"])
    play(people["outsider"], daily_code(today_deal), won_game["actions"])
    board = api(people, "owner").get(f"/api/groups/{made.pk}/boards/daily/").json()
    assert [row["player"] for row in board["results"]] == ["mira"]
    assert board["members"] == 3 and board["count"] == 1
    hidden = api(people, "outsider").get(f"/api/groups/{made.pk}/boards/daily/")
    assert hidden.status_code == 404 and not leaks(hidden)
