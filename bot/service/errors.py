"""Refusals the service hands back to the Discord layer, as catalog keys with parameters."""

from __future__ import annotations


class ActionError(Exception):
    """A user's request was refused; nothing changed. ``code`` is an ``error.*`` catalog key."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params
