"""A server's web page: the secret in its address, beside the server's settings.

Revision ID: 0007_web_secret
Revises: 0006_table_due
Create Date: 2026-12-05

``guild_settings.web_secret`` is set (``secrets.token_urlsafe``) when a server admin turns the
``web`` setting on and cleared when they turn it off, in the same write as the settings: the
page at ``/g/<server id>/<secret>/`` answers only while it is set, and only to that secret.
Rows from before this revision have none: their page is off, as the setting's default says.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_web_secret"
down_revision: str | None = "0006_table_due"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.add_column(sa.Column("web_secret", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("web_secret")
