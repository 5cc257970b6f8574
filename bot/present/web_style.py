"""The web page's one stylesheet and its one script, both inline and both allowed by
their hashes in the page's Content-Security-Policy (``web_html``), nothing else.

Laid out for a phone first: every page fits a 360 px wide screen with no horizontal scroll
(long names wrap anywhere, the matches are a list, not a table, the replay's seats sit round
a table in a grid that shrinks with the screen), then widens on a desktop. Light or dark as
the reader's system prefers. The cards are drawn here from Unicode suits: no image, no font.

The script is a few lines of keyboard stepping (← →) through a replay; it only follows the
page's own ◀ ▶ links, so the page works the same without it.
"""

from __future__ import annotations

from typing import Final

CSS: Final = """
:root{color-scheme:light dark;--bg:#f4f1ea;--ink:#1d1d1d;--surface:#fff;--line:#d6d2c8;
--muted:#5b5b5b;--link:#0b5d3b;--felt:#0b5d3b;--felt-ink:#fff;--seat:rgba(0,0,0,.28);
--card:#fff;--card-ink:#111;--card-red:#c1121f;--ring:#ffd23f;
--t0:#4493f8;--t1:#f25a52;--t2:#e3b341;--t3:#b083f0;--t4:#f0883e;--t5:#3fb950}
@media (prefers-color-scheme:dark){:root{--bg:#16181b;--ink:#e7e5e1;--surface:#202327;
--line:#3a3e44;--muted:#a9adb2;--link:#7bd3a6;--felt:#0d4730;--seat:rgba(0,0,0,.35);
--card:#f3f1ec;--card-ink:#111;--card-red:#b3101c}}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);line-height:1.45;
font-family:system-ui,"Noto Sans","Noto Sans Arabic","Vazirmatn",Tahoma,sans-serif}
header,main,footer{max-width:64rem;margin:0 auto;padding:0 .75rem;overflow-wrap:anywhere}
header{display:flex;justify-content:space-between;align-items:baseline;flex-wrap:wrap;
column-gap:1rem}
h1{font-size:1.3rem;margin:.8rem 0 .3rem}
h2{font-size:1.15rem;margin:1.3rem 0 .5rem}
h3{font-size:1rem;margin:1rem 0 .4rem}
a{color:var(--link)}
nav a,nav strong{display:inline-block;margin-inline-end:.8rem;padding:.15rem 0}
code{font-family:ui-monospace,Menlo,monospace;font-size:.95em;white-space:nowrap}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);
white-space:nowrap}
table{border-collapse:collapse;width:100%;background:var(--surface)}
th,td{padding:.35rem .25rem;border-bottom:1px solid var(--line);text-align:start;
vertical-align:top}
td{font-size:.94rem}
th{font-size:.85rem;font-weight:600}
.num{text-align:end;font-variant-numeric:tabular-nums;white-space:nowrap;
overflow-wrap:normal}
th.num{white-space:normal;overflow-wrap:anywhere}
td.player{width:50%;min-width:6rem}
.computer{font-family:ui-monospace,Menlo,monospace;font-size:.92em}
.note,footer{color:var(--muted);font-size:.9rem}
.pager{margin:.75rem 0;display:flex;flex-wrap:wrap;gap:.4rem 1rem}
.off{color:var(--muted);opacity:.75}
.matches{list-style:none;margin:0;padding:0}
.match{background:var(--surface);border:1px solid var(--line);border-radius:.6rem;
margin:.5rem 0;padding:.45rem .7rem}
.match .meta{display:flex;flex-wrap:wrap;align-items:baseline;gap:.2rem .8rem;
color:var(--muted);font-size:.88rem}
.match .meta .replay{margin-inline-start:auto;font-size:1rem}
.teams{list-style:none;margin:0;padding:0}
.team{display:flex;align-items:baseline;gap:.5rem;padding:.1rem 0}
.team .names{flex:1 1 auto;min-width:0}
.team.win .names{font-weight:700}
.swatch{display:inline-block;width:.75rem;height:.75rem;border-radius:50%;flex:none;
background:var(--team);border:1px solid rgba(0,0,0,.35)}
.score{flex:none;min-width:2.2rem;text-align:center;font-weight:700;
font-variant-numeric:tabular-nums;border:2px solid var(--team,var(--line));
border-radius:1rem;padding:0 .45rem;background:var(--bg);white-space:nowrap}
.replay{white-space:nowrap}
.t0{--team:var(--t0)}.t1{--team:var(--t1)}.t2{--team:var(--t2)}
.t3{--team:var(--t3)}.t4{--team:var(--t4)}.t5{--team:var(--t5)}
.steps{display:flex;flex-wrap:wrap;gap:.4rem;margin:.5rem 0}
.steps a,.steps span{font-size:1.3rem;line-height:1.2;padding:.25rem .8rem;
border-radius:.4rem;background:var(--surface);color:var(--link);text-decoration:none;
border:1px solid var(--line)}
.steps span{color:var(--muted)}
.felt{background:var(--felt);color:var(--felt-ink);border-radius:1.2rem;padding:.5rem;
margin:.8rem 0;display:grid;grid-template-columns:repeat(6,minmax(0,1fr));gap:.4rem}
.felt a{color:var(--felt-ink)}
.n2{grid-template-areas:"s1 s1 s1 s1 s1 s1" "mid mid mid mid mid mid" "s0 s0 s0 s0 s0 s0"}
.n3{grid-template-areas:"s2 s2 s2 s1 s1 s1" "mid mid mid mid mid mid" "s0 s0 s0 s0 s0 s0"}
.n4{grid-template-areas:"s2 s2 s2 s2 s2 s2" "s3 s3 mid mid s1 s1" "s0 s0 s0 s0 s0 s0"}
.n5{grid-template-areas:"s3 s3 s3 s2 s2 s2" "s4 s4 mid mid s1 s1" "s0 s0 s0 s0 s0 s0"}
.n6{grid-template-areas:"s4 s4 s3 s3 s2 s2" "s5 s5 mid mid s1 s1" "s0 s0 s0 s0 s0 s0"}
.s0{grid-area:s0}.s1{grid-area:s1}.s2{grid-area:s2}
.s3{grid-area:s3}.s4{grid-area:s4}.s5{grid-area:s5}
.seat{background:var(--seat);border-radius:.6rem;padding:.3rem .4rem;min-width:0;
border-top:4px solid var(--team)}
.seat h3{font-size:.85rem;margin:0 0 .25rem;font-weight:600;display:flex;flex-wrap:wrap;
align-items:center;gap:.1rem .3rem}
.seat .hakem{font-size:.75rem;background:var(--ring);color:#111;border-radius:.6rem;
padding:0 .35rem;font-weight:700}
.mid{grid-area:mid;display:grid;grid-template-columns:repeat(3,minmax(0,1fr));
grid-template-rows:repeat(3,auto);gap:.2rem;align-items:center;justify-items:center;
min-height:6rem;padding:.2rem}
.mid .trump{grid-area:2/2;font-size:1.6rem;opacity:.6}
.p-tl{grid-area:1/1}.p-t{grid-area:1/2}.p-tr{grid-area:1/3}
.p-l{grid-area:2/1}.p-r{grid-area:2/3}.p-b{grid-area:3/2}
.play{position:relative}
.mid .card{width:1.9rem;height:2.7rem}.mid .card .pip{font-size:1.15rem}
.final .teams{max-width:40rem}
.play .order{position:absolute;top:-.35rem;inset-inline-end:-.35rem;font-size:.65rem;
background:var(--surface);color:var(--ink);border-radius:50%;width:1rem;height:1rem;
line-height:1rem;text-align:center;z-index:1}
.play.took .card{outline:3px solid var(--ring);outline-offset:1px}
.hand{display:flex;flex-wrap:wrap;padding-inline-start:.8rem;min-height:2.8rem;
row-gap:.25rem}
.hand .card{margin-inline-start:-.8rem}
.seat[dir=rtl] .hand{justify-content:flex-end}
.card{display:inline-block;position:relative;width:2.4rem;height:3.4rem;flex:none;
background:var(--card);border:1px solid #777;border-radius:.3rem;
box-shadow:0 1px 2px rgba(0,0,0,.4);color:var(--card-ink);direction:ltr;
font-family:Georgia,"DejaVu Serif",serif}
.hand .card{width:1.75rem;height:2.5rem}
.card.red{color:var(--card-red)}
.card .corner{position:absolute;top:.12rem;left:.18rem;font-size:.72rem;line-height:1.05;
font-weight:700;text-align:center}
.card .pip{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;
font-size:1.5rem}
.hand .card .pip{font-size:1rem;align-items:flex-end;justify-content:flex-end;
padding:0 .15rem .1rem 0}
.star{display:inline-block;width:1em;height:1em;background:currentColor;
clip-path:polygon(50% 0,61% 35%,98% 35%,68% 57%,79% 91%,50% 70%,21% 91%,32% 57%,2% 35%,39% 35%)}
.card.joker{color:var(--card-red)}
.card.joker.black,.chip.black{background:#1b1b1b;border-color:#000;color:#fff}
.chip{display:inline-block;border:1px solid var(--card-red);border-radius:.2rem;
padding:0 .12rem;line-height:1;background:var(--card);color:var(--card-red)}
.chip .star{width:.8em;height:.8em;vertical-align:-.05em}
.said{margin:.3rem 0}
.tricks{padding-inline-start:0;list-style:none;margin:.3rem 0}
.tricks li{margin:.15rem 0}
.tricks a{display:block;padding:.2rem .4rem;border-radius:.35rem;text-decoration:none;
color:var(--ink);border:1px solid transparent}
.tricks a:hover,.tricks a:focus{border-color:var(--line)}
.tricks a[aria-current]{background:var(--surface);border-color:var(--link)}
.tricks .n{color:var(--muted);font-variant-numeric:tabular-nums}
.tricks .cards{font-family:Georgia,"DejaVu Serif",serif;white-space:nowrap}
.tricks .red:not(.chip){color:var(--card-red)}
@media (prefers-color-scheme:dark){.tricks .red:not(.chip){color:#ff7b72}}
@media (min-width:40rem){header,main,footer{padding:0 1rem}h1{font-size:1.5rem}
th,td{padding:.4rem .6rem}th,td{font-size:inherit}.felt{padding:1rem;gap:.7rem}
.seat h3{font-size:.95rem}.mid{min-height:9rem}
.hand{padding-inline-start:1.1rem}.hand .card{margin-inline-start:-1.1rem;width:2.5rem;
height:3.5rem}.hand .card .corner{font-size:.8rem}.hand .card .pip{font-size:1.3rem}
.card,.mid .card{width:2.7rem;height:3.8rem}.card .corner{font-size:.8rem}
.card .pip,.mid .card .pip{font-size:1.7rem}}
""".strip()
"""The page's only stylesheet, inline; the policy names its hash, so it alone applies."""

SCRIPT: Final = (
    'document.addEventListener("keydown",function(e){'
    "if(e.altKey||e.ctrlKey||e.metaKey||e.shiftKey||e.defaultPrevented)return;"
    'var s={ArrowLeft:"back",ArrowRight:"forward"}[e.key],'
    "a=s&&document.querySelector('a[data-step=\"'+s+'\"]');"
    "if(a){e.preventDefault();location.href=a.href}})"
)
"""A replay's keyboard stepping: ← and → follow its ◀ and ▶ links (left to right in both
languages, as the links are). Nothing else: without it the links do the same."""
