"""Sessions under their account (``accounts.models.UserSession``, the engine
``accounts.sessions``), so a new password ends an account's sessions by an index.

Every live session of Django's table is copied, its data as it is, under the account its data
is logged in as (decoded once, here): nobody is logged out by the deploy. A session of an
account deleted since is left behind (it logs in nobody). Undone, the new table goes; Django's
table still holds the sessions as they were before this step."""

import django.db.models.deletion
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations, models
from django.utils import timezone

CHUNK = 2000


def copy_live_sessions(apps, schema_editor):
    Session = apps.get_model("sessions", "Session")
    UserSession = apps.get_model("leaderboard", "UserSession")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    store = SessionStore()  # Django's own decoding of its rows (the signing salt is the class's name)
    rows = Session.objects.filter(expire_date__gt=timezone.now()).order_by("pk")
    batch = []
    for session in rows.iterator(chunk_size=CHUNK):
        batch.append((session, _user_id(store.decode(session.session_data))))
        if len(batch) == CHUNK:
            _copy(batch, UserSession, User)
            batch = []
    _copy(batch, UserSession, User)


def _user_id(data: dict) -> int | None:
    try:
        return int(data.get(SESSION_KEY))
    except (TypeError, ValueError):
        return None


def _copy(batch, UserSession, User) -> None:
    accounts = set(User.objects.filter(pk__in={user_id for _, user_id in batch}).values_list("pk", flat=True))
    UserSession.objects.bulk_create(
        UserSession(
            session_key=session.session_key,
            session_data=session.session_data,
            expire_date=session.expire_date,
            user_id=user_id,
        )
        for session, user_id in batch
        if user_id is None or user_id in accounts
    )


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0017_copies_by_line"),
        ("sessions", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="UserSession",
            fields=[
                (
                    "session_key",
                    models.CharField(max_length=40, primary_key=True, serialize=False, verbose_name="session key"),
                ),
                ("session_data", models.TextField(verbose_name="session data")),
                ("expire_date", models.DateTimeField(db_index=True, verbose_name="expire date")),
                (
                    "user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sessions",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "session",
                "verbose_name_plural": "sessions",
                "abstract": False,
            },
        ),
        # Undone, the table goes with its rows: nothing to undo here.
        migrations.RunPython(copy_live_sessions, migrations.RunPython.noop),
    ]
