"""The Discord side: the edge that turns interactions into service calls (``client``,
``router``, ``actions``, ``replies``, ``cogs/``), and the publisher that turns updates into
rate-aware sends (``publisher``, with ``reports`` for the channel report and ``hand_dms`` for
each seat's DM and interaction token; ``channels``, ``outbox``, ``ui``). The only layer that
imports discord.py objects."""
