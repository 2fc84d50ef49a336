"""The group pages: players only (anyone else logs in and comes back), shells that name
nothing of a group (the API answers members only), and in Polish and German with no English
left in what the server writes."""

import pytest
from django.test import Client
from i18n.test_pages import english_runs, read
from leaderboard_fixtures.service import _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse, as in tests/groups/)

from leaderboard.groups import services
from leaderboard.groups.models import Group

pytestmark = pytest.mark.django_db
ROLES = ("anonymous", "outsider", "member", "owner")
SECRET = "Secret Harpists"


@pytest.fixture
def people(make_player) -> dict:
    return {"owner": make_player("olivia"), "member": make_player("mira"), "outsider": make_player("oscar")}


@pytest.fixture
def group(people) -> Group:
    made = services.group_create(owner=people["owner"], name=SECRET)
    services.group_join(player=people["member"], code=made.invite_code)
    return made


def pages(group: Group) -> list[str]:
    return ["/groups/", f"/groups/{group.pk}/", f"/groups/join/{group.invite_code}/"]


def test_the_group_pages_send_anyone_not_signed_in_to_log_in_and_back(group):
    for path in pages(group):
        answer = Client().get(path)
        assert answer.status_code == 302 and answer["Location"] == f"/login/?next={path}", path


def test_the_group_pages_are_shells_that_name_nothing(people, group):
    for role in ROLES[1:]:
        client = Client()
        client.force_login(people[role])
        for path in pages(group)[:2]:
            page = client.get(path)
            assert page.status_code == 200
            text = page.content.decode()
            others = {"olivia", "mira"} - {people[role].username}  # the nav names the viewer
            assert SECRET not in text and group.invite_code not in text, (role, path)
            assert not [name for name in others if name in text], (role, path)


@pytest.mark.parametrize("language", ["pl", "de"])
def test_the_group_pages_in_polish_and_german(people, group, language):
    runs = english_runs()
    client = Client()
    client.force_login(people["owner"])
    for path in pages(group) + ["/boards/", "/players/mira/"]:
        page = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
        lang, text = read(page.content.decode())
        assert lang == language
        left = sorted(run for run in runs if run in text)
        assert not left, f"{path} in {language} shows English: {left}"
