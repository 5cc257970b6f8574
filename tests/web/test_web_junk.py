"""The web page under junk requests. A request line or header over aiohttp's limits
(or a character a URL may not hold) gets the page's plain 400 with the page's headers, not
aiohttp's own that echoes the path, and at most one short warning line without the path; no
answer names the software; an address of the wrong shape (a server id with a leading zero,
too long, not digits; a secret or match id of the wrong shape; a query no page has) is the one
404 and never reaches the store; the address without its final slash redirects to it; and
past a bound on requests a second the page answers 503 without reading the store."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from urllib.parse import urljoin

import pytest
from yarl import URL

from bot.web.edge import HEADERS, QuietLog, TokenBucket

from .conftest import GUILD, Served, serving

Answer = tuple[int, dict[str, str], bytes]


async def raw(served: Served, request: bytes) -> Answer:
    """Send ``request`` as bytes on a socket of its own; the status, headers and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", served.web.port)
    writer.write(request)
    await writer.drain()
    answer = await reader.read()  # a 400 closes the connection
    writer.close()
    await writer.wait_closed()
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, body


def assert_page_headers(headers: dict[str, str]) -> None:
    """The page's headers, and none naming the software."""
    lowered = {name.lower(): value for name, value in headers.items()}
    for name, value in HEADERS.items():
        assert lowered.get(name.lower()) == value, name
    assert "server" not in lowered


def assert_quiet_logs(caplog: pytest.LogCaptureFixture, secret: str, most: int) -> None:
    """No ERROR, no traceback, no path or secret in any line; at most ``most`` warnings."""
    for record in caplog.records:
        said = record.getMessage()
        assert record.levelno < logging.ERROR, said
        assert record.exc_info is None and not record.exc_text, said
        assert secret not in said and "/g/" not in said and "xxxx" not in said, said
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) <= most
    assert all(len(r.getMessage()) < 120 for r in warnings)


