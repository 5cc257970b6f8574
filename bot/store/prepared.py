"""Hot statements compiled once and then run by their SQL text.

SQLAlchemy's ``Connection.execute`` of a statement object pays, every call, for the
statement's cache key (a walk of the whole expression), the compiled-cache lookup, a new
execution context and the processing of each parameter dict by name. Measured on the
finished match's write (``bench/write_cost.py``), that was most of the write's Python time:
ten statements of a few rows each. A `Prepared` statement is compiled for the connection's
dialect the first time it runs; after that a call only puts the values in placeholder order
(through the same bind processors SQLAlchemy would use: UTC times, JSON text) and hands the
SQL text to ``Connection.exec_driver_sql``. That keeps SQLAlchemy's transaction, its
``before_cursor_execute`` events, its error wrapping (``IntegrityError``) and the driver's own
statement cache; it skips the rest.

Only for statements without expanding (``IN``) parameters, on dialects with positional
placeholders (SQLite's ``?``, asyncpg's ``$1``); anything else runs through
``Connection.execute`` as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import CursorResult, Dialect

__all__ = ["Prepared"]

_Binder = Callable[[Mapping[str, Any]], tuple[Any, ...]]
_REQUIRED = object()


class Prepared:
    """One statement, run by `__call__` with one parameter dict or a list of them
    (executemany). ``keys``: for an INSERT, the columns the dicts give (the VALUES clause is
    compiled for exactly those, as ``Connection.execute`` would for the first dict)."""

    __slots__ = ("_compiled", "keys", "statement")

    def __init__(self, statement: Any, keys: Sequence[str] | None = None) -> None:
        """``statement``: a Core statement (``sa.insert``, ``sa.select``, ...)."""
        self.statement = statement
        self.keys = list(keys) if keys is not None else None
        self._compiled: tuple[Dialect, str | None, _Binder | None] | None = None

    def __call__(
        self, conn: Connection, params: Mapping[str, Any] | Sequence[Mapping[str, Any]]
    ) -> CursorResult[Any]:
        compiled = self._compiled
        if compiled is None or compiled[0] is not conn.dialect:
            compiled = self._compile(conn.dialect)
        _, sql, bind = compiled
        if sql is None or bind is None:  # not positional, or an expanding parameter
            return conn.execute(self.statement, params)
        if isinstance(params, Mapping):
            return conn.exec_driver_sql(sql, bind(params))
        return conn.exec_driver_sql(sql, [bind(p) for p in params])

    def compile(self, dialect: Dialect) -> None:
        """Compile now for ``dialect`` (the store does at open), not in the first call."""
        self._compile(dialect)

    def _compile(self, dialect: Dialect) -> tuple[Dialect, str | None, _Binder | None]:
        """SQL text and a function putting a parameter dict's values in placeholder order,
        each through its type's bind processor for this dialect; bound literals (values in
        the statement itself) are filled in."""
        compiled = self.statement.compile(dialect=dialect, column_keys=self.keys)
        names = compiled.positiontup
        if (
            not compiled.positional
            or names is None
            or compiled.post_compile_params
            or compiled.literal_execute_params
        ):
            self._compiled = (dialect, None, None)
            return self._compiled
        slots: list[tuple[str, Any, Callable[[Any], Any] | None]] = []
        for name in names:
            param = compiled.binds[name]
            default = _REQUIRED if param.required else param.effective_value
            process = param.type.dialect_impl(dialect).bind_processor(dialect)
            slots.append((name, default, process))

        def bind(params: Mapping[str, Any]) -> tuple[Any, ...]:
            values = []
            for name, default, process in slots:
                value = params[name] if default is _REQUIRED else params.get(name, default)
                values.append(value if process is None else process(value))
            return tuple(values)

        self._compiled = (dialect, compiled.string, bind)
        return self._compiled
