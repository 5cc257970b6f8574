"""How a URL from the settings may appear in a log line, an error or a printed line.

Operators put credentials into URLs in more places than ``user:password@``: libpq and asyncpg
read ``?password=``, ``?sslpassword=`` and ``?passfile=``, redis-py reads ``?password=`` (on
``unix://`` sockets it is the only place), and proxies take ``?token=`` or ``?secret=``. The
bot prints its database and Redis URLs at start, in ``--migrate-only`` and
``--recompute-ratings``, and in its one-line start-up errors, so every one of them goes through
``redact_url`` first.

Stdlib only, below every layer: the store, the limiter and the process all use it.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import unquote_plus, urlsplit, urlunsplit

MASK: Final = "***"
SECRET_KEYS: Final = frozenset({"password", "sslpassword", "passfile"})
"""Query keys that hold a credential (libpq's and asyncpg's names, redis-py's ``password``)."""
SECRET_WORDS: Final = ("pass", "secret", "token")
"""A query key holding any of these (any case) is taken for a credential too."""
UNPARSABLE: Final = "<unparsable URL>"


def is_secret_key(key: str) -> bool:
    """Whether a query parameter's (decoded) name marks its value as a credential."""
    low = key.strip().lower()
    return low in SECRET_KEYS or any(word in low for word in SECRET_WORDS)


def redact_url(url: str) -> str:
    """``url`` with every credential masked: the userinfo's password and each secret query value.

    The user name, host, port, path and the other query parameters are kept as written, so the
    line still says where the bot connects. A URL that does not parse is not shown at all: it
    may hold a password in a place no rule here foresees.

    >>> redact_url("redis://u:s3cret@h:6379/0?password=x&db=1")
    'redis://u:***@h:6379/0?password=***&db=1'
    """
    try:
        parts = urlsplit(url)
        netloc = _redact_netloc(parts.netloc)
    except ValueError:
        return UNPARSABLE
    query = "&".join(_redact_pair(pair) for pair in parts.query.split("&")) if parts.query else ""
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def _redact_netloc(netloc: str) -> str:
    userinfo, at, host = netloc.rpartition("@")
    if not at:
        return netloc
    user, colon, _password = userinfo.partition(":")
    return f"{user}:{MASK}@{host}" if colon else f"{userinfo}@{host}"


def _redact_pair(pair: str) -> str:
    key, eq, _value = pair.partition("=")
    if is_secret_key(unquote_plus(key)):
        return f"{key}={MASK}" if eq else key
    return pair
