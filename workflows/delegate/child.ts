/**
 * Delegation from inside any workflow: `delegate` runs as a child workflow with its own
 * history, its own id (answers can be sent to it directly) and a link in the Temporal UI.
 *
 * ```ts
 * import { delegateTo } from 'a2a-temporal/workflows';
 * const { artifacts } = await delegateTo({ agent: 'compat', text: 'Check these dependencies', parts: [{ data: manifest }] });
 * ```
 */
import { ParentClosePolicy, startChild, uuid4, workflowInfo, type ChildWorkflowHandle } from '@temporalio/workflow';
import { delegate } from './delegate.js';
import type { DelegateInput, DelegateResult } from '../../contract/delegation-types.js';
import { A2A_AGENT } from '../../contract/search-attributes.js';
import { agentLabel } from '../../contract/telemetry.js';
import { truncateBytes } from '../../contract/text.js';

/** How `delegateTo` and `startDelegation` start the child delegation: its id and options. See [docs/guide.md](../../docs/guide.md#delegation-inside-your-own-workflows). */
export interface DelegationChildOptions {
  /** @default `<parent id>/<label or "delegate">-<8 hex>` */
  workflowId?: string;
  /** @default the parent's task queue */
  taskQueue?: string;
  /** One line for the UI (at most 200 bytes). @default `Delegate to <agent>: <start of the text>` */
  summary?: string;
  /** What happens to the delegation when the parent closes first. @default REQUEST_CANCEL (the remote task is canceled too) */
  parentClosePolicy?: ParentClosePolicy;
}

/** Starts a delegation as a child workflow and returns its handle (for fan-out and for routing answers). */
export function startDelegation(
  input: DelegateInput,
  options: DelegationChildOptions = {},
): Promise<ChildWorkflowHandle<typeof delegate>> {
  return startChild(delegate, {
    args: [input],
    workflowId:
      options.workflowId ?? `${workflowInfo().workflowId}/${input.label ?? 'delegate'}-${uuid4().slice(0, 8)}`,
    taskQueue: options.taskQueue,
    parentClosePolicy: options.parentClosePolicy ?? ParentClosePolicy.REQUEST_CANCEL,
    staticSummary: truncateBytes(
      options.summary ?? `Delegate to ${agentLabel(input.agent)}${input.text ? `: ${input.text}` : ''}`,
      200,
    ),
    staticDetails: input.text
      ? truncateBytes(`**Request to ${agentLabel(input.agent)}**\n\n${input.text}`, 4_000)
      : undefined,
    typedSearchAttributes: [{ key: A2A_AGENT, value: agentLabel(input.agent) }],
  });
}

/** Runs a delegation as a child workflow and returns its result (throws its typed failure). */
export async function delegateTo(input: DelegateInput, options?: DelegationChildOptions): Promise<DelegateResult> {
  const child = await startDelegation(input, options);
  return child.result();
}
