# The Hokm bot: docker build -t hokm-bot . && docker run -e HOKM_DISCORD_TOKEN=... -v hokm:/data hokm-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HOKM_DATABASE_URL=sqlite+aiosqlite:////data/hokm.sqlite3 \
    HOKM_COMMAND_SYNC_FILE=/data/command-sync.sha256

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /data hokm \
    && mkdir -p /data && chown hokm /data

USER hokm
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