async def test_a_request_over_aiohttps_limits_gets_the_pages_400_and_one_short_warning(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret = served.secret
    home = f"/g/{GUILD}/{secret}/".encode()
    many = b"".join(b"X-%d: 1\r\n" % n for n in range(200))
    junk = {
        "line over max_line_size": b"GET " + home + b"x" * 9000 + b" HTTP/1.1\r\nHost: a\r\n\r\n",
        "header over max_field_size": b"GET "
        + home
        + b" HTTP/1.1\r\nX-A: "
        + b"y" * 9000
        + b"\r\n\r\n",
        "a header name over it": b"GET " + home + b" HTTP/1.1\r\n" + b"z" * 9000 + b": 1\r\n\r\n",
        "too many headers": b"GET " + home + b" HTTP/1.1\r\nHost: a\r\n" + many + b"\r\n",
        "a control character": b"GET " + home + b"\x01 HTTP/1.1\r\nHost: a\r\n\r\n",
    }
    bodies = set()
    for what, request in junk.items():
        status, headers, body = await raw(served, request)
        assert status == 400, what
        assert_page_headers(headers)
        assert secret.encode() not in body and b"/g/" not in body and b"Got more" not in body
        assert b"400" in body and headers["content-type"] == "text/html; charset=utf-8"
        bodies.add(body)
    assert len(bodies) == 1  # the one plain 400, whatever was wrong
    assert_quiet_logs(caplog, secret, most=len(junk))
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert said and all("400" in line for line in said)
    assert served.counted.calls == []
    # the server is none the worse: the page still opens
    status, _, _ = await served.get(served.home)
    assert status == 200


def test_a_junk_warning_is_said_once_a_minute_with_how_many_went_unsaid(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    now = [100.0]
    quiet = QuietLog("a malformed request answered 400", every=60, clock=lambda: now[0])
    for _ in range(50):
        quiet.note("LineTooLong")
    assert [r.getMessage() for r in caplog.records] == [
        "web page: a malformed request answered 400 (LineTooLong)"
    ]
    now[0] += 61
    quiet.note("BadHttpMessage")
    assert caplog.records[-1].getMessage() == (
        "web page: a malformed request answered 400 (BadHttpMessage); 49 more since the last line"
    )
    assert len(caplog.records) == 2


async def test_no_answer_names_the_software_and_every_one_has_the_pages_headers(
    served: Served,
) -> None:
    base = served.web.base_url
    for url, expected in (
        (served.home, 200),
        (served.home + f"m/{served.matches[0].match_id}", 200),
        (f"{base}/nothing", 404),
        (f"{base}/g/{GUILD}/{served.secret}", 302),
    ):
        status, _, headers = await served.get(url)
        assert status == expected, url
        assert_page_headers(dict(headers))
    async with served.http.head(served.home) as answer:
        assert answer.status == 200
        assert_page_headers(dict(answer.headers))


async def test_the_address_without_its_final_slash_redirects_to_it(served: Served) -> None:
    url = f"{served.web.base_url}/g/{GUILD}/{served.secret}"
    status, _, headers = await served.get(url)
    assert status == 302 and urljoin(url, headers["Location"]) == served.home
    assert served.counted.calls == []  # the redirect says nothing of the secret
    status, page, _ = await served.get(urljoin(url, headers["Location"]))
    assert status == 200 and "Leaderboard" in page
    # relative, so it works under any address a proxy gives the page
    assert headers["Location"] == f"{served.secret}/"


async def test_an_address_of_the_wrong_shape_is_the_one_404_and_never_reaches_the_store(
    served: Served,
) -> None:
    base, secret = served.web.base_url, served.secret
    match_id = served.matches[0].match_id
    escaped = secret[:-1] + f"%{ord(secret[-1]):02X}"  # the same address, spelled otherwise
    home = f"{base}/g/{GUILD}/{secret}/"
    malformed = [
        f"{base}/g/0{GUILD}/{secret}/",  # a leading zero: the same server, another address
        f"{base}/g/00{GUILD}/{secret}/m/{match_id}",
        f"{base}/g/0/{secret}/",
        f"{base}/g/12a4/{secret}/",
        f"{base}/g/{'9' * 20}/{secret}/",
        f"{base}/g/{2**63}/{secret}/",
        f"{base}/g/{GUILD}/{secret[:-1]}/",
        f"{base}/g/{GUILD}/{secret}A/",
        f"{base}/g/{GUILD}/{secret[:-1]}./",
        f"{base}/g/{GUILD}/{escaped}/",
        f"{base}/g/{GUILD}/%C3%A9{secret[2:]}/",
        home + "m/q",
        home + "m/ABCDEF123456",  # upper case: not a table id
        home + f"m/{match_id}0",
        home + f"m/{match_id}/x",  # m/<id>/ is the match's page, nothing under it
        home + f"m/{match_id}.json/",
        home + "p/011/",  # a member id with a leading zero
        home + "?lang=de",
        home + "?page=x",
        home + "?board=0",
        home + "?format=poker",
        home + f"m/{match_id}?h=1e3",
        home + f"m/{match_id}?t=-1",
        home + f"m/{match_id}?lang=xx",
        f"{base}/",
        f"{base}/g/",
        f"{base}/g/{GUILD}/",
        f"{base}/favicon.ico",
    ]
    answers = {}
    for url in malformed:
        async with served.http.get(URL(url, encoded=True), allow_redirects=False) as answer:
            answers[url] = (answer.status, await answer.text(), answer.headers)
    assert {url: status for url, (status, _, _) in answers.items() if status != 404} == {}
    assert len({body for _, body, _ in answers.values()}) == 1
    kept = [frozenset((k, v) for k, v in h.items() if k != "Date") for _, _, h in answers.values()]
    assert len(set(kept)) == 1  # the same headers too, but for the date
    assert served.counted.calls == []
    # a right shape with a wrong secret: the same 404, after asking the store
    status, body, _ = await served.get(f"{base}/g/{GUILD}/{'A' * len(secret)}/")
    assert status == 404 and body == next(iter(answers.values()))[1]
    assert served.counted.calls == ["web_secret"]


async def test_past_the_burst_the_page_answers_503_without_reading_the_store(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with serving(tmp_path, rate=1e-6, burst=3) as served:
        assert (await served.get(served.home))[0] == 200
        assert (await served.get(served.home + "?page=1"))[0] == 200
        assert (await served.get(f"{served.web.base_url}/nothing"))[0] == 404
        read = list(served.counted.calls)
        for url in (served.home, served.home + f"m/{served.matches[0].match_id}", served.home):
            status, body, headers = await served.get(url)
            assert status == 503 and "503" in body
            assert_page_headers(dict(headers))
            assert headers["Retry-After"] == "1"
        assert served.counted.calls == read  # nothing read past the bound
        assert_quiet_logs(caplog, served.secret, most=1)


def test_the_token_bucket_holds_a_burst_and_refills_at_its_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.25  # half a token
    assert not bucket.take()
    now[0] += 0.25
    assert bucket.take() and not bucket.take()
    now[0] += 3600  # never more than the burst held
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] -= 10  # a clock that steps back gives nothing back
    assert not bucket.take()
    with pytest.raises(ValueError):
        TokenBucket(rate=0, burst=1)
    with pytest.raises(ValueError):
        TokenBucket(rate=1, burst=0)
