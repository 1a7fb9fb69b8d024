"""What one task's conversation has established so far, and the test switches it carries.

The switches are the ones every sample agent of the project honours, read from the user
messages' `metadata` (the latest value wins, so a switch set on the first message still applies
to the answers): `scenario`, `workDelayMs`, `chunkDelayMs`, `ackDelayMs`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from google.protobuf.json_format import MessageToDict

from a2a.helpers import get_data_parts, get_text_parts
from a2a.types import Message

from advisor import looks_like_manifest, parse_target_node

SCENARIOS = ('fail', 'reject', 'message', 'second-question', 'auth-required', 'never-finish')

QUESTION_TARGET_NODE = 'target-node'
QUESTION_PACKAGE_MANAGER = 'package-manager'
QUESTION_REGISTRY_AUTH = 'registry-auth'


@dataclass
class Switches:
    work_delay_ms: float
    chunk_delay_ms: float
    ack_delay_ms: float = 0
    scenario: str | None = None

    def apply(self, metadata: dict[str, Any]) -> None:
        named = metadata.get('scenario')
        if named in SCENARIOS:
            self.scenario = named
        self.work_delay_ms = _delay(metadata.get('workDelayMs'), self.work_delay_ms)
        self.chunk_delay_ms = _delay(metadata.get('chunkDelayMs'), self.chunk_delay_ms)
        self.ack_delay_ms = _delay(metadata.get('ackDelayMs'), self.ack_delay_ms)


def _delay(value: Any, current: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return current
    return number if number >= 0 else current


@dataclass
class Conversation:
    switches: Switches
    manifest: dict[str, Any] | None = None
    target_node: int | None = None
    package_manager: str | None = None
    authorized: bool = False
    #: The id of the question the agent asked last and nobody answered yet.
    pending: str | None = None

    def hear(self, message: Message) -> None:
        """Takes in one user message: switches, a manifest, and the answer to the pending question."""
        self.switches.apply(MessageToDict(message.metadata) if message.HasField('metadata') else {})
        for data in get_data_parts(message.parts):
            if looks_like_manifest(data):
                self.manifest = data
        text = '\n'.join(get_text_parts(message.parts))
        named = parse_target_node(text, bare=self.pending == QUESTION_TARGET_NODE)
        self.target_node = named or self.target_node
        if self.pending == QUESTION_PACKAGE_MANAGER:
            self.package_manager = next(
                (word for word in ('pnpm', 'npm', 'yarn', 'bun') if word in text.lower()), text.strip()[:40] or 'unspecified'
            )
        if self.pending == QUESTION_REGISTRY_AUTH:
            self.authorized = True
        self.pending = None


def carries_manifest(message: Message) -> bool:
    return any(looks_like_manifest(data) for data in get_data_parts(message.parts))
