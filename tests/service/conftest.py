"""Fixtures for the service unit tests: a ``TableService`` on fakes only (no SQLite, no
Discord, no real time), so the whole group runs in well under two seconds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, cast

import pytest

from bot.service.service import TableService
from bot.store import Store
from bot.store.listen import TableSaves

from .fakes import FakeClock, FakePublisher, FakeStore
from .helpers import HAKEM_0_SEED, Make, Recorder

MakeService = Callable[..., TableService]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(clock: FakeClock) -> FakeStore:
    return FakeStore(now=clock)


@pytest.fixture
def publisher(store: FakeStore) -> Iterator[FakePublisher]:
    publisher = FakePublisher(store)
    yield publisher
    assert publisher.unsaved == [], "published a change before the store held it"


@pytest.fixture
async def make_service(
    store: FakeStore, publisher: FakePublisher, clock: FakeClock
) -> AsyncIterator[MakeService]:
    """Services on the shared fakes (a second one is a restart); closed at the end.

    ``think_grace`` is 0: the grace is awaited with ``asyncio.wait_for`` on the loop's own
    clock, which the fake clock does not drive, so any grace would be real waiting.
    """
    made: list[TableService] = []

    def make(**overrides: Any) -> TableService:
        kwargs: dict[str, Any] = {
            "publisher": publisher,
            "clock": clock,
            "call_later": clock.call_later,
            "monotonic": clock.monotonic,
            "computer_delay": 1.0,
            "think_grace": 0.0,
            "seed_source": lambda: HAKEM_0_SEED,
        } | overrides
        service = TableService(cast(Store, store), **kwargs)
        made.append(service)
        return service

    try:
        yield make
    finally:
        for service in made:
            await service.close()


@pytest.fixture
def service(make_service: MakeService) -> TableService:
    return make_service()


@pytest.fixture
async def processes(pg_url: str, clock: FakeClock) -> AsyncIterator[Make]:
    """``make(owns=…)``: a service on a store of its own, both on the run's database."""
    made: list[tuple[TableService, Store]] = []

    async def make(
        owns: Callable[[int], bool] = lambda guild_id: True, listen: bool = False
    ) -> TableService:
        store = await Store.open(pg_url)
        service = TableService(
            store,
            publisher=Recorder(),  # type: ignore[arg-type]
            clock=clock,
            call_later=clock.call_later,
            monotonic=clock.monotonic,
            think_grace=0.0,
            seed_source=lambda: HAKEM_0_SEED,
            shared=True,
            owns=owns,
        )
        made.append((service, store))
        if listen:
            saves = store.listen_tables(service.saved_elsewhere)
            assert saves is not None
            listening.append(saves)
            await asyncio.wait_for(saves.listening.wait(), 10)
        return service

    listening: list[TableSaves] = []
    yield make  # type: ignore[misc]
    for saves in listening:
        await saves.close()
    for service, store in made:
        await service.close()
        await store.close()
