"""Discord's limits on what a bot may send, checked so tests fail where Discord would.

Only the limits the bot can plausibly hit are checked: message length, embed count, the 5x5
button grid, custom_id and label lengths, duplicate custom_ids, command names. A violation
answers 400 with Discord's "Invalid Form Body" shape (code 50035, nested ``errors``).
"""

from __future__ import annotations

import re
from typing import Any

from .models import ACTION_ROW, BUTTON

IS_COMPONENTS_V2 = 1 << 15
LINK_STYLE = 5
PREMIUM_STYLE = 6
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")

Problem = tuple[list[str | int], str, str]  # (path, code, message)


def form_error(problems: list[Problem]) -> dict[str, Any]:
    """The 400 body for these problems, nested the way Discord nests ``errors``."""
    errors: dict[str, Any] = {}
    for path, code, message in problems:
        node = errors
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return {"code": 50035, "errors": errors, "message": "Invalid Form Body"}


def message_problems(body: dict[str, Any], *, edit: bool) -> list[Problem]:
    """What Discord would reject in a message create (``edit=False``) or edit body."""
    problems: list[Problem] = []
    content = body.get("content")
    if content is not None and len(str(content)) > 2000:
        problems.append((["content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."))
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append((["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."))
    for index, embed in enumerate(embeds):
        problems.extend(_embed_problems(embed, ["embeds", index]))
    flags = int(body.get("flags") or 0)
    components = body.get("components") or []
    if not flags & IS_COMPONENTS_V2:
        problems.extend(_row_problems(components))
    if not edit and not any(
        body.get(k)
        for k in ("content", "embeds", "embed", "components", "attachments", "sticker_ids", "poll")
    ):
        problems.append(([], "50006", "Cannot send an empty message"))
    return problems


def _embed_problems(embed: dict[str, Any], path: list[str | int]) -> list[Problem]:
    limits = {"title": 256, "description": 4096}
    problems: list[Problem] = []
    for key, limit in limits.items():
        if len(str(embed.get(key) or "")) > limit:
            problems.append(
                ([*path, key], "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
            )
    fields = embed.get("fields") or []
    if len(fields) > 25:
        problems.append(
            ([*path, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        )
    for index, fld in enumerate(fields):
        if len(str(fld.get("name") or "")) > 256:
            problems.append(([*path, "fields", index, "name"], "BASE_TYPE_MAX_LENGTH", "Too long."))
        if len(str(fld.get("value") or "")) > 1024:
            problems.append(
                ([*path, "fields", index, "value"], "BASE_TYPE_MAX_LENGTH", "Too long.")
            )
    return problems


def _row_problems(components: list[dict[str, Any]]) -> list[Problem]:
    problems: list[Problem] = []
    if len(components) > 5:
        problems.append((["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."))
    seen: set[str] = set()
    for r, row in enumerate(components):
        path: list[str | int] = ["components", r]
        if row.get("type") != ACTION_ROW:
            problems.append(
                ([*path, "type"], "UNION_TYPE_CHOICES", "Top level must be action rows.")
            )
            continue
        children = row.get("components") or []
        if not children:
            problems.append(([*path, "components"], "BASE_TYPE_MIN_LENGTH", "Row is empty."))
        if len(children) > 5:
            problems.append(
                ([*path, "components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
            )
        if any(c.get("type") != BUTTON for c in children) and len(children) > 1:
            problems.append(
                ([*path, "components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select fills a row.")
            )
        for c, comp in enumerate(children):
            problems.extend(_component_problems(comp, [*path, "components", c], seen))
    return problems


def _component_problems(
    comp: dict[str, Any], path: list[str | int], seen: set[str]
) -> list[Problem]:
    problems: list[Problem] = []
    custom_id = comp.get("custom_id")
    style = comp.get("style")
    if comp.get("type") == BUTTON and style == LINK_STYLE:
        if not comp.get("url"):
            problems.append(([*path, "url"], "BASE_TYPE_REQUIRED", "Link buttons need a url."))
    elif comp.get("type") == BUTTON and style == PREMIUM_STYLE:
        pass
    elif not custom_id:
        problems.append(([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required"))
    if custom_id is not None:
        if len(str(custom_id)) > 100:
            problems.append(
                ([*path, "custom_id"], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
            )
        if custom_id in seen:
            problems.append(
                (
                    [*path, "custom_id"],
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            )
        seen.add(str(custom_id))
    if comp.get("type") == BUTTON:
        label = comp.get("label")
        if label is not None and len(str(label)) > 80:
            problems.append(
                ([*path, "label"], "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
            )
        if not label and not comp.get("emoji"):
            problems.append(
                ([*path, "label"], "BASE_TYPE_REQUIRED", "A button needs a label or emoji.")
            )
    return problems


def command_problems(commands: list[dict[str, Any]]) -> list[Problem]:
    """Names, descriptions and option counts of a command registration."""
    problems: list[Problem] = []
    seen: set[tuple[str, int]] = set()
    for index, cmd in enumerate(commands):
        name = str(cmd.get("name") or "")
        ctype = int(cmd.get("type", 1))
        if ctype == 1 and (not COMMAND_NAME.match(name) or name != name.lower()):
            problems.append(
                ([index, "name"], "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {name!r}")
            )
        if (name, ctype) in seen:
            problems.append(
                ([index, "name"], "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate name")
            )
        seen.add((name, ctype))
        if ctype == 1:
            problems.extend(_option_problems(cmd, [index]))
        if command_size(cmd) > COMMAND_SIZE_LIMIT:
            problems.append(
                (
                    [index],
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({COMMAND_SIZE_LIMIT})",
                )
            )
    return problems


COMMAND_SIZE_LIMIT = 4000
"""Discord's limit on one command's registration: the characters of every name, description
and value of the command, its options (subcommands and groups too) and their choices."""


def command_size(node: dict[str, Any]) -> int:
    """What Discord counts of ``node`` against ``COMMAND_SIZE_LIMIT``: its name, description and
    value, each at its longest localization, then its options and choices, recursively."""
    size = 0
    for key in ("name", "description", "value"):
        if key not in node:
            continue
        texts = [str(node[key]), *(node.get(f"{key}_localizations") or {}).values()]
        size += max(len(text) for text in texts)
    for child in (*(node.get("options") or ()), *(node.get("choices") or ())):
        size += command_size(child)
    return size


def _option_problems(node: dict[str, Any], path: list[str | int]) -> list[Problem]:
    problems: list[Problem] = []
    description = str(node.get("description") or "")
    if not 1 <= len(description) <= 100:
        problems.append(
            ([*path, "description"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        )
    options = node.get("options") or []
    if len(options) > 25:
        problems.append(
            ([*path, "options"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        )
    for index, opt in enumerate(options):
        name = str(opt.get("name") or "")
        if not COMMAND_NAME.match(name) or name != name.lower():
            problems.append(
                (
                    [*path, "options", index, "name"],
                    "APPLICATION_COMMAND_INVALID_NAME",
                    f"Invalid name {name!r}",
                )
            )
        problems.extend(_option_problems(opt, [*path, "options", index]))
    return problems
