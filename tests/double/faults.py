"""Fault injection: make the next N matching requests fail, rate-limit, hang or drop.

A rule matches on the HTTP method and on a path pattern, which is either the route template
(``/channels/{channel_id}/messages``) or an fnmatch glob over the concrete path
(``/channels/*/messages``), both without the ``/api/v10`` prefix.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass


@dataclass
class Fault:
    """One rule. ``times`` counts down as requests match; at 0 the rule is spent."""

    method: str
    pattern: str
    times: int = 1
    status: int | None = None  # 5xx (or any error status) to answer with
    retry_after: float | None = None  # with status 429
    is_global: bool = False  # with status 429
    hang: float | None = None  # seconds to sleep before handling (or failing)
    drop: bool = False  # close the connection without an answer
    hits: int = 0

    def matches(self, method: str, path: str, template: str | None) -> bool:
        if self.method != "*" and self.method.upper() != method.upper():
            return False
        if template is not None and self.pattern == template:
            return True
        return fnmatch.fnmatchcase(path, self.pattern)


class Faults:
    """The active rules, checked in the order they were added."""

    def __init__(self) -> None:
        self.rules: list[Fault] = []

    def add(
        self,
        method: str,
        pattern: str,
        *,
        times: int = 1,
        status: int | None = None,
        retry_after: float | None = None,
        is_global: bool = False,
        hang: float | None = None,
        drop: bool = False,
    ) -> Fault:
        """Register a rule; see the module docstring for the pattern syntax."""
        if status == 429 and retry_after is None:
            raise ValueError("a 429 fault needs retry_after")
        if status is None and hang is None and not drop:
            raise ValueError("a fault needs a status, a hang or drop=True")
        if not pattern.startswith("/") and pattern != "*":
            raise ValueError(f"patterns start with '/', got {pattern!r}")
        fault = Fault(
            method=method,
            pattern=pattern,
            times=times,
            status=status,
            retry_after=retry_after,
            is_global=is_global,
            hang=hang,
            drop=drop,
        )
        self.rules.append(fault)
        return fault

    def take(self, method: str, path: str, template: str | None) -> Fault | None:
        """The first live rule matching this request, with one use spent."""
        for fault in self.rules:
            if fault.times > 0 and fault.matches(method, path, template):
                fault.times -= 1
                fault.hits += 1
                return fault
        return None

    def clear(self) -> None:
        self.rules.clear()
