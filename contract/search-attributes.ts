/**
 * Search attributes the project's workflows set, so the Temporal UI's list can be filtered
 * (e.g. `A2aTaskState = "TASK_STATE_INPUT_REQUIRED"`). The dev server registers them at start;
 * on another Temporal service register them once with `temporal operator search-attribute create`.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const A2A_AGENT = defineSearchAttributeKey('A2aAgent', SearchAttributeType.KEYWORD);
export const A2A_TASK_STATE = defineSearchAttributeKey('A2aTaskState', SearchAttributeType.KEYWORD);
export const A2A_TASK_ID = defineSearchAttributeKey('A2aTaskId', SearchAttributeType.KEYWORD);
export const RELEASE_SERVICE = defineSearchAttributeKey('ReleaseService', SearchAttributeType.KEYWORD);
export const RELEASE_PHASE = defineSearchAttributeKey('ReleasePhase', SearchAttributeType.KEYWORD);

export const searchAttributeKeys = [A2A_AGENT, A2A_TASK_STATE, A2A_TASK_ID, RELEASE_SERVICE, RELEASE_PHASE] as const;
