"""Who a message would notify on Discord, from its content and its ``allowed_mentions``.

Discord's rules (https://discord.com/developers/docs/resources/message#allowed-mentions-object):
without ``allowed_mentions`` every mention in the content notifies (``@everyone`` and ``@here``
too, given the permission, which a test assumes the bot has); with it, ``parse`` names the
kinds that notify (``everyone`` covers ``@here``) and ``users`` / ``roles`` list the only ids
of their kind that may. Mentions inside embeds never notify, so only ``content`` counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .rest import RequestRecord

_EVERYONE = re.compile(r"@(?:everyone|here)")
_USER = re.compile(r"<@!?(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")


@dataclass(frozen=True)
class Pings:
    everyone: bool
    roles: frozenset[int]
    users: frozenset[int]


def pings(content: str, allowed: dict[str, Any] | None) -> Pings:
    """Whom Discord would notify for ``content`` sent with ``allowed`` (``None``: absent)."""
    everyone = bool(_EVERYONE.search(content))
    users = {int(i) for i in _USER.findall(content)}
    roles = {int(i) for i in _ROLE.findall(content)}
    if allowed is None:
        return Pings(everyone, frozenset(roles), frozenset(users))
    parse = set(allowed.get("parse") or ())
    listed_users = {int(i) for i in allowed.get("users") or ()}
    listed_roles = {int(i) for i in allowed.get("roles") or ()}
    return Pings(
        everyone and "everyone" in parse,
        frozenset(roles if "roles" in parse else roles & listed_roles),
        frozenset(users if "users" in parse else users & listed_users),
    )


def mention_problems(
    records: Iterable[RequestRecord], meant: Callable[[str], set[int]]
) -> list[str]:
    """Every message request that lacks ``allowed_mentions``, allows everyone/here, roles or
    all users, or would notify someone ``meant(content)`` does not name; one line each."""
    problems: list[str] = []
    for record in records:
        sent = record.message
        if sent is None:
            continue
        where = f"{record.method} {record.template} {sent.content[:80]!r}"
        allowed = sent.allowed_mentions
        if allowed is None:
            problems.append(f"{where}: no allowed_mentions")
        else:
            parse = set(allowed.get("parse") or ())
            for kind in sorted(parse & {"everyone", "roles", "users"}):
                problems.append(f"{where}: allowed_mentions parses {kind}")
            if allowed.get("roles"):
                problems.append(f"{where}: allowed_mentions lists roles")
        found = pings(sent.content, allowed)
        if found.everyone:
            problems.append(f"{where}: would ping everyone/here")
        if found.roles:
            problems.append(f"{where}: would ping roles {sorted(found.roles)}")
        stray = found.users - meant(sent.content)
        if stray:
            problems.append(f"{where}: would ping users {sorted(stray)}")
    return problems
