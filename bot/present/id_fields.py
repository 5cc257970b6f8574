"""The fields a button's ``custom_id`` is made of, each read strictly and in its range.

``custom_ids`` lists every kind of id as a ``Kind``: its tags and its fields. One generic
reader checks every field of every kind, so a number past its range, a sign, a leading zero or
a digit of another script is refused the same way for all of them, and the tests can walk the
same table to fuzz every kind (``tests/reliability/test_hostile_input.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from engine import Card
from engine.cards import BY_CODE

_DIGITS: Final = re.compile(r"0|[1-9][0-9]*")
"""``int`` alone takes ``+1``, ``1_0``, `` 1`` and Persian or Arabic digits: not here."""


@dataclass(frozen=True, slots=True)
class Number:
    """A whole number from ``low`` to ``high``, in ASCII digits without a sign or a leading 0."""

    name: str
    low: int
    high: int

    def read(self, text: str) -> int | None:
        if len(text) > len(str(self.high)) or _DIGITS.fullmatch(text) is None:
            return None
        value = int(text)
        return value if self.low <= value <= self.high else None


@dataclass(frozen=True, slots=True)
class Word:
    """One of a few fixed words: a letter that names a choice, a card's code, a bid."""

    name: str
    words: tuple[str, ...]

    def read(self, text: str) -> str | None:
        return text if text in self.words else None


@dataclass(frozen=True, slots=True)
class Text:
    """Text of one shape, in ASCII: a table's id, a match's, a format's name."""

    name: str
    pattern: str

    def read(self, text: str) -> str | None:
        return text if re.fullmatch(self.pattern, text, re.ASCII) else None


@dataclass(frozen=True, slots=True)
class Cards:
    """Up to ``most`` different cards, their codes joined by dots (the hakem's chosen cards)."""

    name: str
    most: int

    def read(self, text: str) -> tuple[Card, ...] | None:
        codes = text.split(".") if text else []
        if len(codes) > self.most or len(set(codes)) != len(codes):
            return None
        if not all(code in BY_CODE for code in codes):
            return None
        return tuple(BY_CODE[code] for code in codes)


Field = Number | Word | Text | Cards
Value = int | str | tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Fields:
    """The fields of one id, read and in range; ``tag`` the letters that named its kind."""

    tag: str
    values: dict[str, Value]

    def num(self, name: str) -> int:
        value = self.values[name]
        assert isinstance(value, int)
        return value

    def text(self, name: str, default: str = "") -> str:
        value = self.values.get(name, default)
        assert isinstance(value, str)
        return value

    def cards(self, name: str) -> tuple[Card, ...]:
        value = self.values.get(name, ())
        assert isinstance(value, tuple)
        return value


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Kind(Generic[T]):
    """One kind of button: ``hokm:<tag>:<field>:…`` for each of ``tags``; the last
    ``optional`` fields may be left out. ``make`` turns its fields into what it claims."""

    name: str
    tags: tuple[str, ...]
    fields: tuple[Field, ...]
    make: Callable[[Fields], T]
    optional: int = 0

    def read(self, tag: str, parts: Sequence[str]) -> T | None:
        """The click of ``parts`` (the id after its tag); None when a field is missing, extra,
        or not of its shape and range."""
        if not len(self.fields) - self.optional <= len(parts) <= len(self.fields):
            return None
        values: dict[str, Value] = {}
        for field, text in zip(self.fields, parts, strict=False):
            value = field.read(text)
            if value is None:
                return None
            values[field.name] = value
        return self.make(Fields(tag, values))
