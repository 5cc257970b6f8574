# The Hokm bot: docker build -t hokm-bot . && docker run -e HOKM_DISCORD_TOKEN=... -v hokm-data:/data hokm-bot
# The base image by digest, so a rebuild gets the same image; the tag is for the reader. The
# digest was read from public references, not pulled (the project's build machine reaches no
# image registry): when updating, take both from `docker buildx imagetools inspect python:3.11-slim`.
FROM python:3.11-slim@sha256:9c900dea9e8fb7e16277c179b555cc72d29a352dbc33cff48ad5a0412fd5bfc7

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOKM_DATABASE_URL=sqlite+aiosqlite:////data/hokm.sqlite3 \
    HOKM_COMMAND_SYNC_FILE=/data/command-sync.sha256 \
    HOKM_HEALTH_FILE=/tmp/hokm-gateway-alive

WORKDIR /app

# Dependencies first, in their own layer, exactly as locked: requirements.txt (pip-compile
# --generate-hashes from pyproject.toml, with the postgres extra; README, "Reproducible
# installs") pins every package and its hashes, so pip refuses anything else. This layer is
# rebuilt only when the lock changes, never for a code change.
COPY requirements.txt ./
RUN pip install --require-hashes -r requirements.txt && rm requirements.txt

# The bot itself, without touching the dependencies installed above.
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
RUN pip install --no-deps . \
    && groupadd --system --gid 10001 hokm \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --no-create-home hokm \
    && mkdir -p /data && chown 10001:10001 /data && chmod 700 /data

USER 10001:10001
VOLUME ["/data"]

# Healthy while the bot's gateway connection is up: the bot touches $HOKM_HEALTH_FILE on
# READY/RESUMED and every 15 s while connected, and removes it when the connection drops;
# the check fails when the file is missing or older than 60 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=90s --retries=3 \
    CMD ["python", "-m", "bot", "--healthcheck"]

# `docker stop` sends SIGTERM. The bot runs as PID 1 here, where the kernel gives SIGTERM no
# default action (a PID 1 without a handler ignores it, and Docker SIGKILLs it after 10 s):
# the bot installs its own SIGTERM handler (loop.add_signal_handler in bot/__main__.py), saves
# and closes within 5 s, and exits 0. CMD uses the exec form so Python itself is PID 1 and
# receives the signal (no shell in between that would swallow it).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
