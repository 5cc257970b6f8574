"""The Hokm Discord bot. Its folders are its layers, and imports go one way
(``tests/bot/test_layers.py`` holds them to it):

- ``discord/``: the Discord edge (commands, buttons, wiring) and the publisher that sends;
- ``service/``: live tables, their rules, timers and persistence; no discord.py types;
- ``present/``: what a table or a seat looks like, as plain ``MessageSpec`` data, in en or fa;
- ``store/``: SQLAlchemy 2 persistence; knows no Discord and no engine types;
- ``names.py``: how a member's name may appear in text, below every layer.

The rest of the top level is the process: ``__main__``, ``startup``, ``config``, ``health``,
``log_safety``, ``loop_monitor``.
"""
