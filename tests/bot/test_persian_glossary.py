"""One Persian word per thing, each word in one sense only.

For every catalog sentence the sense is read from its English text: "trick" is a trick, "hand
N"/"the hand" is one deal played out, "my/your hand" is the cards a player holds, "match" is the
match, and so on. Each ``Term`` says which Persian word that sense takes and, for the words kept
to one sense (``only``), that the Persian word appears nowhere the English lacks the sense. The
forbidden strings are the wrong meanings, misspellings and the informal register the issue
names. ``docs/rules.md`` ("Persian words") lists the same terms; the last test keeps the two
in step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import pytest

from bot.present.catalog import CATALOG

_W = r"[\w\u200c]"  # a word character, the zero-width non-joiner (نیم‌فاصله) inside a word too


def _word(stem: str, suffixes: str = "") -> str:
    """A regex for ``stem`` as a word of its own, with the given suffixes only."""
    return rf"(?<!{_W})(?:{stem})(?:{suffixes})?(?!{_W})"


# «دست» a trick: «دست», «دست‌ها», «دست‌های», «دست‌هایش», «دستِ», «دستی» (never «دست‌کم», "at least").
TRICK = _word("دست", "\u200c?ها(?:ی|یش|یشان|یتان)?|ِ|ی")
# «دور» a hand: «دور», «دورها», «دورهای», «دورِ».
HAND = _word("دور", "\u200c?ها(?:ی)?|ِ")
KITTY = _word("زمین")
# «پخش» a deal, «پخش‌کننده» the dealer, «پخشِ», «پخشی»; «بازپخش» (a replay) is another word.
DEAL = _word("پخش", "\u200cکننده(?:\u200cاید|\u200cای)?|ِ|ی")
LAY_DOWN = _word("خواب|بخواب|می\u200cخواب", r"ان\w*|اند\w*")
PASS = _word("پاس", "ی")

# The English for a hand held (the cards a player holds), not a hand played.
HELD_EN = r"\b(?:my|your|someone else's) hand\b"
HELD_KEYS: dict[str, str] = {
    "replay.leads": "'Every hand as play began' is every player's cards before the first trick",
    "table.stock": "'Building the hands' is the two players' cards being drawn (V2)",
    **{
        key: "'the hands are drawn' is the two players' cards being drawn (V2)"
        for key in ("analysis.trump_not_graded", "analysis.not_graded_trumps")
    },
    **{
        key: "'with every hand known' is every player's cards seen (the double-dummy view)"
        for key in (
            "analysis.heading",
            "analysis.hand",
            "analysis.trump",
            "analysis.mark",
            "web.analysis",
        )
    },
}
# V2 two players lays cards aside (the seed 002: «بیرون انداختن»), which is not Shelem's laying
# down (the seed 004: «خواباندن»): «کنار گذاشتن» there.
TWO_PLAYER_DISCARD: dict[str, str] = {
    key: "two-player Hokm's discard is laid aside, «کنار گذاشتن»; «خواباندن» is Shelem's"
    for key in ("hand.discard", "hand.draw", "hand.face_down", "rules.two")
}
# "Kots dealt" (kots inflicted) is no deal of cards.
NOT_A_DEAL_EN = r"\bkots dealt\b"


@dataclass(frozen=True)
class Term:
    """One thing and its one Persian word."""

    sense: str  # as the glossary in docs/rules.md names it
    word: str  # the Persian word, as the glossary shows it
    english: str  # the English that carries this sense (a regex, case-insensitive)
    persian: str  # what the Persian must contain where the English has the sense
    only: str | None = None  # a Persian word kept to this sense: absent where the English lacks it
    skip: dict[str, str] = field(default_factory=dict)  # key -> why the rule does not apply


TERMS: tuple[Term, ...] = (
    Term("a hand (one deal played out)", "دور", r"\bhands?\b", HAND, only=HAND, skip=HELD_KEYS),
    # the led suit is the suit of the trick: «خالِ دست»
    Term("a trick", "دست", r"\btricks?\b|\bled suit\b|\bfollow suit\b", TRICK, only=TRICK),
    Term("the match", "بازی", r"\bmatch(?:es)?\b", r"بازی"),
    Term("the cards a player holds", "کارت‌ها", HELD_EN, r"کارت"),
    Term("a deal", "پخش", r"\b(?:re)?deal(?:s|t|ing|er)?\b", DEAL, only=DEAL),
    Term(
        "a redeal",
        "پخش دوباره",
        r"\bredeal|\b(?:dealt|deals) again\b|\bnew deal\b",
        r"پخش دوباره|دوباره پخش",
    ),
    Term("the dealer", "پخش‌کننده", r"\bdealer\b", r"پخش\u200cکننده"),
    Term("the kitty (Shelem)", "زمین", r"\bkitty\b", KITTY, only=KITTY),
    Term("the led suit", "خالِ دست", r"\bled suit\b|\bfollow suit\b", r"خالِ دست"),
    Term(
        "lay down (Shelem)",
        "خواباندن",
        r"\b(?:lay|lays|laid|laying)(?: \S+){0,2} down\b",
        LAY_DOWN,
        only=LAY_DOWN,
        skip=TWO_PLAYER_DISCARD,
    ),
    Term("face down", "به پشت", r"\bface down\b", r"به پشت"),
    Term("face up", "رو", r"\bface up\b", r"(?<![\w\u200c])رو (?:کردن|کرد|می‌کن|شد|شود|می‌شو)"),
    Term("the deuce", "دولو", r"\bthe 2\b", r"دولو"),
    Term("pass (a bid)", "پاس", r"\bpass(?:es|ed)?\b", PASS, only=PASS),
    Term("a bid", "خواندن، خوانده", r"\bbid(?:s|ding|der)?\b", r"خوان"),
    Term(
        "a bid made, failed",
        "به خوانده رسید، به خوانده نرسید",
        r"\bbids? (?:made|fails?|failed)\b|\bmake their bid\b|\bfall short of\b",
        r"به خوانده",
    ),
    Term("the defenders", "تیم مقابل", r"\bdefenders\b", r"تیم مقابل"),
    Term("a partner", "یار", r"\bpartners?\b", r"یار"),
    Term("the hakem", "حاکم", r"\bhakem\b", r"حاکم"),
    Term("trump", "حکم", r"\btrumps?\b", r"حکم"),
    Term("a kot", "کُت", r"\bkots?\b", r"کُت"),
    Term("seven–nil", "هفت بر هیچ", r"\bseven–nil\b", r"هفت بر هیچ"),
    Term("the standings", "جدول رده‌بندی", r"\bstandings\b|\bleaderboard\b", r"رده‌بندی"),
    Term("cancelled by someone", "… میز را لغو کرد", r"\bcancelled by\b", r"میز را لغو کرد"),
    Term("a replay", "بازپخش", r"\breplays?\b", r"بازپخش"),
)


class Wrong(NamedTuple):
    """A string the Persian catalog never holds, and why."""

    name: str
    pattern: str
    why: str


FORBIDDEN: tuple[Wrong, ...] = (
    Wrong("clubs", "گیشنیز", "clubs are «گشنیز», as the suit's name everywhere else"),
    Wrong("defenders", "مدافعان", "the defenders are «تیم مقابل»"),
    Wrong("those", "آنها", "«آن‌ها», with the non-joiner"),
    Wrong("seven-nil", "هفت–هیچ", "seven–nil reads «هفت بر هیچ»"),
    Wrong("bid-failed", "خوانده نشد|گرفته نشود", "a bid failed: «به خوانده نرسید»"),
    Wrong("bid-made", "خوانده گرفت|گرفته‌شده", "a bid made: «به خوانده رسید»"),
    Wrong("redeal", "دست دوباره", "a redeal is «پخش دوباره»"),
    Wrong("led-suit", r"خال ?زمین", "the led suit is «خالِ دست»; «زمین» is the kitty"),
    Wrong(
        "passive", "توسط", "a passive with «توسط» reads as a translation: «{name} میز را لغو کرد»"
    ),
    Wrong("nothing-yet", "هنوز هیچ", "«هنوز کارتی نیامده»"),
    Wrong(
        "excused", "معاف", "one word for pass in every game, «پاس» (the joker six's seed: «معاف»)"
    ),
    Wrong("dealer", "ورق[ \u200c]?دهنده|دست\u200cدهنده", "the dealer is «پخش‌کننده»"),
    Wrong("trick-loanword", "تریک", "a trick is «دست»"),
    Wrong("two-highest", "دو بالاترین", "read 'two highest': the 2 is «دولو»"),
    Wrong("two-kings", "دو تا شاه", "read 'then two kings': «دولو … تا شاه»"),
    Wrong("unseen", "ندیده برای دیگری", "said the opposite of 'unseen by the other'"),
    Wrong("said-trump", r"حکم را \S+ گفت", "«خشت حکم کرد»"),
    Wrong("table", r"جدول(?! رده‌بندی)", "the standings are «جدول رده‌بندی»"),
    Wrong("leave", r"^ترک$", "the Leave button is «ترک میز»"),
    Wrong("face-down", "رو به پایین", "face down is «به پشت» (the seed 004)"),
    Wrong(
        "lone-ru",
        r"(?<![\w\u200c])رو(?![\w\u200c])(?! (?:کردن|کرد|می‌کن|شد|شود|می‌شو))",
        "a lone «رو» reads as colloquial «را»: «رو» only in «رو کردن»/«رو شدن» (face up)",
    ),
    Wrong("hint", r"راهنما(?![یئ])", "a hint is «راهنمایی»"),
    Wrong("teammate", "هم‌تیمی", "a partner is «یار»"),
    Wrong("rated", "امتیازدار", "a rated match is «بازی حساب‌شده»"),
    Wrong(
        "informal-imperative",
        r"(?<![\w\u200c])(?:بزن|ببین|بگو|بکن|بده|بگذار|بردار|بمان|بنشین)(?![\w\u200c])",
        "the bot says شما to everyone: «بزنید», «ببینید», …",
    ),
    Wrong(
        "informal-your",
        r"\u200cهایت(?![\w\u200c])|(?<![\w\u200c])(?:کارتت|دستت|یارت)(?![\w\u200c])",
        "the bot says شما to everyone: «کارت‌هایتان», …",
    ),
)


def _sense(term: Term, english: str) -> bool:
    text = re.sub(r"\{\w+\}", "X", english)  # a placeholder's name is no word of the sentence
    if term.english != HELD_EN:
        text = re.sub(HELD_EN, "", text, flags=re.IGNORECASE)
    text = re.sub(NOT_A_DEAL_EN, "", text, flags=re.IGNORECASE)
    return re.search(term.english, text, flags=re.IGNORECASE) is not None


def _keys(term: Term) -> list[str]:
    return [key for key in sorted(CATALOG) if key not in term.skip]


@pytest.mark.parametrize("term", TERMS, ids=lambda term: term.sense)
def test_each_sense_takes_its_one_persian_word(term: Term) -> None:
    wrong = [
        f"{key}: {CATALOG[key]['fa']!r}"
        for key in _keys(term)
        if _sense(term, CATALOG[key]["en"]) and not re.search(term.persian, CATALOG[key]["fa"])
    ]
    assert wrong == [], f"{term.sense} without «{term.word}»:\n" + "\n".join(wrong)


@pytest.mark.parametrize("term", [t for t in TERMS if t.only], ids=lambda term: term.sense)
def test_a_word_kept_to_one_sense_appears_only_in_it(term: Term) -> None:
    assert term.only is not None
    wrong = [
        f"{key}: {CATALOG[key]['fa']!r}"
        for key in _keys(term)
        if re.search(term.only, CATALOG[key]["fa"]) and not _sense(term, CATALOG[key]["en"])
    ]
    assert wrong == [], f"«{term.word}» where the English has no {term.sense}:\n" + "\n".join(wrong)


def test_the_cards_a_player_holds_are_never_a_trick() -> None:
    held = [k for k in sorted(CATALOG) if re.search(HELD_EN, CATALOG[k]["en"], re.I)]
    held += list(HELD_KEYS)
    assert len(held) >= 6, held  # My hand (button, two notices), your hand, someone else's
    wrong = [
        f"{key}: {CATALOG[key]['fa']!r}"
        for key in held
        if re.search(TRICK, CATALOG[key]["fa"]) or "کارت" not in CATALOG[key]["fa"]
    ]
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize("bad", FORBIDDEN, ids=lambda bad: bad.name)
def test_no_wrong_word_misspelling_or_informal_register(bad: Wrong) -> None:
    wrong = [
        f"{key}: {CATALOG[key]['fa']!r}"
        for key in sorted(CATALOG)
        if re.search(bad.pattern, CATALOG[key]["fa"], flags=re.MULTILINE)
    ]
    assert wrong == [], f"{bad.why}:\n" + "\n".join(wrong)


def test_discord_permission_names_stay_in_english_with_the_persian_beside_them() -> None:
    perms = [key for key in CATALOG if key.startswith("perm.")]
    assert perms
    for key in perms:
        english, persian = CATALOG[key]["en"], CATALOG[key]["fa"]
        assert re.fullmatch(rf"{re.escape(english)} \([^()A-Za-z]+\)", persian), key
    assert "Manage Server (" in CATALOG["error.not_admin"]["fa"]


def test_the_glossary_in_the_rules_lists_these_words() -> None:
    rules = (Path(__file__).parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "\n## Persian words" in rules
    section = rules.split("\n## Persian words", 1)[1].split("\n## ", 1)[0]
    rows = {
        cells[0]: cells[1]
        for line in section.splitlines()
        if line.startswith("| ")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    for term in TERMS:
        assert term.sense in rows, term.sense
        assert term.word in rows[term.sense], (term.sense, rows[term.sense])
