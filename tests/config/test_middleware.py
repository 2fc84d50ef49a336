"""config/middleware.py's language without URL prefixes: Django's choice, for less (the board reads
answered early: tests/leaderboard/api/test_board_fast_path.py)."""

import pytest
from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.http import HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.test import RequestFactory

from config.middleware import LanguageMiddleware

LANGUAGES = [
    {},
    {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"},
    {"HTTP_ACCEPT_LANGUAGE": "pl"},
    {"HTTP_ACCEPT_LANGUAGE": "fr, en;q=0.5"},
    {"HTTP_ACCEPT_LANGUAGE": "xx"},
    {"HTTP_COOKIE": f"{settings.LANGUAGE_COOKIE_NAME}=pl", "HTTP_ACCEPT_LANGUAGE": "de"},
    {"HTTP_COOKIE": f"{settings.LANGUAGE_COOKIE_NAME}=xx", "HTTP_ACCEPT_LANGUAGE": "de"},
]


def test_no_url_names_a_language():
    """LanguageMiddleware leaves out Django's URL prefixes: right while no i18n_patterns are used."""
    assert is_language_prefix_patterns_used(settings.ROOT_URLCONF) == (False, False)


@pytest.mark.parametrize("headers", LANGUAGES)
@pytest.mark.parametrize("path", ["/boards/", "/api/leaderboards/daily/", "/pl/boards/"])
def test_the_language_is_djangos_choice(headers, path):
    answers = []
    for middleware_class in (LanguageMiddleware, LocaleMiddleware):
        request = RequestFactory().get(path, **headers)
        answer = middleware_class(lambda request: HttpResponse("words"))(request)
        answers.append((request.LANGUAGE_CODE, answer["Content-Language"], answer["Vary"]))
    assert answers[0] == answers[1]
