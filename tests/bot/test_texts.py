"""The texts are data: one TOML file per language (``bot/present/texts``), read once by
``bot.present.catalog``, complete in every language and shipped inside the package."""

from __future__ import annotations

import fnmatch
import string
import tomllib
from pathlib import Path

import pytest

from bot.present import catalog
from bot.present.catalog import CATALOG, LANGUAGES, TEXTS, parse_texts

ROOT = Path(__file__).resolve().parents[2]
TEXTS_PATH = ROOT / "bot" / "present" / catalog.TEXTS_DIR


def _fields(text: str) -> list[tuple[str, str, str | None]]:
    """Each placeholder of ``text`` with its format spec and conversion, in order."""
    return sorted(
        (field, spec or "", conversion)
        for _, field, spec, conversion in string.Formatter().parse(text)
        if field is not None
    )


def test_every_language_file_holds_the_same_keys() -> None:
    english = set(TEXTS["en"])
    for lang in LANGUAGES:
        assert sorted(english - set(TEXTS[lang])) == [], f"missing in {lang}.toml"
        assert sorted(set(TEXTS[lang]) - english) == [], f"only in {lang}.toml"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_sentence_has_the_english_placeholders_in_every_language(lang: str) -> None:
    """Same names, specs and conversions (``{n}``, never ``{n!r}`` in one language only)."""
    differ = [
        key for key, en in TEXTS["en"].items() if _fields(en) != _fields(TEXTS[lang].get(key, en))
    ]
    assert differ == []


def test_every_sentence_is_a_format_template() -> None:
    """An unpaired brace would fail only when the sentence is shown; here it fails now."""
    for lang in LANGUAGES:
        for key, text in TEXTS[lang].items():
            try:
                list(string.Formatter().parse(text))
            except ValueError as error:
                pytest.fail(f"{lang}.toml {key}: {error}")


def test_one_file_per_language_and_nothing_else() -> None:
    assert sorted(p.name for p in TEXTS_PATH.iterdir()) == sorted(f"{x}.toml" for x in LANGUAGES)
    assert set(CATALOG) == set(TEXTS["en"])


def test_the_package_data_ships_the_text_files() -> None:
    """``pip install .`` copies only what ``package-data`` names: the files must match it."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["bot"]
    for path in TEXTS_PATH.iterdir():
        relative = path.relative_to(ROOT / "bot").as_posix()
        assert any(fnmatch.fnmatch(relative, p) for p in patterns), relative


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ('"a.b" = "one"\n"a.b" = "two"\n', "broken.toml: Cannot overwrite a value"),
        ('"a.b" = 3\n', "broken.toml: 'a.b' is not a string: 3"),
        ('"a.b" = "one\n', "broken.toml: "),
        ("[a]\nb = 'x'\n", "broken.toml: 'a' is not a string"),
    ],
)
def test_a_broken_file_names_itself_and_the_key(source: str, message: str) -> None:
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(")):
        parse_texts("broken.toml", source)
