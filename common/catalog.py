"""The address of the JavaScript catalog (``/jsi18n/``), which changes with its text.

The catalog is the same for everyone of a language until a deploy brings other
translations: its address says the language and a hash of the catalog's messages
(``?l=nl&v=...``), so a browser or proxy may keep it a year
(``config.urls.VersionedCatalog``); a new catalog is a new address.
"""

import functools
import hashlib

import django
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation.trans_real import DjangoTranslation

#: How long the catalog at its versioned address is kept (a year).
CATALOG_SECONDS = 365 * 24 * 3600


@functools.cache
def catalog_version(language: str) -> str:
    """A hash of ``language``'s JavaScript messages (and Django's version, which
    writes the catalog's script), once a process: a new catalog needs a restart to
    be read anyway."""
    messages = DjangoTranslation(language, domain="djangojs")._catalog.items()
    text = repr((django.get_version(), sorted(messages, key=repr)))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def catalog_url(language: str | None = None) -> str:
    """The catalog's address for ``language`` (the current one by default)."""
    language = language or get_language()
    return f"{reverse('javascript-catalog')}?l={language}&v={catalog_version(language)}"
