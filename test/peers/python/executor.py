"""The upgrade advisor as an `AgentExecutor` of the official A2A Python SDK.

Each `execute` call is one turn of a task: the SDK hands over the user message (and, on later
turns, the stored task); the agent publishes events through the SDK's `TaskUpdater`. The turn
logic follows the project's sample agents, scenario switches included, so the same delegation
tests run against this agent and against ours.
"""

from __future__ import annotations

import asyncio

from a2a.helpers import get_data_parts, new_task, new_text_message, new_text_part, new_data_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import Message, Part, TaskState

import advisor
from conversation import (
    QUESTION_PACKAGE_MANAGER,
    QUESTION_REGISTRY_AUTH,
    QUESTION_TARGET_NODE,
    Conversation,
    Switches,
    carries_manifest,
)

MARKDOWN = 'text/markdown'


class AdvisorExecutor(AgentExecutor):
    def __init__(self, work_delay_ms: float, chunk_delay_ms: float) -> None:
        self._work_delay_ms = work_delay_ms
        self._chunk_delay_ms = chunk_delay_ms
        #: task id → what the task's conversation established; dropped when the task ends.
        self._conversations: dict[str, Conversation] = {}

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        task_id, context_id = context.task_id or '', context.context_id or ''
        if message is None:
            return
        conversation = self._conversations.get(task_id) if context.current_task else None
        if conversation is None:
            conversation = Conversation(Switches(self._work_delay_ms, self._chunk_delay_ms))
            self._conversations[task_id] = conversation
        conversation.hear(message)
        switches = conversation.switches
        # ackDelayMs: nothing is published before it passes, so the send is acknowledged late.
        await asyncio.sleep(switches.ack_delay_ms / 1000)

        if switches.scenario == 'message' and context.current_task is None:
            self._conversations.pop(task_id, None)
            text = 'Direct reply without a task (scenario "message").'
            await event_queue.enqueue_event(new_text_message(text, context_id=context_id))
            return
        if context.current_task is None:
            await event_queue.enqueue_event(
                new_task(task_id, context_id, TaskState.TASK_STATE_SUBMITTED, history=[message])
            )
        updater = TaskUpdater(event_queue, task_id, context_id)
        ended = await self._turn(context, updater, conversation)
        if ended:
            self._conversations.pop(task_id, None)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        # The SDK cancels the running turn (if any) after this; the CANCELED status is ours to write.
        task_id = context.task_id or ''
        self._conversations.pop(task_id, None)
        updater = TaskUpdater(event_queue, task_id, context.context_id or '')
        await updater.cancel(updater.new_agent_message([new_text_part('Canceled at the client\'s request.')]))

    async def _turn(self, context: RequestContext, updater: TaskUpdater, conversation: Conversation) -> bool:
        """One turn; True when the task reached a terminal state."""
        switches = conversation.switches

        def say(text: str, **metadata: str) -> Message:
            return updater.new_agent_message([new_text_part(text)], metadata=metadata or None)

        if switches.scenario == 'fail':
            await updater.failed(say('Simulated failure: the analysis backend is unavailable.'))
            return True
        if switches.scenario == 'reject':
            await updater.reject(say('Rejected: this agent declines the request (scenario "reject").'))
            return True
        if switches.scenario == 'never-finish':
            await updater.start_work(say('Working on it; this task never finishes on its own: cancel it.'))
            await asyncio.Event().wait()  # ends when the SDK cancels the turn (CancelTask)
        message: Message = context.message  # type: ignore[assignment]
        if context.current_task is None and message.reference_task_ids and not carries_manifest(message):
            return await self._sort_referenced(context, updater, switches)
        manifest = conversation.manifest
        if manifest is None:
            await updater.failed(say('Cannot analyse the dependencies: send a data part with a package.json.'))
            return True
        service = manifest.get('name') or 'the service'
        question = None
        if switches.scenario == 'auth-required' and not conversation.authorized:
            question = (
                QUESTION_REGISTRY_AUTH,
                TaskState.TASK_STATE_AUTH_REQUIRED,
                f"Authorize access to the private npm registry so I can resolve {service}'s private packages, "
                'then send any message to continue.',
            )
        elif conversation.target_node is None:
            question = (
                QUESTION_TARGET_NODE,
                TaskState.TASK_STATE_INPUT_REQUIRED,
                f'Which Node.js version should {service} target? (for example: Node.js 24)',
            )
        elif switches.scenario == 'second-question' and conversation.package_manager is None:
            question = (
                QUESTION_PACKAGE_MANAGER,
                TaskState.TASK_STATE_INPUT_REQUIRED,
                f'Which package manager does {service} use: npm or pnpm?',
            )
        if question:
            question_id, state, text = question
            await updater.start_work()
            conversation.pending = question_id
            await updater.update_status(state, say(text, question=question_id))
            return False

        target = conversation.target_node or 0
        await updater.start_work(say(f'Analysing the dependencies of {service} for Node.js {target}.'))
        await asyncio.sleep(switches.work_delay_ms / 1000)
        findings = advisor.analyse(manifest, target)
        chunks = advisor.report_chunks(manifest, target, findings, conversation.package_manager)
        await self._stream(updater, switches, advisor.REPORT_ARTIFACT_ID, advisor.REPORT_ARTIFACT_NAME, chunks)
        counts = {risk: sum(1 for f in findings if f.risk == risk) for risk in advisor.RISKS}
        await updater.complete(
            say(
                f'The compatibility report for {service} on Node.js {target} is ready: '
                f"{counts['high']} high, {counts['medium']} medium and {counts['low']} low risk findings."
            )
        )
        return True

    async def _sort_referenced(self, context: RequestContext, updater: TaskUpdater, switches: Switches) -> bool:
        wanted = ', '.join(context.message.reference_task_ids)  # type: ignore[union-attr]
        findings = None
        for task in context.related_tasks:
            for artifact in task.artifacts:
                if artifact.artifact_id == advisor.REPORT_ARTIFACT_ID:
                    for data in get_data_parts(artifact.parts):
                        findings = advisor.findings_from_data(data) or findings
        if findings is None:
            text = f'Cannot sort the fix suggestions: the referenced task {wanted} has no compatibility report here.'
            await updater.failed(updater.new_agent_message([new_text_part(text)]))
            return True
        await updater.start_work(updater.new_agent_message([new_text_part('Sorting the fix suggestions by risk.')]))
        await asyncio.sleep(switches.work_delay_ms / 1000)
        ordered = advisor.sort_by_risk(findings)
        chunk = [('text', advisor.sorted_suggestions_text(ordered)), ('data', {'findings': advisor.as_data(ordered)})]
        await self._stream(updater, switches, advisor.SORTED_ARTIFACT_ID, advisor.SORTED_ARTIFACT_NAME, [chunk])
        await updater.complete(
            updater.new_agent_message([new_text_part(f'Sorted {len(ordered)} fix suggestions by risk (high first).')])
        )
        return True

    async def _stream(self, updater: TaskUpdater, switches: Switches, artifact_id: str, name: str, chunks) -> None:
        """One artifact as `artifactUpdate` events: the first replaces, the rest append, the last says so."""
        for index, chunk in enumerate(chunks):
            if index > 0:
                await asyncio.sleep(switches.chunk_delay_ms / 1000)
            await updater.add_artifact(
                [_part(kind, value) for kind, value in chunk],
                artifact_id=artifact_id,
                name=name,
                append=index > 0,
                last_chunk=index == len(chunks) - 1,
            )


def _part(kind: str, value) -> Part:
    return new_text_part(value, media_type=MARKDOWN) if kind == 'text' else new_data_part(value, 'application/json')
