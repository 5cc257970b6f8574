"""``/hokm rules`` for every format (issue 14's family, issue 17's Shelem), en + fa.

Catalog data like ``catalog.py``, which takes them in whole (``**RULES_TEXT``). The standard
game's text stays ``rules.text`` in the catalog; a variant's text is its own opening lines
(``rules.<format>``) followed by ``rules.play``, the rules every Hokm format shares. Each line
follows ``docs/rules.md``; Shelem's follows V6 there.
"""

from __future__ import annotations

from typing import Final

RULES_TEXT: Final[dict[str, dict[str, str]]] = {
    # a match's target as the rules name it: "1 point", "7 points" (Persian has one form)
    "rules.points_one": {"en": "{n} point", "fa": "{n} امتیاز"},
    "rules.points": {"en": "{n} points", "fa": "{n} امتیاز"},
    "rules.play": {
        "en": (
            "• The hakem leads; you must follow the led suit if you can. If you can't, play "
            "anything — a trump wins.\n"
            "• The highest trump wins the trick, otherwise the highest card of the led suit."
        ),
        "fa": (
            "• حاکم دست اول را شروع می‌کند؛ اگر از خالِ دست دارید باید همان را بازی کنید، وگرنه هر "
            "کارتی آزاد است و حکم می‌بُرد.\n"
            "• بالاترین حکم دست را می‌برد، وگرنه بالاترین کارتِ خالِ دست."
        ),
    },
    "rules.solo_scoring": {
        "en": (
            "• 7 tricks take the hand: 1 point; 2 (kot) if another player took none, 3 if that "
            "player is the hakem. If nobody reaches 7, most tricks take it for 1.\n"
            "• The hakem stays after winning; otherwise the winner becomes hakem.\n"
            "• First to {points} wins the match."
        ),
        "fa": (
            "• هر کس ۷ دست بگیرد آن دور را می‌برد: ۱ امتیاز؛ اگر بازیکن دیگری هیچ دستی نگرفته "
            "باشد کُت و ۲ امتیاز، و اگر آن بازیکن حاکم باشد ۳ امتیاز. اگر کسی به ۷ نرسد، بیشترین "
            "دست ۱ امتیاز می‌گیرد.\n"
            "• حاکم اگر ببرد می‌ماند؛ وگرنه برنده حاکم می‌شود.\n"
            "• اولین کسی که به {points} برسد برندهٔ بازی است."
        ),
    },
    "rules.team_scoring": {
        "en": (
            "• 7 tricks take the hand for the team: 1 point; 2 (kot) if another team took "
            "none, 3 if that team is the hakem's. If no team reaches 7, most tricks take it "
            "for 1.\n"
            "• The hakem stays after winning; otherwise the nearest player of the winning "
            "team becomes hakem.\n"
            "• First team to {points} wins the match."
        ),
        "fa": (
            "• تیمی که ۷ دست بگیرد آن دور را می‌برد: ۱ امتیاز؛ اگر تیم دیگری هیچ دستی نگرفته "
            "باشد کُت و ۲ امتیاز، و اگر آن تیمِ حاکم باشد ۳ امتیاز. اگر تیمی به ۷ نرسد، بیشترین "
            "دست ۱ امتیاز می‌گیرد.\n"
            "• حاکم اگر ببرد می‌ماند؛ وگرنه نزدیک‌ترین بازیکن تیم برنده حاکم می‌شود.\n"
            "• اولین تیمی که به {points} برسد برندهٔ بازی است."
        ),
    },
    "rules.two": {
        "en": (
            "**Hokm for two**\n"
            "• Each plays alone, with 51 cards (2♦ out). Cards dealt face up until an ace "
            "find the first hakem.\n"
            "• Five cards each; the hakem names trump, then each lays 2 down. Then, hakem "
            "first, each in turn sees the top card of the stock: keep it and lay the next "
            "down unseen by the other, or lay it down and take the next — until both hold 13.\n"
            "• 7 of 13 tricks take the hand: 1 point, 2 for a kot (7–0), 3 if the hakem took "
            "none. The winner is hakem next.\n"
            "• First to {points} wins the match."
        ),
        "fa": (
            "**حکم دونفره**\n"
            "• هر کس برای خودش با ۵۱ کارت (بی ۲ خشت) بازی می‌کند. کارت‌ها یکی‌یکی پخش و رو می‌شود "
            "تا آسِ اول حاکم را معلوم کند.\n"
            "• به هر کدام پنج کارت می‌رسد؛ حاکم حکم را می‌گوید و هر کدام ۲ کارت را کنار می‌گذارد. "
            "بعد، اول حاکم، هر کس به نوبت کارت روی دسته را می‌بیند: یا آن را برمی‌دارد و کارت بعدی "
            "را، بی آنکه حریف ببیند، کنار می‌گذارد، یا آن را کنار می‌گذارد و کارت بعدی را برمی‌دارد "
            "— تا هر دو ۱۳ کارت داشته باشند.\n"
            "• ۷ دست از ۱۳ دست آن دور را می‌برد: ۱ امتیاز، کُت (۷ بر ۰) ۲ امتیاز، و اگر حاکم هیچ دستی "
            "نگیرد ۳ امتیاز. برنده حاکم بعدی است.\n"
            "• اولین کسی که به {points} برسد برندهٔ بازی است."
        ),
    },
    "rules.three": {
        "en": (
            "**Hokm for three**\n"
            "• Each plays alone, with 51 cards (2♦ out): 17 each, dealt 5, then 4, 4, 4. The "
            "hakem names trump on his first five."
        ),
        "fa": (
            "**حکم سه‌نفره**\n"
            "• هر کس برای خودش با ۵۱ کارت (بی ۲ خشت) بازی می‌کند: به هر کس ۱۷ کارت، اول ۵ تا و بعد "
            "سه بار ۴ تا پخش می‌شود. حاکم حکم را با پنج کارت اولش می‌گوید."
        ),
    },
    "rules.five": {
        "en": (
            "**Hokm for five**\n"
            "• Each plays alone, with 50 cards (2♦ and 2♣ out): 10 each, dealt 5 and 5. The "
            "hakem names trump on his first five."
        ),
        "fa": (
            "**حکم پنج‌نفره**\n"
            "• هر کس برای خودش با ۵۰ کارت (بی ۲ خشت و ۲ گشنیز) بازی می‌کند: به هر کس ۱۰ کارت، دو "
            "بار ۵ تا پخش می‌شود. حاکم حکم را با پنج کارت اولش می‌گوید."
        ),
    },
    "rules.six_teams": {
        "en": (
            "**Hokm for six, two teams of three**\n"
            "• 48 cards (the 2s out): 8 each, dealt 4 and 4; the hakem names trump on his "
            "first four. Partners sit every other seat."
        ),
        "fa": (
            "**حکم شش‌نفره، دو تیم سه‌نفره**\n"
            "• ۴۸ کارت (بی ۲ها): به هر کس ۸ کارت، دو بار ۴ تا پخش می‌شود؛ حاکم حکم را با چهار کارت "
            "اولش می‌گوید. یارها یکی در میان می‌نشینند."
        ),
    },
    "rules.six_pairs": {
        "en": (
            "**Hokm for six, three teams of two**\n"
            "• 48 cards (the 2s out): 8 each, dealt 4 and 4; the hakem names trump on his "
            "first four. Partners sit opposite."
        ),
        "fa": (
            "**حکم شش‌نفره، سه تیم دونفره**\n"
            "• ۴۸ کارت (بی ۲ها): به هر کس ۸ کارت، دو بار ۴ تا پخش می‌شود؛ حاکم حکم را با چهار کارت "
            "اولش می‌گوید. یارها روبه‌روی هم می‌نشینند."
        ),
    },
    "rules.joker_six": {
        "en": (
            "**Joker six**\n"
            "• Two teams of three (partners every other seat), 54 cards with two jokers, 9 "
            "each. No hakem before the deal: in turn each bids the tricks their team will take "
            "(5 to 9, above the last bid) or passes; the highest bidder is hakem and names "
            "trump. If all pass, the dealer's team scores 1 and the cards are dealt again.\n"
            "• Jokers are trumps. The black joker beats every trump; the red beats the black, "
            "but played before the black it is burnt and worthless.\n"
            "• All 9 tricks are played. A bid made scores the tricks taken (all 9: 18; a bid of "
            "9 made: 36). A bid failed gives the other team twice the bid plus twice (bid − "
            "tricks − 1), at most 18.\n"
            "• First team to 124 points wins the match."
        ),
        "fa": (
            "**شش‌نفرهٔ جوکردار**\n"
            "• دو تیم سه‌نفره (یارها یکی در میان)، ۵۴ کارت با دو جوکر، به هر کس ۹ کارت. پیش از پخش "
            "حاکمی نیست: به نوبت هر کس می‌خواند تیمش چند دست می‌گیرد (۵ تا ۹، بیشتر از خواندهٔ "
            "قبلی) یا پاس می‌دهد؛ بیشترین خوانده حاکم می‌شود و حکم را می‌گوید. اگر همه پاس بدهند، "
            "تیم پخش‌کننده ۱ امتیاز می‌گیرد و دوباره پخش می‌شود.\n"
            "• جوکرها حکم‌اند. جوکر سیاه از همهٔ حکم‌ها بالاتر است؛ جوکر قرمز از سیاه هم بالاتر "
            "است، ولی اگر پیش از سیاه بازی شود سوخته و بی‌ارزش است.\n"
            "• هر ۹ دست بازی می‌شود. تیمی که به خوانده برسد به اندازهٔ دست‌هایی که گرفته امتیاز "
            "می‌گیرد (هر ۹ دست: ۱۸؛ خواندهٔ ۹ اگر برسد: ۳۶). اگر به خوانده نرسد، تیم مقابل دو برابر "
            "خوانده به‌اضافهٔ دو برابر (خوانده − دست‌ها − ۱) می‌گیرد، حداکثر ۱۸.\n"
            "• اولین تیمی که به ۱۲۴ امتیاز برسد برندهٔ بازی است."
        ),
    },
    "rules.shelem": {
        "en": (
            "**Shelem in short**\n"
            "• Four players, two teams: partners sit opposite. 12 cards each; 4 lie face down "
            "as the kitty.\n"
            "• Bidding: in turn each bids points, 100 to 165 in steps of 5, above the last "
            "bid, or passes for good; the last one left is hakem. A *shelem* bid claims every "
            "trick; an opponent still in may answer *sar-shelem* and become hakem without the "
            "kitty.\n"
            "• The hakem takes the kitty, lays 4 cards down (their points count for him), and "
            "his first card names trump. Follow suit; a trump wins.\n"
            "• Points: each trick 5; each 5 in it 5; each 10 and each ace 10 — 165 in a hand.\n"
            "• The hakem's team scores its bid if it takes that many points, twice the bid if "
            "it takes every trick; else it loses the bid, or twice the bid if the other team "
            "took more. The other team scores the points it took. Shelem and sar-shelem win "
            "or lose 330.\n"
            "• First team to {target} wins the match."
        ),
        "fa": (
            "**شلم به طور خلاصه**\n"
            "• چهار بازیکن در دو تیم؛ یارها روبه‌روی هم می‌نشینند. به هر کس ۱۲ کارت؛ ۴ کارت به پشت "
            "وسط میز می‌ماند که زمین نام دارد.\n"
            "• خواندن: به نوبت هر کس امتیازی از ۱۰۰ تا ۱۶۵ با گام ۵، بیشتر از خواندهٔ قبلی، "
            "می‌خواند یا برای همیشه پاس می‌دهد؛ آخرین نفر حاکم می‌شود. خواندن *شلم* یعنی گرفتن همهٔ "
            "دست‌ها؛ حریفی که هنوز پاس نداده می‌تواند *سرشلم* بخواند و بی زمین حاکم شود.\n"
            "• حاکم زمین را برمی‌دارد، ۴ کارت می‌خواباند (امتیازشان مال اوست) و اولین کارتش خال حکم "
            "را معلوم می‌کند. از خالِ دست باید بازی کرد؛ حکم می‌بُرد.\n"
            "• امتیاز: هر دست ۵؛ هر ۵ در آن ۵؛ هر ۱۰ و هر آس ۱۰ — در هر دور ۱۶۵.\n"
            "• تیم حاکم اگر به خوانده‌اش برسد همان را می‌گیرد، و اگر همهٔ دست‌ها را بگیرد دو "
            "برابرش؛ وگرنه به همان اندازه منفی می‌خورد، و اگر تیم مقابل بیشتر گرفته باشد دو برابر. "
            "تیم مقابل امتیازی را که گرفته می‌برد. شلم و سرشلم ۳۳۰ امتیاز می‌برند یا می‌بازند.\n"
            "• اولین تیمی که به {target} برسد برندهٔ بازی است."
        ),
    },
}
