"""The in-process bot fixtures of the e2e tests (``make_bot``, ``hokm_bot``), reused here."""

from tests.e2e.conftest import hokm_bot, make_bot

__all__ = ["hokm_bot", "make_bot"]
