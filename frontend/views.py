"""The pages of the site. Each one is a thin HTML shell: the ES modules in
static/frontend/ do the work through the JSON API (and engine/ for the game itself)."""

from datetime import date
from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.formats import number_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext
from django.views.decorators.csrf import ensure_csrf_cookie

import games
from games.cards import DECK_SIZE
from games.deal import COLUMNS
from games.game import FOUNDATIONS, HISTORY_LIMIT
from leaderboard.accounts import passwords, rename
from leaderboard.record.models import is_guest

from . import offline


def _page(request, template: str, page: dict, status: int = 200, **extra):
    """Render a page; ``page`` reaches the scripts as JSON (json_script), with the viewer;
    ``extra`` is more context for the template alone."""
    user = request.user
    guest = user.is_authenticated and is_guest(user)  # a guest has no name yet (leaderboard.accounts.guests)
    context = {
        **extra,
        "guest": guest,
        "page": {
            **page,
            "user": {
                "username": user.username if user.is_authenticated and not guest else None,
                "authenticated": user.is_authenticated,
                "guest": guest,
            },
        },
    }
    return render(request, f"frontend/{template}", context, status=status)


@ensure_csrf_cookie
def play_daily(request):
    """Today's deal of the day (the script asks /api/daily/ which deal that is)."""
    return _page(request, "play.html", {"kind": "play", "daily": True, "code": None})


@ensure_csrf_cookie
def play_code(request, code: str):
    """Any deal by its code; a code typed in lower case is sent to its upper-case address."""
    if code != code.upper():
        return redirect("frontend:play-code", code=code.upper())
    try:
        games.parse_code(code)
    except games.InvalidCode as exc:
        return _page(
            request,
            "play.html",
            {"kind": "play", "daily": False, "code": None, "error": games.render(exc.refusal, gettext)},
            status=404,
        )
    return _page(request, "play.html", {"kind": "play", "daily": False, "code": code})


def play_offline(request):
    """The game page's shell, which the service worker keeps (frontend/offline.py): offline, it
    stands in for any numbered deal's page and deals the deal named in the address."""
    return _page(request, "play.html", {"kind": "play", "daily": False, "code": None, "shell": True})


