"""A peer agent for the delegation tests, on the official A2A Python SDK (`a2a-sdk`, PyPI).

An upgrade advisor speaking A2A 1.0 over JSON-RPC (`/a2a/jsonrpc`), HTTP+JSON (`/a2a/rest`) and
gRPC (the SDK's `GrpcHandler` on a `grpc.aio` server, on a second free port), with streaming and
push notifications sent by the SDK's own sender. It binds HOST on a free port and prints its base
URL as the first line on stdout; it stops on SIGTERM or when stdin closes (so it never outlives
the test process that started it).

    python agent.py [--host 127.0.0.1] [--work-delay-ms 300] [--chunk-delay-ms 150]
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import logging
import socket
import sys
import threading
import urllib.parse

import grpc.aio
import httpx
import uvicorn
from starlette.applications import Starlette

import a2a.types.a2a_pb2_grpc as a2a_grpc

from a2a.server.agent_execution import SimpleRequestContextBuilder
from a2a.server.request_handlers import DefaultRequestHandler, GrpcHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import BasePushNotificationSender, InMemoryPushNotificationConfigStore, InMemoryTaskStore
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentProvider, AgentSkill

from executor import AdvisorExecutor

JSONRPC_PATH = '/a2a/jsonrpc'
REST_PATH = '/a2a/rest'


def build_card(base_url: str, grpc_address: str) -> AgentCard:
    modes_in, modes_out = ['text/plain', 'application/json'], ['text/markdown', 'application/json']
    return AgentCard(
        name='Upgrade Advisor (Python a2a-sdk)',
        description='Checks a package.json against a target Node.js version and streams a risk-rated report; '
        'asks for the target version when the request does not name it.',
        version='1.0.0',
        provider=AgentProvider(organization='a2a-temporal test peers', url=base_url),
        supported_interfaces=[
            AgentInterface(url=base_url + JSONRPC_PATH, protocol_binding='JSONRPC', protocol_version='1.0'),
            AgentInterface(url=base_url + REST_PATH, protocol_binding='HTTP+JSON', protocol_version='1.0'),
            AgentInterface(url=grpc_address, protocol_binding='GRPC', protocol_version='1.0'),
        ],
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        default_input_modes=modes_in,
        default_output_modes=modes_out,
        skills=[
            AgentSkill(
                id='node-upgrade-advice',
                name='Node.js upgrade advice',
                description='Send a request and a package.json as a data part; get a markdown report and JSON findings. '
                'A follow-up that references the task can ask to sort the fix suggestions by risk.',
                tags=['dependencies', 'node.js', 'upgrade'],
                examples=['Check payment-service for Node.js 24', 'Sort the fix suggestions by risk'],
                input_modes=modes_in,
                output_modes=modes_out,
            )
        ],
    )


async def loopback_only(url: str) -> bool:
    """Push URLs this test agent calls: loopback only (the test's receiver), never anything else."""
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme not in ('http', 'https') or not parsed.hostname:
        return False
    if parsed.hostname == 'localhost':
        return True
    try:
        return ipaddress.ip_address(parsed.hostname).is_loopback
    except ValueError:
        return False


def build_handler(card: AgentCard, work_delay_ms: float, chunk_delay_ms: float) -> DefaultRequestHandler:
    task_store = InMemoryTaskStore()
    push_store = InMemoryPushNotificationConfigStore()
    sender = BasePushNotificationSender(httpx.AsyncClient(timeout=10), push_store, push_url_validator=loopback_only)
    return DefaultRequestHandler(
        agent_executor=AdvisorExecutor(work_delay_ms, chunk_delay_ms),
        task_store=task_store,
        agent_card=card,
        push_config_store=push_store,
        push_sender=sender,
        # Follow-ups read the report of the tasks they reference from the store.
        request_context_builder=SimpleRequestContextBuilder(should_populate_referred_tasks=True, task_store=task_store),
        push_url_validator=loopback_only,
    )


def build_app(card: AgentCard, handler: DefaultRequestHandler) -> Starlette:
    routes = [
        *create_agent_card_routes(card),
        *create_jsonrpc_routes(handler, JSONRPC_PATH),
        *create_rest_routes(handler, path_prefix=REST_PATH),
    ]
    return Starlette(routes=routes)


async def serve(args: argparse.Namespace, sock: socket.socket) -> None:
    base_url = f'http://{args.host}:{sock.getsockname()[1]}'
    # The gRPC server binds its own free port; it starts in this loop, beside uvicorn.
    grpc_server = grpc.aio.server()
    grpc_port = grpc_server.add_insecure_port(f'{args.host}:0')
    card = build_card(base_url, f'{args.host}:{grpc_port}')
    handler = build_handler(card, args.work_delay_ms, args.chunk_delay_ms)
    a2a_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), grpc_server)
    await grpc_server.start()
    server = uvicorn.Server(uvicorn.Config(build_app(card, handler), log_level='warning', timeout_graceful_shutdown=1))
    loop = asyncio.get_running_loop()

    def stop_when_stdin_closes() -> None:
        sys.stdin.buffer.read()
        loop.call_soon_threadsafe(setattr, server, 'should_exit', True)

    threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    # Connections made before uvicorn accepts wait in the listen backlog; the URL is printed now.
    print(base_url, flush=True)
    try:
        await server.serve(sockets=[sock])
    finally:
        await grpc_server.stop(grace=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--host', default='127.0.0.1')
    parser.add_argument('--work-delay-ms', type=float, default=300)
    parser.add_argument('--chunk-delay-ms', type=float, default=150)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((args.host, 0))
    sock.listen(128)
    asyncio.run(serve(args, sock))


if __name__ == '__main__':
    main()
