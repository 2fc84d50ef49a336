"""Sessions under their account (``accounts.sessions``, the session engine): every log-in's row
names its account, a new password ends that account's other sessions by one indexed DELETE and
nobody else's, and the migration copies the sessions of Django's table so nobody is logged out."""

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings as django_settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends.base import UpdateError
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from leaderboard_fixtures.service import PASSWORD, _fresh_redis, _tempo_rules_off  # noqa: F401  (autouse)
from rest_framework.test import APIClient

from leaderboard import tasks
from leaderboard.accounts import passwords
from leaderboard.accounts.sessions import SessionStore
from leaderboard.models import UserSession

pytestmark = [pytest.mark.django_db, pytest.mark.security]
User = get_user_model()
NEW_PASSWORD = "golden-lyre-chords-77"


def key_of(client: APIClient) -> str:
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


def signed_up(name: str) -> APIClient:
    client = APIClient()
    assert client.post("/api/auth/signup/", {"username": name, "password": PASSWORD}, format="json").status_code == 201
    return client


def logged_in(name: str, client: APIClient | None = None) -> APIClient:
    client = client or APIClient()
    answer = client.post("/api/auth/login/", {"username": name, "password": PASSWORD}, format="json")
    assert answer.status_code == 200, answer.json()
    return client


def session_of(user_id: int | None, **data) -> str:
    """A session saved by the engine, logged in as ``user_id`` (None: a visitor's); its key."""
    store = SessionStore()
    if user_id is not None:
        store[SESSION_KEY] = str(user_id)
    store.update(data or {"seen": True})
    store.save()
    return store.session_key


def test_every_log_in_stores_its_session_under_its_account():
    """A log-in into a visitor's session issues a new key (cycle_key: the row is inserted with
    the visitor's data first), then stores the account: the row saved at the end of the request
    names it, and the visitor's key is gone. Another account's log-in starts the session over."""
    alice, bob = (User.objects.create_user(name, password=PASSWORD) for name in ("alice", "bob"))
    client = APIClient()
    visitor = session_of(None, django_language="de")
    client.cookies[django_settings.SESSION_COOKIE_NAME] = visitor
    logged_in("alice", client)
    assert key_of(client) != visitor and not UserSession.objects.filter(session_key=visitor).exists()
    assert UserSession.objects.get(session_key=key_of(client)).user_id == alice.pk
    assert SessionStore(key_of(client))["django_language"] == "de"  # the visitor's data stays
    logged_in("bob", client)
    assert list(UserSession.objects.values_list("session_key", "user_id")) == [(key_of(client), bob.pk)]
    assert client.post("/api/auth/logout/").status_code == 204
    assert not UserSession.objects.exists()


def test_a_visitors_session_names_no_account():
    key = session_of(None, django_language="de")
    assert UserSession.objects.get(session_key=key).user_id is None
    assert SessionStore(key)["django_language"] == "de"


def test_a_guests_session_is_under_the_guest_and_stays_when_it_is_kept():
    client = APIClient()
    assert client.post("/api/auth/guest/").status_code == 201
    guest = User.objects.get()
    row = UserSession.objects.get(session_key=key_of(client))
    assert row.user_id == guest.pk and row.expire_date > timezone.now() + timedelta(days=29)
    kept = client.post("/api/auth/keep/", {"username": "harpist", "password": PASSWORD}, format="json")
    assert kept.status_code == 200, kept.json()
    assert client.get("/api/auth/me/").json()["username"] == "harpist"
    (row,) = UserSession.objects.all()  # the guest's old key is gone, the new one is the player's
    assert row.session_key == key_of(client) and row.user_id == guest.pk


def test_a_password_change_ends_the_accounts_other_sessions_and_no_one_elses():
    here = signed_up("alice")
    phone, tablet = logged_in("alice"), logged_in("alice")
    bob = signed_up("bob")
    visitor = session_of(None)
    alice = User.objects.get(username="alice")
    ended = [key_of(phone), key_of(tablet)]
    assert UserSession.objects.filter(user=alice).count() == 3
    body = {"old_password": PASSWORD, "password": NEW_PASSWORD}
    assert here.post("/api/auth/password/", body, format="json").status_code == 200
    # Rows, not only answers: a session with the old password's hash logs in nobody anyway.
    assert not UserSession.objects.filter(session_key__in=ended).exists()
    assert list(UserSession.objects.filter(user=alice).values_list("session_key", flat=True)) == [key_of(here)]
    assert UserSession.objects.get(session_key=key_of(bob)).user.username == "bob"
    assert UserSession.objects.filter(session_key=visitor, user=None).exists()
    assert here.get("/api/auth/me/").json()["username"] == "alice"
    assert bob.get("/api/auth/me/").json()["username"] == "bob"
    assert phone.get("/api/auth/me/").json()["authenticated"] is False


