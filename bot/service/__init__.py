"""The service layer: ids in, typed events out. ``TableService`` (``service.py``) is its
front; ``registry``, ``lobby``, ``moves``, ``turns``, ``persistence`` and ``history`` each hold
one of its jobs. Nothing here imports discord.py or the presenter."""
