"""Names that cannot pose (``accounts.names``): a sign-up is refused when its name's TR39
skeleton, case aside, is an existing player's, or when it mixes scripts; names are stored
NFKC-normalised. Refusals are in the reader's language."""

import threading

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse)
from rest_framework.test import APIClient

from leaderboard.accounts import names
from leaderboard.accounts import services as accounts
from leaderboard.core.errors import Conflict
from leaderboard.record.players import PlayerName

pytestmark = [pytest.mark.django_db, pytest.mark.security]


def signup(username: str, language: str = "en"):
    return APIClient().post(
        "/api/auth/signup/", {"username": username, "password": PASSWORD}, format="json", HTTP_ACCEPT_LANGUAGE=language
    )


@pytest.mark.parametrize(
    "twin",
    [
        "p\u0435ter",  # a Cyrillic "е"
        "\uff50eter",  # a full-width "ｐ"
        "\U0001d429eter",  # a mathematical bold "𝐩"
        "pete\u0433",  # a Cyrillic "г", TR39's twin of "r"
    ],
)
def test_twins_of_an_existing_name_are_refused(make_player, twin):
    make_player("peter")
    response = signup(twin)
    error = response.json()["error"]
    if twin[0] == "p":
        assert response.status_code == 409 and error["code"] == "username_looks_alike"
        assert "looks like another player's name" in error["message"]
    else:  # NFKC makes it "peter" itself
        assert response.status_code == 409 and error["code"] == "username_taken"
    assert PlayerName.objects.count() == 1


@pytest.mark.parametrize("twin", ["\u0430lice", "aIice", "al\u0456ce", "\u0251lice"])
def test_look_alikes_whatever_the_case_are_refused(make_player, twin):
    make_player("alice")
    with pytest.raises(Conflict) as refused:
        accounts.user_signup(username=twin, password=PASSWORD)
    assert refused.value.code == "username_looks_alike"


@pytest.mark.parametrize(
    "language, looks_alike, mixed",
    [
        ("pl", "wygląda jak nazwa innego gracza", "różnych pism"),
        ("de", "sieht aus wie der Name eines anderen Spielers", "verschiedener Schriften"),
    ],
)
def test_the_refusals_are_translated(make_player, language, looks_alike, mixed):
    make_player("peter")
    assert looks_alike in signup("p\u0435ter", language).json()["error"]["message"]
    assert mixed in signup("bob\u0430x", language).json()["error"]["message"]


def test_a_mixed_script_name_is_refused_and_one_script_passes():
    response = signup("harr\u0443x")  # Latin with a Cyrillic "у"
    assert response.status_code == 400 and response.json()["error"]["code"] == "username_mixed_scripts"
    for name in ("Гарри", "Ελένη", "山田たろう", "김철수", "zoë_ñ", "harry_2"):
        assert signup(name).status_code == 201, name


def test_a_plain_new_name_passes_and_names_are_stored_nfkc(make_player):
    make_player("peter")
    assert signup("paula").status_code == 201
    made = signup("\uff46red\u2460")  # a full-width "ｆ" and a circled one: "fred1"
    assert made.status_code == 201 and made.json()["username"] == "fred1"
    assert accounts.User.objects.filter(username="fred1").exists()
    assert PlayerName.objects.get(player__username="fred1").key == names.name_key("fred1")
    assert (
        APIClient()
        .post("/api/auth/login/", {"username": "\uff46red1", "password": PASSWORD}, format="json")
        .status_code
        == 200
    )  # Django's log-in normalises the same way


def test_the_skeleton_is_tr39s():
    assert names.skeleton("p\u0435ter") == names.skeleton("peter") == "peter"
    assert names.skeleton("rn") == names.skeleton("m")  # a prototype of two characters
    assert names.skeleton("\u00e9") == "e\u0301"  # NFD at both ends
    assert names.skeleton(names.skeleton("h\u0430rry\u0399")) == names.skeleton("h\u0430rry\u0399")


@pytest.mark.django_db(transaction=True)
def test_two_look_alikes_signing_up_at_once_get_one_account():
    """A Latin name and its all-Cyrillic twin (one script each): different names, so the
    per-name lock does not serialise them, but one key, and the unique index lets one through."""
    barrier, outcomes = threading.Barrier(2), []

    def attempt(name):
        try:
            barrier.wait()
            accounts.user_signup(username=name, password=PASSWORD)
            outcomes.append("made")
        except Conflict as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(name,)) for name in ("ace", "\u0430\u0441\u0435")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["made", "username_looks_alike"]
    assert PlayerName.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_every_existing_accounts_key_and_goes_back():
    """Accounts made before 0012 get their keys; of two existing look-alikes the older keeps it."""
    before, after = ("leaderboard", "0011_submission_refusal"), ("leaderboard", "0012_player_name_key")
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([before])
        # bulk_create: no signal, as before 0012 (the signal's table is not there yet)
        older, _, plain = accounts.User.objects.bulk_create(
            [accounts.User(username=name, password="!") for name in ("olga", "\u043elga", "ben")]
        )  # an old twin
        executor.loader.build_graph()
        executor.migrate([after])
        keys = dict(PlayerName.objects.values_list("player_id", "key"))
        assert keys == {older.pk: "olga", plain.pk: "ben"}
        executor.loader.build_graph()
        executor.migrate([before])
        assert "leaderboard_playername" not in connection.introspection.table_names()
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    with pytest.raises(Conflict):
        accounts.user_signup(username="0lga", password=PASSWORD)  # olga keeps her key


def test_accounts_made_or_renamed_outside_sign_up_keep_their_key(django_user_model):
    staff = django_user_model.objects.create_superuser("oliver", password=PASSWORD)  # as createsuperuser does
    with pytest.raises(Conflict) as refused:
        accounts.user_signup(username="0liver", password=PASSWORD)  # a zero for the "O"
    assert refused.value.code == "username_looks_alike"
    staff.username = "moderator"
    staff.save()
    assert accounts.user_signup(username="0liver", password=PASSWORD)  # "oliver" is free again
    bob = accounts.user_signup(username="bob", password=PASSWORD)
    bob.username = "m0derator"  # staff rename bob to a look-alike: bob keeps the name, without a key
    bob.save()
    assert not PlayerName.objects.filter(player=bob).exists()
    assert PlayerName.objects.get(player=staff).key == names.name_key("moderator") == "rnoderator"
