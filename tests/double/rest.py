"""The REST half of the double: Discord's /api/v10 routes that a Hokm bot uses.

Every request goes through one pipeline: match a route (unknown routes answer 404 and are
recorded), count it by kind, apply injected faults, check the token, apply rate limits, run the
handler, add rate-limit headers. JSON answers carry ``Content-Type: application/json`` exactly:
with aiohttp's default ``; charset=utf-8`` discord.py would read the body as plain text.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .counters import Counters
from .faults import Faults
from .gateway import DIRECT_MESSAGES, GUILD_MESSAGES, Gateway
from .interactions import APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT, InteractionRecord
from .models import FLAG_EPHEMERAL, FLAG_LOADING, AppCommand, Channel, StoredMessage
from .ratelimit import RateLimiter, rate_limited_body, rate_limited_headers
from .state import World
from .threads import ThreadRoutes, may_post
from .validation import Problem, command_problems, form_error, message_problems

if TYPE_CHECKING:
    from multidict import MultiMapping

API_PREFIX = "/api/v10"
INTERACTION_TOKEN_LIFETIME = 15 * 60.0


def json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON answer with the exact content type discord.py checks for."""
    all_headers = {"Content-Type": "application/json", "Via": "1.1 google"}
    all_headers.update(headers or {})
    return web.Response(
        body=json.dumps(data, separators=(",", ":")).encode(), status=status, headers=all_headers
    )


def error(status: int, message: str, code: int = 0) -> web.Response:
    return json_response({"message": message, "code": code}, status=status)


def no_content() -> web.Response:
    return web.Response(status=204, headers={"Via": "1.1 google"})


def invalid(problems: list[Problem]) -> web.Response:
    if len(problems) == 1 and problems[0][1] == "50006":
        return error(400, "Cannot send an empty message", 50006)
    return json_response(form_error(problems), status=400)


@dataclass
class Ctx:
    """One request, parsed."""

    request: web.Request
    params: dict[str, str]
    body: Any
    query: MultiMapping[str]


Handler = Callable[[Ctx], Awaitable[web.Response]]


@dataclass
class RouteSpec:
    method: str
    template: str
    regex: re.Pattern[str]
    handler: Handler
    exempt: bool = False  # interaction-token routes: no auth, outside the global limit


@dataclass(frozen=True)
class SentMessage:
    """What one create or edit asked Discord to show, as far as notifying people goes."""

    content: str
    allowed_mentions: dict[str, Any] | None
    """The request's ``allowed_mentions`` as sent; ``None`` when it had none (Discord then
    notifies everyone the content mentions)."""


@dataclass
class RequestRecord:
    """One request as the double saw it, for tests and benchmarks that inspect traffic."""

    method: str
    path: str
    template: str | None
    kind: str
    status: int
    at: float
    message: SentMessage | None = None
    """Set for every request that creates or edits a message: channel and DM messages,
    message edits, interaction responses (types 4 and 7), followups and webhook edits."""


MESSAGE_ROUTES = frozenset(
    {
        ("POST", "/channels/{channel_id}/messages"),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ("POST", "/webhooks/{app_id}/{token}"),
        ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}"),
    }
)
CALLBACK_ROUTE = "/interactions/{interaction_id}/{token}/callback"
MESSAGE_CALLBACKS = frozenset({4, 7})  # channel message with source, update message


def _compile(template: str) -> re.Pattern[str]:
    """``/channels/{channel_id}`` -> a regex with a named group per parameter."""
    return re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$")


