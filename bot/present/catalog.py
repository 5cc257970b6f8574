"""Every sentence a user sees, read once from one data file per language.

Discord has no Persian locale, so the language is a per-server setting and the bot translates
its own text. The sentences live in ``bot/present/texts/<language>.toml`` (a flat table: a
quoted key, its sentence with ``{placeholders}`` for ``str.format``), apart from the functions
that look them up and fill them in (``bot.present.i18n``): a translator edits one file of
strings, and a new sentence is a line in each file, not a line of code. Why TOML and not
gettext or Fluent: docs/architecture.md, "Texts".

The files are read when this module is first imported, never again: a lookup is two dict
lookups. ``CATALOG`` keeps the shape the presenter and the tests have always used, key ->
language -> sentence.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Final, Literal

from engine import Suit

Language = Literal["en", "fa"]
LANGUAGES: Final = ("en", "fa")

TEXTS_DIR: Final = "texts"
"""The data files' folder inside this package (shipped as package data, pyproject.toml)."""


def load_texts(lang: str) -> dict[str, str]:
    """The sentences of ``lang``'s data file, key -> sentence."""
    path = resources.files(__package__ or "bot.present").joinpath(TEXTS_DIR, f"{lang}.toml")
    return parse_texts(f"{TEXTS_DIR}/{lang}.toml", path.read_text(encoding="utf-8"))


def parse_texts(name: str, source: str) -> dict[str, str]:
    """The sentences a data file holds.

    A file that is not valid TOML (a key twice included), or a value that is not a string,
    stops the bot at start with the file, the key and what is wrong, rather than a wrong
    sentence shown later.
    """
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{name}: {error}") from error
    for key, text in data.items():
        if not isinstance(text, str):
            raise ValueError(f"{name}: {key!r} is not a string: {text!r}")
    return data


TEXTS: Final[dict[str, dict[str, str]]] = {lang: load_texts(lang) for lang in LANGUAGES}
"""Language -> key -> sentence, as the files hold them."""

CATALOG: Final[dict[str, dict[str, str]]] = {
    key: {lang: TEXTS[lang][key] for lang in LANGUAGES if key in TEXTS[lang]} for key in TEXTS["en"]
}
"""Key -> language -> sentence: English names every key (``tests/bot/test_texts.py`` checks
each other language has the same keys with the same placeholders)."""

SUIT_NAMES: Final[dict[str, tuple[str, ...]]] = {
    lang: tuple(TEXTS[lang][f"suit.{suit.name.lower()}"] for suit in Suit) for lang in LANGUAGES
}
"""Language -> the suits' names in the engine's order (``suit.spades`` … in the files)."""
