"""The pages of the site. Each one is a thin HTML shell: the ES modules in
static/frontend/ do the work through the JSON API (and engine.js for the game itself)."""

from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import ensure_csrf_cookie

import games


def _page(request, template: str, page: dict, status: int = 200):
    """Render a page; ``page`` reaches the scripts as JSON (json_script), with the viewer."""
    user = request.user
    context = {
        "page": {
            **page,
            "user": {"username": user.username if user.is_authenticated else None,
                     "authenticated": user.is_authenticated},
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
        return _page(request, "play.html", {"kind": "play", "daily": False, "code": None,
                                             "error": str(exc)}, status=404)
    return _page(request, "play.html", {"kind": "play", "daily": False, "code": code})


@ensure_csrf_cookie
def boards(request):
    return _page(request, "boards.html", {"kind": "boards"})


@ensure_csrf_cookie
def player(request, username: str):
    return _page(request, "player.html", {"kind": "player", "username": username})


@ensure_csrf_cookie
def replay(request, submission_id: int):
    return _page(request, "replay.html", {"kind": "replay", "submission": submission_id})


def _next_url(request) -> str:
    target = request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        return "/"
    return target


@ensure_csrf_cookie
def login_page(request):
    return _page(request, "auth.html", {"kind": "auth", "mode": "login", "next": _next_url(request)})


@ensure_csrf_cookie
def signup_page(request):
    return _page(request, "auth.html", {"kind": "auth", "mode": "signup", "next": _next_url(request)})