class RestApi:
    """Routes plus the request pipeline; owns no state of its own beyond the route table."""

    def __init__(
        self,
        world: World,
        gateway: Gateway,
        counters: Counters,
        faults: Faults,
        limiter: RateLimiter,
        *,
        gateway_url: Callable[[], str],
        interaction_timeout: Callable[[], float],
    ) -> None:
        self.world = world
        self.gateway = gateway
        self.counters = counters
        self.faults = faults
        self.limiter = limiter
        self._gateway_url = gateway_url
        self._interaction_timeout = interaction_timeout
        self.requests: deque[RequestRecord] = deque(maxlen=200_000)
        self._mention_forms: dict[str, dict[str, Any]] = {}
        self.internal_errors: list[str] = []
        self.routes: list[RouteSpec] = []
        self._register()

    # --- pipeline ------------------------------------------------------------------------

    def match(self, method: str, path: str) -> tuple[RouteSpec, dict[str, str]] | None:
        for spec in self.routes:
            if spec.method != method:
                continue
            found = spec.regex.match(path)
            if found:
                return spec, found.groupdict()
        return None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info.get("tail", "")
        method = request.method
        matched = self.match(method, path)
        loop_time = asyncio.get_running_loop().time
        if matched is None:
            self.counters.count("other")
            self.counters.unknown_routes.append(f"{method} {path}")
            self.world.notify()
            self._log(method, path, None, "other", 404, loop_time(), None)
            return error(404, "404: Not Found", 0)
        spec, params = matched
        kind = self._kind(spec, params)
        self.counters.count(kind)
        seen: list[Any] = []  # the parsed body, once read
        try:
            response = await self._run(request, spec, params, path, seen)
        except Exception as exc:
            # A bug in the double must not pass for a Discord outage (discord.py would retry a
            # 500 for 25 s): answer a 4xx it raises at once, and let the fixture fail the test.
            self.internal_errors.append(f"{method} {path}: {exc!r}")
            logging.getLogger(__name__).exception("Discord double failed on %s %s", method, path)
            response = error(400, f"Discord double internal error: {exc!r}", -1)
        sent = self._sent_message(spec, seen[0] if seen else None)
        self._log(method, path, spec.template, kind, response.status, loop_time(), sent)
        if response.status == 429:
            self.counters.http_429 += 1
        self.world.notify()
        return response

    def _log(
        self,
        method: str,
        path: str,
        template: str | None,
        kind: str,
        status: int,
        at: float,
        sent: SentMessage | None,
    ) -> None:
        self.requests.append(RequestRecord(method, path, template, kind, status, at, sent))

    def _sent_message(self, spec: RouteSpec, body: Any) -> SentMessage | None:
        """The message part of a create/edit body (an interaction callback's ``data``)."""
        if not isinstance(body, dict):
            return None
        if spec.template == CALLBACK_ROUTE and spec.method == "POST":
            if body.get("type") not in MESSAGE_CALLBACKS:
                return None
            body = body.get("data") or {}
        elif (spec.method, spec.template) not in MESSAGE_ROUTES:
            return None
        mentions = body.get("allowed_mentions")
        if isinstance(mentions, dict):  # one shared copy per distinct value: records stay small
            key = json.dumps(mentions, sort_keys=True)
            mentions = self._mention_forms.setdefault(key, mentions)
        return SentMessage(str(body.get("content") or ""), mentions)

    async def _run(
        self,
        request: web.Request,
        spec: RouteSpec,
        params: dict[str, str],
        path: str,
        seen: list[Any],
    ) -> web.Response:
        fault = self.faults.take(request.method, path, spec.template)
        if fault is not None:
            if fault.hang:
                await asyncio.sleep(fault.hang)
            if fault.drop:
                if request.transport is not None:
                    request.transport.abort()
                return error(502, "dropped by the double", 0)
            if fault.status == 429:
                retry = fault.retry_after or 0.0
                if fault.is_global:
                    self.counters.http_429_global += 1
                return json_response(
                    rate_limited_body(retry, is_global=fault.is_global),
                    status=429,
                    headers=rate_limited_headers(retry, is_global=fault.is_global),
                )
            if fault.status is not None:
                if fault.status >= 500:
                    self.counters.injected_5xx += 1
                return error(fault.status, f"{fault.status}: injected by the double", 0)
        if not spec.exempt:
            auth = request.headers.get("Authorization")
            if auth != f"Bot {self.world.token}":
                return error(401, "401: Unauthorized", 0)
        message_channel = None
        if spec.template.startswith("/channels/{channel_id}/messages") and spec.method in (
            "POST",
            "PATCH",
        ):
            message_channel = int(params["channel_id"]) if params["channel_id"].isdigit() else None
        decision = self.limiter.check(
            spec.template, exempt=spec.exempt, message_channel=message_channel
        )
        if decision.status is not None:
            if decision.is_global:
                self.counters.http_429_global += 1
            return json_response(decision.body, status=decision.status, headers=decision.headers)
        try:
            body = await _read_body(request, self.world)
        except ValueError as exc:
            return error(400, f"400: Bad Request ({exc})", 50109)
        seen.append(body)
        response = await spec.handler(
            Ctx(request=request, params=params, body=body, query=request.query)
        )
        response.headers.update(decision.headers)
        return response

    def _kind(self, spec: RouteSpec, params: dict[str, str]) -> str:
        template, method = spec.template, spec.method
        if template == "/interactions/{interaction_id}/{token}/callback":
            return "interaction_response"
        if template.startswith("/webhooks/"):
            return "followup"
        if template == "/users/@me/channels" and method == "POST":
            return "dm"
        if template == "/channels/{channel_id}/messages" and method == "POST":
            channel = self._channel(params)
            return "dm" if channel is not None and channel.is_dm else "channel_message"
        if template == "/channels/{channel_id}/messages/{message_id}":
            if method == "PATCH":
                return "edit"
            if method == "DELETE":
                return "delete"
        return "other"

    def _channel(self, params: dict[str, str]) -> Channel | None:
        raw = params.get("channel_id", "")
        return self.world.channels.get(int(raw)) if raw.isdigit() else None

    # --- route table ---------------------------------------------------------------------

    def _add(self, method: str, template: str, handler: Handler, *, exempt: bool = False) -> None:
        self.routes.append(RouteSpec(method, template, _compile(template), handler, exempt))

    def _register(self) -> None:
        add = self._add
        add("GET", "/users/@me", self.get_me)
        add("POST", "/users/@me/channels", self.open_dm)
        add("GET", "/users/{user_id}", self.get_user)
        add("GET", "/oauth2/applications/@me", self.get_application)
        add("GET", "/applications/@me", self.get_application)
        add("GET", "/gateway", self.get_gateway)
        add("GET", "/gateway/bot", self.get_gateway_bot)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            add("GET", prefix + "/commands", self.list_commands)
            add("PUT", prefix + "/commands", self.put_commands)
            add("POST", prefix + "/commands", self.upsert_command)
            add("GET", prefix + "/commands/{command_id}", self.get_command)
            add("PATCH", prefix + "/commands/{command_id}", self.edit_command)
            add("DELETE", prefix + "/commands/{command_id}", self.delete_command)
        add("POST", "/interactions/{interaction_id}/{token}/callback", self.callback, exempt=True)
        add("POST", "/webhooks/{app_id}/{token}", self.followup, exempt=True)
        for method, handler in (
            ("GET", self.get_webhook_message),
            ("PATCH", self.edit_webhook_message),
            ("DELETE", self.delete_webhook_message),
        ):
            add(method, "/webhooks/{app_id}/{token}/messages/{message_id}", handler, exempt=True)
        add("GET", "/channels/{channel_id}", self.get_channel)
        add("GET", "/channels/{channel_id}/messages", self.list_messages)
        add("POST", "/channels/{channel_id}/messages", self.create_message)
        add("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        add("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        add("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        add("POST", "/channels/{channel_id}/typing", self.typing)
        add("GET", "/guilds/{guild_id}", self.get_guild)
        add("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        add("GET", "/guilds/{guild_id}/roles", self.get_roles)
        add("GET", "/guilds/{guild_id}/members", self.list_members)
        add("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        ThreadRoutes(self).register()

    # --- users, application, gateway -----------------------------------------------------

    async def get_me(self, ctx: Ctx) -> web.Response:
        data = self.world.bot.payload()
        data.update(
            {"verified": True, "mfa_enabled": False, "flags": 0, "bot": True, "locale": "en-US"}
        )
        return json_response(data)

    async def get_user(self, ctx: Ctx) -> web.Response:
        user = (
            self.world.users.get(int(ctx.params["user_id"]))
            if ctx.params["user_id"].isdigit()
            else None
        )
        if user is None:
            return error(404, "Unknown User", 10013)
        return json_response(user.payload())

    async def get_application(self, ctx: Ctx) -> web.Response:
        owner = next(iter(u for u in self.world.users.values() if not u.bot), self.world.bot)
        return json_response(
            {
                "id": str(self.world.application_id),
                "name": self.world.bot.username,
                "description": "",
                "icon": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.world.bot.payload(),
                "summary": "",
                "team": None,
            }
        )

    async def get_gateway(self, ctx: Ctx) -> web.Response:
        return json_response({"url": self._gateway_url()})

    async def get_gateway_bot(self, ctx: Ctx) -> web.Response:
        return json_response(
            {
                "url": self._gateway_url(),
                "shards": self.gateway.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000 - self.gateway.stats.identifies,
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    async def open_dm(self, ctx: Ctx) -> web.Response:
        body = ctx.body if isinstance(ctx.body, dict) else {}
        raw = str(body.get("recipient_id", ""))
        user = self.world.users.get(int(raw)) if raw.isdigit() else None
        if user is None or user is self.world.bot:
            return error(400, "Invalid Recipient(s)", 50033)
        return json_response(self.world.channel_payload(self.world.open_dm(user)))

    # --- application commands ------------------------------------------------------------

    def _command_scope(self, ctx: Ctx) -> int | web.Response | None:
        if ctx.params["app_id"] != str(self.world.application_id):
            return error(403, "Missing Access", 50001)
        raw = ctx.params.get("guild_id")
        if raw is None:
            return None
        if not raw.isdigit() or int(raw) not in self.world.guilds:
            return error(404, "Unknown Guild", 10004)
        return int(raw)

    def _scoped(self, guild_id: int | None) -> list[AppCommand]:
        return [c for c in self.world.commands.values() if c.guild_id == guild_id]

    async def list_commands(self, ctx: Ctx) -> web.Response:
        scope = self._command_scope(ctx)
        if isinstance(scope, web.Response):
            return scope
        return json_response([c.payload() for c in self._scoped(scope)])

    async def put_commands(self, ctx: Ctx) -> web.Response:
        scope = self._command_scope(ctx)
        if isinstance(scope, web.Response):
            return scope
        if not isinstance(ctx.body, list):
            return error(400, "400: Bad Request", 50109)
        if len(ctx.body) > 100:
            return error(400, "Maximum number of application commands reached (100)", 30032)
        problems = command_problems(ctx.body)
        if problems:
            return invalid(problems)
        existing = {(c.name, c.type): c for c in self._scoped(scope)}
        for cmd in existing.values():
            del self.world.commands[cmd.id]
        result = []
        for data in ctx.body:
            key = (str(data["name"]), int(data.get("type", 1)))
            old = existing.get(key)
            cmd = AppCommand(
                id=old.id if old else self.world.ids.next(),
                application_id=self.world.application_id,
                guild_id=scope,
                data=dict(data),
                version=self.world.ids.next(),
            )
            self.world.commands[cmd.id] = cmd
            result.append(cmd.payload())
        self.world.command_puts += 1
        self.world.notify()
        return json_response(result)

    async def upsert_command(self, ctx: Ctx) -> web.Response:
        scope = self._command_scope(ctx)
        if isinstance(scope, web.Response):
            return scope
        if not isinstance(ctx.body, dict):
            return error(400, "400: Bad Request", 50109)
        problems = command_problems([ctx.body])
        if problems:
            return invalid(problems)
        key = (str(ctx.body["name"]), int(ctx.body.get("type", 1)))
        old = next((c for c in self._scoped(scope) if (c.name, c.type) == key), None)
        cmd = AppCommand(
            id=old.id if old else self.world.ids.next(),
            application_id=self.world.application_id,
            guild_id=scope,
            data=dict(ctx.body),
            version=self.world.ids.next(),
        )
        self.world.commands[cmd.id] = cmd
        self.world.notify()
        return json_response(cmd.payload(), status=200 if old else 201)

    def _command(self, ctx: Ctx, scope: int | None) -> AppCommand | None:
        raw = ctx.params["command_id"]
        cmd = self.world.commands.get(int(raw)) if raw.isdigit() else None
        return cmd if cmd is not None and cmd.guild_id == scope else None

    async def get_command(self, ctx: Ctx) -> web.Response:
        scope = self._command_scope(ctx)
        if isinstance(scope, web.Response):
            return scope
        cmd = self._command(ctx, scope)
        if cmd is None:
            return error(404, "Unknown application command", 10063)
        return json_response(cmd.payload())

    async def edit_command(self, ctx: Ctx) -> web.Response:
        scope = self._command_scope(ctx)
        if isinstance(scope, web.Response):
            return scope
        cmd = self._command(ctx, scope)
        if cmd is None:
            return error(404, "Unknown application command", 10063)
        cmd.data.update(ctx.body if isinstance(ctx.body, dict) else {})
        cmd.version = self.world.ids.next()
        self.world.notify()
        return json_response(cmd.payload())

    async def delete_command(self, ctx: Ctx) -> web.Response:
        scope = self._command_scope(ctx)
        if isinstance(scope, web.Response):
            return scope
        cmd = self._command(ctx, scope)
        if cmd is None:
            return error(404, "Unknown application command", 10063)
        del self.world.commands[cmd.id]
        self.world.notify()
        return no_content()

    # --- interactions --------------------------------------------------------------------

    async def callback(self, ctx: Ctx) -> web.Response:
        raw_id = ctx.params["interaction_id"]
        record = self.world.interactions.get(int(raw_id)) if raw_id.isdigit() else None
        if record is None or record.token != ctx.params["token"]:
            return error(404, "Unknown interaction", 10062)
        now = asyncio.get_running_loop().time()
        if record.responded:
            record.refused.append("400 Interaction has already been acknowledged (40060)")
            return error(400, "Interaction has already been acknowledged.", 40060)
        elapsed = now - record.dispatched_at
        if elapsed > self._interaction_timeout():
            record.refused.append(
                f"404 Unknown interaction (10062): callback after {elapsed:.2f} s"
            )
            record.expired = True
            return error(404, "Unknown interaction", 10062)
        body = ctx.body if isinstance(ctx.body, dict) else {}
        rtype = int(body.get("type", 0))
        data = body.get("data") or {}
        problem = self._callback_problem(record, rtype, data)
        if problem is not None:
            record.refused.append(f"{problem.status} {problem.text}")
            return problem
        world = self.world
        if rtype == 4:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            record.original = world.create_message(
                record.channel,
                data,
                source="interaction",
                ephemeral_to=record.user.id if ephemeral else None,
                interaction=record,
                message_type=20 if record.type == APPLICATION_COMMAND else 0,
            )
            self._announce_create(record.original)
        elif rtype == 5:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            record.original = world.create_message(
                record.channel,
                {},
                source="interaction",
                ephemeral_to=record.user.id if ephemeral else None,
                interaction=record,
                message_type=20 if record.type == APPLICATION_COMMAND else 0,
                flags=FLAG_LOADING,
            )
        elif rtype == 6:
            record.original = record.source_message
        elif rtype == 7:
            assert record.source_message is not None
            record.original = world.edit_message(record.source_message, data)
            self._announce_update(record.original)
        elif rtype == 9:
            record.modal = data
        elif rtype == 8:
            record.autocomplete_choices = list(data.get("choices") or [])
        record.responded_at = now
        record.response_type = rtype
        record.response_data = data
        world.notify()
        if ctx.query.get("with_response") not in ("1", "true", "True"):
            return no_content()
        return json_response(self._callback_body(record, rtype))

    def _callback_problem(
        self, record: InteractionRecord, rtype: int, data: dict[str, Any]
    ) -> web.Response | None:
        if rtype not in (1, 4, 5, 6, 7, 8, 9):
            return error(400, f"Invalid interaction response type {rtype}", 50035)
        if rtype in (6, 7) and record.type not in (MESSAGE_COMPONENT, MODAL_SUBMIT):
            return error(400, "Interaction response type 6/7 is only valid for components", 50035)
        if rtype in (6, 7) and record.source_message is None:
            return error(400, "This interaction has no message to update", 50035)
        if rtype in (6, 7) and record.source_message is not None and record.source_message.deleted:
            return error(404, "Unknown Message", 10008)
        if rtype == 9 and record.type == MODAL_SUBMIT:
            return error(400, "A modal cannot answer a modal submit", 50035)
        if rtype == 9:
            rows = data.get("components") or []
            if not data.get("custom_id") or not data.get("title") or not 1 <= len(rows) <= 5:
                return error(
                    400, "Invalid Form Body (modal needs custom_id, title, 1-5 rows)", 50035
                )
        if rtype == 4:
            problems = message_problems(data, edit=False)
            if problems:
                return invalid(problems)
        if rtype == 7:
            problems = message_problems(data, edit=True)
            if problems:
                return invalid(problems)
        return None  # note: interaction responses need no Send Messages permission

    def _callback_body(self, record: InteractionRecord, rtype: int) -> dict[str, Any]:
        interaction: dict[str, Any] = {"id": str(record.id), "type": record.type}
        resource: dict[str, Any] = {"type": rtype}
        if record.original is not None and rtype in (4, 5, 6, 7):
            interaction["response_message_id"] = str(record.original.id)
            interaction["response_message_loading"] = record.original.loading
            interaction["response_message_ephemeral"] = record.original.ephemeral
            resource["message"] = self.world.message_payload(record.original)
        return {"interaction": interaction, "resource": resource}

    def _webhook_record(self, ctx: Ctx) -> InteractionRecord | web.Response:
        record = self.world.interactions_by_token.get(ctx.params["token"])
        if record is None or ctx.params["app_id"] != str(self.world.application_id):
            return error(404, "Unknown Webhook", 10015)
        if asyncio.get_running_loop().time() - record.dispatched_at > INTERACTION_TOKEN_LIFETIME:
            return error(401, "Invalid Webhook Token", 50027)
        if not record.responded:
            return error(404, "Unknown Webhook", 10015)
        return record

    async def followup(self, ctx: Ctx) -> web.Response:
        found = self._webhook_record(ctx)
        if isinstance(found, web.Response):
            return found
        record = found
        body = ctx.body if isinstance(ctx.body, dict) else {}
        problems = message_problems(body, edit=False)
        if problems:
            return invalid(problems)
        original = record.original
        if record.response_type == 5 and original is not None and original.loading:
            # Discord treats the first followup after a deferred response as filling in the
            # loading message; its ephemeral flag is the one chosen when deferring.
            patch = {k: v for k, v in body.items() if k != "flags"}
            patch.setdefault("content", body.get("content"))
            msg = self.world.edit_message(original, patch)
            msg.history.clear()
            msg.edited_at = None
            if not msg.ephemeral:
                self._announce_create(msg)
        else:
            ephemeral = bool(int(body.get("flags") or 0) & FLAG_EPHEMERAL)
            msg = self.world.create_message(
                record.channel,
                body,
                source="followup",
                ephemeral_to=record.user.id if ephemeral else None,
                interaction=record,
            )
            if not ephemeral:
                self._announce_create(msg)
        record.followups.append(msg)
        self.world.notify()
        return json_response(self.world.message_payload(msg))

    def _webhook_message(self, ctx: Ctx) -> tuple[InteractionRecord, StoredMessage] | web.Response:
        found = self._webhook_record(ctx)
        if isinstance(found, web.Response):
            return found
        record = found
        raw = ctx.params["message_id"]
        if raw == "@original":
            msg = record.original
        else:
            wanted = int(raw) if raw.isdigit() else -1
            msg = next(
                (m for m in [record.original, *record.followups] if m and m.id == wanted), None
            )
        if msg is None or msg.deleted:
            return error(404, "Unknown Message", 10008)
        return record, msg

    async def get_webhook_message(self, ctx: Ctx) -> web.Response:
        found = self._webhook_message(ctx)
        if isinstance(found, web.Response):
            return found
        return json_response(self.world.message_payload(found[1]))

    async def edit_webhook_message(self, ctx: Ctx) -> web.Response:
        found = self._webhook_message(ctx)
        if isinstance(found, web.Response):
            return found
        _, msg = found
        body = ctx.body if isinstance(ctx.body, dict) else {}
        problems = message_problems(body, edit=True)
        if problems:
            return invalid(problems)
        was_loading = msg.loading
        self.world.edit_message(msg, body)
        if was_loading and not msg.ephemeral:
            self._announce_create(msg)
        elif not msg.ephemeral:
            self._announce_update(msg)
        return json_response(self.world.message_payload(msg))

    async def delete_webhook_message(self, ctx: Ctx) -> web.Response:
        found = self._webhook_message(ctx)
        if isinstance(found, web.Response):
            return found
        _, msg = found
        self.world.delete_message(msg)
        if not msg.ephemeral:
            self._announce_delete(msg)
        return no_content()

    # --- channels and messages -----------------------------------------------------------

    def _find_channel(self, ctx: Ctx) -> Channel | web.Response:
        channel = self._channel(ctx.params)
        if channel is None:
            return error(404, "Unknown Channel", 10003)
        return channel

    def _find_message(self, ctx: Ctx, channel: Channel) -> StoredMessage | web.Response:
        raw = ctx.params["message_id"]
        msg = self.world.messages.get(int(raw)) if raw.isdigit() else None
        if (
            msg is None
            or msg.deleted
            or msg.channel_id != channel.id
            or msg.ephemeral_to is not None
        ):
            return error(404, "Unknown Message", 10008)
        return msg

    async def get_channel(self, ctx: Ctx) -> web.Response:
        channel = self._find_channel(ctx)
        if isinstance(channel, web.Response):
            return channel
        return json_response(self.world.channel_payload(channel))

    async def list_messages(self, ctx: Ctx) -> web.Response:
        channel = self._find_channel(ctx)
        if isinstance(channel, web.Response):
            return channel
        limit = max(1, min(100, int(ctx.query.get("limit", "50"))))
        msgs = [
            m
            for m in (self.world.messages[i] for i in channel.message_ids)
            if not m.deleted and m.ephemeral_to is None and not m.loading
        ]
        if "before" in ctx.query:
            before = int(ctx.query["before"])
            msgs = [m for m in msgs if m.id < before]
        if "after" in ctx.query:
            after = int(ctx.query["after"])
            msgs = [m for m in msgs if m.id > after][:limit]
        msgs = list(reversed(msgs))[:limit]
        return json_response([self.world.message_payload(m) for m in msgs])

    async def get_message(self, ctx: Ctx) -> web.Response:
        channel = self._find_channel(ctx)
        if isinstance(channel, web.Response):
            return channel
        msg = self._find_message(ctx, channel)
        if isinstance(msg, web.Response):
            return msg
        return json_response(self.world.message_payload(msg))

    async def create_message(self, ctx: Ctx) -> web.Response:
        channel = self._find_channel(ctx)
        if isinstance(channel, web.Response):
            return channel
        if channel.is_dm:
            recipient = self.world.users[channel.recipient_id or 0]
            if not recipient.dms_open or recipient.bot:
                return error(403, "Cannot send messages to this user", 50007)
        elif not channel.bot_can_send or (channel.is_thread and not may_post(self, channel)):
            return error(403, "Missing Permissions", 50013)
        body = ctx.body if isinstance(ctx.body, dict) else {}
        problems = message_problems(body, edit=False)
        if problems:
            return invalid(problems)
        message_type = 19 if body.get("message_reference") else 0
        msg = self.world.create_message(channel, body, source="channel", message_type=message_type)
        self._announce_create(msg)
        return json_response(self.world.message_payload(msg))

    async def edit_message(self, ctx: Ctx) -> web.Response:
        channel = self._find_channel(ctx)
        if isinstance(channel, web.Response):
            return channel
        msg = self._find_message(ctx, channel)
        if isinstance(msg, web.Response):
            return msg
        if msg.author is not self.world.bot:
            return error(403, "Cannot edit a message authored by another user", 50005)
        body = ctx.body if isinstance(ctx.body, dict) else {}
        problems = message_problems(body, edit=True)
        if problems:
            return invalid(problems)
        self.world.edit_message(msg, body)
        self._announce_update(msg)
        return json_response(self.world.message_payload(msg))

    async def delete_message(self, ctx: Ctx) -> web.Response:
        channel = self._find_channel(ctx)
        if isinstance(channel, web.Response):
            return channel
        msg = self._find_message(ctx, channel)
        if isinstance(msg, web.Response):
            return msg
        self.world.delete_message(msg)
        self._announce_delete(msg)
        return no_content()

    async def typing(self, ctx: Ctx) -> web.Response:
        channel = self._find_channel(ctx)
        if isinstance(channel, web.Response):
            return channel
        return no_content()

    # --- guilds --------------------------------------------------------------------------

    def _find_guild(self, ctx: Ctx) -> Any:
        raw = ctx.params["guild_id"]
        guild = self.world.guilds.get(int(raw)) if raw.isdigit() else None
        if guild is None:
            return error(404, "Unknown Guild", 10004)
        return guild

    async def get_guild(self, ctx: Ctx) -> web.Response:
        guild = self._find_guild(ctx)
        if isinstance(guild, web.Response):
            return guild
        data = self.world.guild_payload(guild, with_members=False)
        for key in (
            "channels",
            "members",
            "voice_states",
            "presences",
            "threads",
            "joined_at",
            "large",
        ):
            data.pop(key, None)
        return json_response(data)

    async def get_guild_channels(self, ctx: Ctx) -> web.Response:
        guild = self._find_guild(ctx)
        if isinstance(guild, web.Response):
            return guild
        return json_response([self.world.channel_payload(c) for c in guild.channels.values()])

    async def get_roles(self, ctx: Ctx) -> web.Response:
        guild = self._find_guild(ctx)
        if isinstance(guild, web.Response):
            return guild
        return json_response([r.payload() for r in guild.roles.values()])

    async def list_members(self, ctx: Ctx) -> web.Response:
        guild = self._find_guild(ctx)
        if isinstance(guild, web.Response):
            return guild
        limit = max(1, min(1000, int(ctx.query.get("limit", "1"))))
        after = int(ctx.query.get("after", "0"))
        members = sorted(
            (m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id
        )
        return json_response([m.payload() for m in members[:limit]])

    async def get_member(self, ctx: Ctx) -> web.Response:
        guild = self._find_guild(ctx)
        if isinstance(guild, web.Response):
            return guild
        raw = ctx.params["user_id"]
        member = guild.members.get(int(raw)) if raw.isdigit() else None
        if member is None:
            return error(404, "Unknown Member", 10007)
        return json_response(member.payload())

    # --- gateway events for messages -----------------------------------------------------

    def _message_event(self, msg: StoredMessage) -> tuple[dict[str, Any], int]:
        data = self.world.message_payload(msg)
        if msg.guild_id is not None:
            guild = self.world.guilds[msg.guild_id]
            member = guild.members.get(msg.author.id)
            if member is not None:
                data["member"] = member.payload(with_user=False)
        return data, DIRECT_MESSAGES if msg.in_dm else GUILD_MESSAGES

    def _announce_create(self, msg: StoredMessage) -> None:
        if msg.ephemeral_to is not None or msg.loading:
            return
        data, intent = self._message_event(msg)
        self.gateway.dispatch("MESSAGE_CREATE", data, guild_id=msg.guild_id, intent=intent)

    def _announce_update(self, msg: StoredMessage) -> None:
        if msg.ephemeral_to is not None:
            return
        data, intent = self._message_event(msg)
        self.gateway.dispatch("MESSAGE_UPDATE", data, guild_id=msg.guild_id, intent=intent)

    def _announce_delete(self, msg: StoredMessage) -> None:
        data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        intent = DIRECT_MESSAGES if msg.in_dm else GUILD_MESSAGES
        self.gateway.dispatch("MESSAGE_DELETE", data, guild_id=msg.guild_id, intent=intent)


async def _read_body(request: web.Request, world: World) -> Any:
    """JSON, or discord.py's multipart form (``payload_json`` plus ``files[n]``)."""
    if not request.body_exists:
        return None
    content_type = request.content_type
    if content_type == "application/json":
        raw = await request.read()
        return json.loads(raw) if raw else None
    if content_type.startswith("multipart/"):
        reader = await request.multipart()
        payload: dict[str, Any] = {}
        files: list[dict[str, Any]] = []
        while True:
            part = await reader.next()
            if part is None:
                break
            name = getattr(part, "name", None)
            if name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                data = await part.read()  # type: ignore[union-attr]
                filename = getattr(part, "filename", None) or "file"
                attachment_id = world.ids.next()
                files.append(
                    {
                        "id": str(attachment_id),
                        "filename": filename,
                        "size": len(data),
                        "url": f"https://cdn.invalid/attachments/{attachment_id}/{filename}",
                        "proxy_url": f"https://media.invalid/attachments/{attachment_id}/{filename}",
                        "content_type": part.headers.get(
                            "Content-Type", "application/octet-stream"
                        ),
                    }
                )
        if files:
            payload["attachments"] = files
        return payload
    raw = await request.read()
    try:
        return json.loads(raw) if raw else None
    except json.JSONDecodeError as exc:
        raise ValueError("body is not JSON") from exc