@pytest.mark.parametrize("others", [0, 60])
def test_ending_sessions_is_one_delete_by_account_however_many_others_there_are(others):
    alice = User.objects.create_user("alice")
    people = [User.objects.create_user(f"player{i}") for i in range(3)]
    kept, *mine = [session_of(alice.pk) for _ in range(3)]
    for i in range(others):
        session_of(people[i % 3].pk if i % 4 else None)
    with CaptureQueriesContext(connection) as queries:
        assert passwords.sessions_end(alice, keep=kept) == 2
    (delete,) = [query["sql"] for query in queries]
    assert delete.startswith("DELETE") and '"user_id" = ' in delete
    assert list(UserSession.objects.filter(user=alice).values_list("session_key", flat=True)) == [kept]
    assert UserSession.objects.count() == 1 + others
    assert passwords.sessions_end(alice) == 1  # no key kept: every one (the account's deletion)


def test_a_new_session_for_an_account_deleted_meanwhile_is_lost_not_retried_for_ever(monkeypatch):
    """Django's create() retries a refused insert with a new key, taking it for a key already
    taken; a foreign key to a deleted account would refuse every one."""
    tries = []
    new_key = SessionStore._get_new_session_key

    def counted(store):
        tries.append(1)
        assert len(tries) < 5, "create() retries for ever"
        return new_key(store)

    monkeypatch.setattr(SessionStore, "_get_new_session_key", counted)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # checked at the insert, not at the test's end
    store = SessionStore()
    store[SESSION_KEY] = "987654321"
    with pytest.raises(UpdateError):
        store.save()
    assert len(tries) == 1 and not UserSession.objects.exists()


def test_an_async_save_stores_the_account_too():
    alice = User.objects.create_user("alice")
    store = SessionStore()
    store[SESSION_KEY] = str(alice.pk)
    async_to_sync(store.asave)()
    assert UserSession.objects.get(session_key=store.session_key).user_id == alice.pk


@pytest.mark.django_db(transaction=True)
def test_the_migration_copies_the_live_sessions_under_their_accounts_and_goes_back():
    """Django's table's live sessions come over as they are, each under the account it is
    logged in as, and still read with the new engine; an expired one and one of a deleted
    account stay behind."""
    before, after = ("leaderboard", "0017_copies_by_line"), ("leaderboard", "0018_user_sessions")
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([before])
        alice = User.objects.create_user("alice")

        def old_session(user_id, *, expired=False) -> str:
            store = DjangoStore()  # the engine before 0018
            store.update({SESSION_KEY: str(user_id)} if user_id else {"django_language": "de"})
            store.set_expiry(-60 if expired else 3600)
            store.save()
            return store.session_key

        hers, visitors = old_session(alice.pk), old_session(None)
        stale, gone = old_session(alice.pk, expired=True), old_session(alice.pk + 1000)
        executor.loader.build_graph()
        executor.migrate([after])
        assert dict(UserSession.objects.values_list("session_key", "user_id")) == {hers: alice.pk, visitors: None}
        assert not {stale, gone} & set(UserSession.objects.values_list("session_key", flat=True))
        assert SessionStore(hers)[SESSION_KEY] == str(alice.pk)  # the same signed data reads
        executor.loader.build_graph()
        executor.migrate([before])
        assert UserSession._meta.db_table not in connection.introspection.table_names()
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


def test_beat_forgets_the_expired_sessions_and_keeps_the_live_ones():
    ada = User.objects.create_user("ada", password=PASSWORD)
    live, visitor, expired = session_of(ada.pk), session_of(None), session_of(ada.pk)
    UserSession.objects.filter(session_key=expired).update(expire_date=timezone.now() - timedelta(seconds=1))
    assert tasks.forget_expired_sessions() == 1
    assert set(UserSession.objects.values_list("session_key", flat=True)) == {live, visitor}
    assert tasks.forget_expired_sessions() == 0


def test_beat_empties_djangos_old_table_as_its_copied_rows_expire():
    ada = User.objects.create_user("ada", password=PASSWORD)
    old = DjangoStore()
    old[SESSION_KEY] = str(ada.pk)
    old.create()  # a row of Django's table, as migration 0018 found it
    stale = DjangoStore()
    stale[SESSION_KEY] = str(ada.pk)
    stale.create()
    Session.objects.filter(session_key=stale.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    tasks.forget_expired_sessions()
    assert list(Session.objects.values_list("session_key", flat=True)) == [old.session_key]
