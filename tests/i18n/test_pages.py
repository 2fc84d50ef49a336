"""Every page in English, Polish and German: the language from Accept-Language or the switch
(its cookie, signed in or not), and no English left in a Polish or German page.

The pages are shells the ES modules fill in (their words: the JavaScript catalogue, checked in
test_catalogues.py, and in a browser by tests/e2e/test_languages.py); what the server writes,
the templates, is checked here: the visible text and the attributes a person meets (title,
placeholder, aria-label, alt) hold none of the English msgids' runs of three or more words.
"""

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tools import catalogues

pytestmark = pytest.mark.django_db

PAGES = [
    "/",
    "/play/EH1-N-AAAAAAF/",
    "/play/EH1-X-AAAAAAF/",
    "/boards/",
    "/players/somebody/",
    "/replay/1/",
    "/login/",
    "/signup/",
    "/rules/",
    "/calendar/",
    "/calendar/2026-11/",
]
LANGUAGES = ("en", "pl", "de")
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{[a-z]+(?:!r)?(?::,)?\}|<[^>]*>")


class _Reader(HTMLParser):
    """What a person reads: text outside <script>/<style>, and the attributes they meet."""

    ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0
        self.lang = None

    def handle_starttag(self, tag, attrs):
        if tag == "html":
            self.lang = dict(attrs).get("lang")
        if tag in ("script", "style"):
            self.hidden += 1
        self.parts.extend(value for name, value in attrs if name in self.ATTRIBUTES and value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def read(html: str) -> tuple[str | None, str]:
    reader = _Reader()
    reader.feed(html)
    return reader.lang, re.sub(r"\s+", " ", " ".join(reader.parts))


def english_runs() -> set[str]:
    """The English msgids of the pages (django domain) cut at their placeholders and tags:
    every run of three or more words, which a translated page must not show."""
    runs = set()
    for msgid in catalogues.msgids("django"):
        for run in _PLACEHOLDER.split(msgid):
            run = re.sub(r"\s+", " ", run).strip(" .,:;()")
            if len(run.split()) >= 3:
                runs.add(run)
    return runs


@pytest.fixture(scope="module")
def runs() -> set[str]:
    return english_runs()


@pytest.fixture
def player(db):
    return get_user_model().objects.create_user("ada", password="x-long-enough-password")


def _get(client: Client, path: str, language: str | None):
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    response = client.get(path, **headers)
    assert response.status_code in (200, 404), (path, response.status_code)
    return response


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_in_every_language(language, signed_in, player, runs):
    client = Client()
    if signed_in:
        client.force_login(player)
    for path in PAGES + (["/login/?next=/boards/"] if signed_in else []):
        response = _get(client, path, f"{language},en;q=0.5")
        lang, text = read(response.content.decode())
        assert lang == language, path
        assert response["Content-Language"] == language
        if language == "en":
            continue
        left = sorted(run for run in runs if run in text)
        assert not left, f"{path} in {language} shows English: {left}"


def test_english_pages_show_their_english(player):
    """The check above has teeth: the English pages do show the msgids' runs."""
    client = Client()
    texts = " ".join(read(_get(client, path, "en").content.decode())[1] for path in PAGES)
    shown = [run for run in english_runs() if run in texts]
    assert len(shown) > 60, shown


def test_an_unknown_language_is_english_and_a_regional_one_its_language():
    assert read(_get(Client(), "/boards/", "fr-FR,fr;q=0.9").content.decode())[0] == "en"
    assert read(_get(Client(), "/boards/", "de-AT,de;q=0.9").content.decode())[0] == "de"
    assert read(_get(Client(), "/boards/", "pl-PL").content.decode())[0] == "pl"


def _switch(client: Client, language: str, next_path: str = "/boards/"):
    client.get("/boards/")  # the page that shows the switch sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    return client.post("/i18n/setlang/", {"language": language, "next": next_path, "csrfmiddlewaretoken": token})


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_the_switch_is_remembered_over_accept_language(signed_in, player):
    client = Client(enforce_csrf_checks=True)
    if signed_in:
        client.force_login(player)
    response = _switch(client, "de")
    assert response.status_code == 302 and response["Location"] == "/boards/"
    cookie = response.cookies["django_language"]
    assert cookie.value == "de"
    assert int(cookie["max-age"]) >= 300 * 24 * 3600  # remembered, not a session cookie
    assert cookie["samesite"] == "Lax" and cookie["httponly"]
    for path in ("/", "/boards/", "/rules/"):
        lang, text = read(_get(client, path, "pl,en;q=0.8").content.decode())
        assert lang == "de", path
    assert "Ranglisten" in read(_get(client, "/boards/", "pl").content.decode())[1]


def test_the_switch_is_on_every_page_with_the_current_language_pressed():
    html = _get(Client(), "/rules/", "pl").content.decode()
    form = re.search(r'<form class="lang-switch" action="/i18n/setlang/" method="post".*?</form>', html, re.S)
    assert form, "no language switch"
    buttons = re.findall(
        r'<button type="submit" name="language" value="(\w+)" lang="\w+"[^>]*aria-pressed="(\w+)"', form.group(0)
    )
    assert buttons == [("en", "false"), ("pl", "true"), ("de", "false")]
    assert 'name="csrfmiddlewaretoken"' in form.group(0)


def test_the_page_loads_the_javascript_catalogue_before_its_modules():
    html = _get(Client(), "/", "pl").content.decode()
    catalogue = html.index('<script src="/jsi18n/"></script>')
    assert catalogue < html.index('<script type="module"')


@pytest.mark.parametrize(
    ("language", "points", "deals"),
    [
        ("en", "1,220", "Easy Harp: the rules"),
        ("pl", "1\xa0220", "Easy Harp: zasady"),
        ("de", "1.220", "Easy Harp: die Regeln"),
    ],
)
def test_the_rules_page_in_each_language_with_its_numbers(language, points, deals):
    response = _get(Client(), "/rules/", language)
    html = response.content.decode()
    for section in ("goal", "moves", "playing", "scoring", "daily", "ranking", "fair-play"):
        assert f'id="{section}"' in html
    assert deals in read(html)[1]
    assert points in html  # 1,220 (a won game without take-backs), the reader's way


def test_the_rules_page_is_linked_from_the_nav_and_the_game():
    html = _get(Client(), "/play/EH1-N-AAAAAAF/", "en").content.decode()
    assert 'href="/rules/" data-testid="nav-rules"' in html
    assert 'data-testid="how-to-rules"' in html
    how_to = read(html[html.index('id="how-to"') : html.index("</aside>")])[1]
    assert "with or without an account" in how_to and "The server verifies every game" in how_to


def test_an_invalid_deal_code_is_refused_in_the_readers_language():
    response = _get(Client(), "/play/EH1-X-AAAAAAF/", "pl")
    assert response.status_code == 404
    assert "nieznany tryb 'X'" in response.content.decode()
