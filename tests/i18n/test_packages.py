"""Polish for the installed packages that ship none (locale/packages, on LOCALE_PATHS after the
project's own catalogues): django-otp-webauthn's passkey messages in the browser and the errors
its views answer. Every string of the package's browser catalogue (the list its German one
holds) is translated, the .mo files are their .po compiled, and a Polish reader gets them."""

import json
from pathlib import Path

import django_otp_webauthn
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django_otp_webauthn import exceptions

from tools import catalogues

pytestmark = pytest.mark.django_db

OURS = Path(settings.BASE_DIR) / "locale" / "packages" / "pl" / "LC_MESSAGES"
SHIPPED = Path(django_otp_webauthn.__file__).parent / "locale" / "de" / "LC_MESSAGES"


def strings(path: Path) -> dict[str, str]:
    return {message.id: message.string for message in catalogues.read_po(path) if message.id}


def test_every_passkey_message_of_the_browser_is_in_polish():
    theirs, ours = strings(SHIPPED / "djangojs.po"), strings(OURS / "djangojs.po")
    assert len(theirs) > 20
    assert sorted(set(theirs) - set(ours)) == []  # a new release's string shows here
    assert all(ours.values()), [msgid for msgid, text in ours.items() if not text]


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_the_packages_catalogues_are_compiled(domain):
    po = OURS / f"{domain}.po"
    assert catalogues._same_mo(po.with_suffix(".mo").read_bytes(), catalogues.compiled(po))


def js_catalog(language: str) -> str:
    """The package's browser catalogue as a reader of ``language`` gets it (JSON: ``\\u``-escaped)."""
    return Client().get(reverse("otp_webauthn:js-i18n-catalog"), HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_a_polish_reader_gets_the_passkey_messages_in_polish():
    catalog = js_catalog("pl")
    assert f'"Registration successful!": {json.dumps("Rejestracja zakończona powodzeniem!")}' in catalog
    assert '"Registration successful!": "Registrierung erfolgreich!"' in js_catalog("de")  # its own German
    with translation.override("pl"):
        assert str(exceptions.CredentialDisabled().detail) == "Ten klucz dostępu jest wyłączony."
