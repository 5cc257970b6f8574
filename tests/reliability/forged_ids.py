"""Forged custom_ids of every kind the parser knows, derived from the parser's own table
(``custom_ids.KINDS``): a kind added there is fuzzed here without a change.

Each field is made from its spec: a number in its range (and past it: 2**63, 2**64, 10**20,
negative, a leading zero, a sign, ``1_0``, spaces, digits of other scripts), one of its words,
text of its shape, a list of different cards. ``strategies`` are hypothesis's, for the parser
alone; ``variants`` is a fixed list per kind, for clicks through the real bot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from hypothesis import find
from hypothesis import strategies as st

from bot.present import custom_ids
from bot.present.id_fields import Cards, Field, Kind, Number, Text, Word
from engine.cards import BY_CODE

FOREIGN_DIGITS = (
    "٠١٢٣٤٥٦٧٨٩",  # Arabic-Indic
    "۰۱۲۳۴۵۶۷۸۹",  # Persian (Extended Arabic-Indic): what a Persian keyboard types
    "０１２３４５６７８９",  # fullwidth
    "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗",  # mathematical bold
)
"""Digits Python's ``int`` reads as numbers; no id of the bot holds one."""


def foreign(text: str, digits: str) -> str:
    """``text`` with its ASCII digits written in another script."""
    return text.translate(str.maketrans("0123456789", digits))


def past_bounds(number: Number, good: str) -> list[str]:
    """Texts ``number`` must refuse, around the in-range ``good``: past either bound, past 64
    bits, and every way ``int`` would read more than a plain number."""
    texts = [
        str(number.low - 1),
        str(number.high + 1),
        str(2**63),
        str(2**64),
        str(10**20),
        "9" * 40,
        "-" + good,
        "-0",
        "0" + good,
        "00",
        "+" + good,
        good[:1] + "_0" + good[1:],
        " " + good,
        good + " ",
        good + "\n",
        "",
        "0x1",
        "1e3",
        good + ".0",
        *(foreign(good, digits) for digits in FOREIGN_DIGITS),
    ]
    return list(dict.fromkeys(t for t in texts if t != good))


def join(tag: str, texts: Sequence[str]) -> str:
    return ":".join([custom_ids.PREFIX + tag, *texts])


# ---------------------------------------------------------------------- hypothesis


def field_text(spec: Field) -> st.SearchStrategy[str]:
    """Any text ``spec`` takes."""
    if isinstance(spec, Number):
        return st.integers(spec.low, spec.high).map(str)
    if isinstance(spec, Word):
        return st.sampled_from(spec.words)
    if isinstance(spec, Text):
        return st.from_regex(re.compile(spec.pattern, re.ASCII), fullmatch=True)
    if isinstance(spec, Cards):
        codes = st.sampled_from(tuple(BY_CODE))
        return st.lists(codes, unique=True, max_size=spec.most).map(".".join)
    raise AssertionError(f"a field the fuzz does not know: {spec!r}")


@st.composite
def valid_parts(draw: st.DrawFn, kind: Kind[custom_ids.Click]) -> tuple[str, list[str]]:
    """A tag of ``kind`` and the texts of its fields, every one in range (an optional field
    may be left out)."""
    tag = draw(st.sampled_from(kind.tags))
    texts = [draw(field_text(spec)) for spec in kind.fields]
    left_out = draw(st.integers(0, kind.optional))
    return tag, texts[: len(texts) - left_out]


# ---------------------------------------------------------------------- fixed lists


def samples(spec: Field, real: Mapping[str, Sequence[str]]) -> list[str]:
    """Texts ``spec`` takes: the real values the test names for it first, then its bounds,
    its words (the first and last of a long list), an example of its shape."""
    known = list(real.get(spec.name, ()))
    if isinstance(spec, Number):
        found = [*known, str(spec.low), str(spec.high)]
    elif isinstance(spec, Word):
        words = spec.words if len(spec.words) <= 8 else (spec.words[0], spec.words[-1])
        found = [*known, *words]
    elif isinstance(spec, Text):
        pattern = re.compile(spec.pattern, re.ASCII)
        found = known or [find(st.from_regex(pattern, fullmatch=True), lambda _: True)]
    elif isinstance(spec, Cards):
        codes = tuple(BY_CODE)
        found = [*known, ".".join(codes[: spec.most]), "", ".".join(codes[-1:])]
    else:
        raise AssertionError(f"a field the fuzz does not know: {spec!r}")
    return list(dict.fromkeys(found))


@dataclass
class Variants:
    """One kind's ids: those the parser must take, those it must refuse, and those it may
    take or refuse (cut short anywhere: a shorter id can still be a whole one)."""

    kind: str
    good: list[str] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)
    either: list[str] = field(default_factory=list)


def variants(kind: Kind[custom_ids.Click], real: Mapping[str, Sequence[str]]) -> Variants:
    """Every tag of ``kind``; each field at each of its samples, the others at their first;
    each number past its bounds; the id cut short, with an extra field, in other digits."""
    found = Variants(kind.name)
    texts = [samples(spec, real) for spec in kind.fields]
    base = [options[0] for options in texts]
    tag = kind.tags[0]
    found.good += [join(t, base) for t in kind.tags]
    for i, spec in enumerate(kind.fields):
        found.good += [join(tag, [*base[:i], text, *base[i + 1 :]]) for text in texts[i][1:]]
        if isinstance(spec, Number):
            past = past_bounds(spec, base[i])
            found.bad += [join(tag, [*base[:i], text, *base[i + 1 :]]) for text in past]
    if kind.optional:
        found.good.append(join(tag, base[: len(base) - kind.optional]))
    whole = join(tag, base)
    found.bad += [join(tag, base[:n]) for n in range(len(base) - kind.optional)]
    found.bad += [whole + ":1", whole + ":", whole + ":" + base[-1]]
    if re.search("[0-9]", whole):
        found.bad += [foreign(whole, digits) for digits in FOREIGN_DIGITS]
    found.either += [whole[:n] for n in range(len(custom_ids.PREFIX), len(whole))]
    found.good = list(dict.fromkeys(found.good))
    found.bad = list(dict.fromkeys(found.bad))
    return found
