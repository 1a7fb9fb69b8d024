/**
 * A2A 0.3 over HTTP+JSON, as a dialect of the one HTTP+JSON transport: routes under `/v1`
 * (`/v1/message:send`, `/v1/tasks/{id}` …), bodies in the ProtoJSON of the 0.3 proto (`content`
 * parts, `ROLE_USER`, `TASK_STATE_*`), errors as `{code, message, data}` with the JSON-RPC code
 * and an HTTP status. No `A2A-Version` header, no tenants, no ListTasks.
 */
import type { RestDialect } from '../http-json-transport.js';
import { protoSendRequest, protoTaskPushConfig } from './from-v1.js';
import {
  legacyEventToV1,
  legacyPushConfigListToV1,
  legacyPushConfigToV1,
  legacySendResultToV1,
  legacyTaskToV1,
} from './to-v1.js';

export const V03_REST: RestDialect = {
  protocolVersion: '0.3',
  headers: {},
  accept: 'application/json',
  prefix: '/v1',
  tenants: false,
  eventKeys: ['task', 'msg', 'message', 'statusUpdate', 'artifactUpdate', 'kind'],
  extendedCardPath: '/card',
  sendRequest: protoSendRequest,
  pushConfigRequest: protoTaskPushConfig,
  pushConfigsQuery: () => undefined,
  event: legacyEventToV1,
  sendResponse: legacySendResultToV1,
  task: legacyTaskToV1,
  pushConfig: legacyPushConfigToV1,
  pushConfigs: (json, ctx) =>
    legacyPushConfigListToV1(json ?? { configs: [] }, { ...ctx, what: 'push notification configs' }),
};
