/**
 * Search attributes the project's workflows set, so the Temporal UI's list can be filtered
 * (e.g. `A2aTaskState = "TASK_STATE_INPUT_REQUIRED"`). The dev server registers them at start;
 * on another Temporal service register them once with `temporal operator search-attribute create`.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** The search attribute `A2aAgent`: the agent a delegation works with. See [docs/observability.md](../docs/observability.md#the-temporal-ui). */
export const A2A_AGENT = defineSearchAttributeKey('A2aAgent', SearchAttributeType.KEYWORD);
/** The search attribute `A2aTaskState`: the state of a delegation's remote task. See [docs/observability.md](../docs/observability.md#the-temporal-ui). */
export const A2A_TASK_STATE = defineSearchAttributeKey('A2aTaskState', SearchAttributeType.KEYWORD);
/** The search attribute `A2aTaskId`: the id of a delegation's remote task. See [docs/observability.md](../docs/observability.md#the-temporal-ui). */
export const A2A_TASK_ID = defineSearchAttributeKey('A2aTaskId', SearchAttributeType.KEYWORD);
/** The search attribute `ReleaseService`: the service a release upgrades. See [docs/observability.md](../docs/observability.md#the-temporal-ui). */
export const RELEASE_SERVICE = defineSearchAttributeKey('ReleaseService', SearchAttributeType.KEYWORD);
/** The search attribute `ReleasePhase`: where a release is. See [docs/observability.md](../docs/observability.md#the-temporal-ui). */
export const RELEASE_PHASE = defineSearchAttributeKey('ReleasePhase', SearchAttributeType.KEYWORD);

/** Every search attribute the workflows set, which a namespace must have registered. See [docs/configuration.md](../docs/configuration.md#the-temporal-server). */
export const searchAttributeKeys = [A2A_AGENT, A2A_TASK_STATE, A2A_TASK_ID, RELEASE_SERVICE, RELEASE_PHASE] as const;