def service_worker(request):
    """The service worker, from the site's root so that its scope covers every page (the
    header says so too, for a worker registered from a page under /play/)."""
    response = render(
        request, "frontend/sw.js", offline.worker_context(), content_type="text/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # the browser compares it at each visit
    return response


def manifest(request):
    """The web app manifest: the site installs as an app that opens on today's deal."""
    icon = "frontend/icons/icon-{}.png"
    body = {
        "name": "Easy Harp Daily",
        "short_name": "Easy Harp",
        "description": gettext("The deal of the day of Easy Harp solitaire, and its leaderboards."),
        "lang": get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#0e4a29",
        "theme_color": "#17643a",
        "icons": [
            {"src": static("frontend/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static(icon.format(192)), "sizes": "192x192", "type": "image/png"},
            {"src": static(icon.format(512)), "sizes": "512x512", "type": "image/png"},
            {
                "src": static(icon.format("maskable-512")),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    return JsonResponse(
        body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False, "indent": 1}
    )


@ensure_csrf_cookie
def boards(request):
    return _page(request, "boards.html", {"kind": "boards"})


@ensure_csrf_cookie
def player(request, username: str):
    return _page(request, "player.html", {"kind": "player", "username": username})


@ensure_csrf_cookie
def calendar(request, month: str | None = None):
    """A month of deals of the day (this month, or ``month`` as YYYY-MM), each with the viewer's
    result (the script asks /api/calendar/); a month that is no month is a 404."""
    if month is not None:
        try:
            date.fromisoformat(f"{month}-01")
        except ValueError:
            return _page(
                request,
                "calendar.html",
                {"kind": "calendar", "month": None, "error": gettext("There is no such month.")},
                status=404,
            )
    return _page(request, "calendar.html", {"kind": "calendar", "month": month})


@ensure_csrf_cookie
def replay(request, submission_id: int):
    return _page(request, "replay.html", {"kind": "replay", "submission": submission_id})


def _players_only(view):
    """A page for signed-in players: anyone else logs in first and comes back."""

    @wraps(view)
    def page(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), login_url="/login/")
        return view(request, *args, **kwargs)

    return page


@_players_only
@ensure_csrf_cookie
def groups(request):
    """The player's groups, and forms to create or join one."""
    return _page(request, "groups.html", {"kind": "groups"})


@_players_only
@ensure_csrf_cookie
def group(request, group_id: int):
    """A group's day board, standings and members. The shell names nothing: the script asks
    the API, which answers members only (anyone else: 404, as for no group)."""
    return _page(request, "group.html", {"kind": "group", "group": group_id})


@_players_only
@ensure_csrf_cookie
def group_join(request, code: str):
    """An invite link: the group's name and a button that joins it."""
    return _page(request, "group_join.html", {"kind": "group-join", "code": code})


def _next_url(request) -> str:
    target = request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return "/"
    return target


@ensure_csrf_cookie
def login_page(request):
    return _page(request, "auth.html", {"kind": "auth", "mode": "login", "next": _next_url(request)})


@ensure_csrf_cookie
def signup_page(request):
    return _page(request, "auth.html", {"kind": "auth", "mode": "signup", "next": _next_url(request)})


def _rules_facts() -> dict:
    """The numbers the rules page states, from the engine and the settings, written the
    reader's way (1,220 / 1 220 / 1.220); counts that choose a plural form stay integers."""
    face_down = sum(range(COLUMNS))
    counts = {
        "cards": DECK_SIZE,
        "columns": COLUMNS,
        "foundations": FOUNDATIONS,
        "face_down": face_down,
        "stock": DECK_SIZE - face_down - COLUMNS,
        "undo_limit": HISTORY_LIMIT,
        "won_score": DECK_SIZE * 10 + face_down * 5,
        "max_actions_per_second": settings.MAX_ACTIONS_PER_SECOND,
        "tempo_median_ms": settings.TEMPO_MIN_MEDIAN_MS,
    }
    facts = {name: number_format(value, decimal_pos=0, force_grouping=True) for name, value in counts.items()}
    facts["ranked_attempts"] = settings.DAILY_RANKED_ATTEMPTS
    facts["grace_minutes"] = round(settings.DAILY_GRACE_SECONDS / 60)
    return facts


@ensure_csrf_cookie
def rules(request):
    """The rules, scoring, ranking order and fair play, in the reader's language."""
    return _page(request, "rules.html", {"kind": "rules"}, facts=_rules_facts())


# -- the account's pages (leaderboard/accounts: the services; /api/auth/...: what they post) --


@_players_only
@ensure_csrf_cookie
def account(request):
    """The account's settings: email, password, name, its data, deletion, passkeys."""
    return _page(
        request,
        "account.html",
        {"kind": "account"},
        rename_days=settings.RENAME_DAYS,
        rename_allowed_at=rename.rename_allowed_at(request.user),
    )


@ensure_csrf_cookie
def email_confirm(request, token: str):
    """The link of a confirmation mail: a button posts its token (a mail scanner that opens
    links confirms nothing)."""
    return _page(request, "email_confirm.html", {"kind": "email-confirm", "token": token})


@ensure_csrf_cookie
def password_forgot(request):
    return _page(request, "password_forgot.html", {"kind": "password-forgot"})


@ensure_csrf_cookie
def password_reset(request, uid: str, token: str):
    """The link of a reset mail: a form for the new password, or, for a used or expired
    link, a word saying so and a way to ask again."""
    valid = passwords.reset_user(uid, token) is not None
    return _page(request, "password_reset.html", {"kind": "password-reset", "uid": uid, "token": token, "valid": valid})


def privacy(request):
    """What the service stores about a player, why, for how long, and who sees it."""
    return _page(request, "privacy.html", {"kind": "privacy"}, rename_days=settings.RENAME_DAYS)
