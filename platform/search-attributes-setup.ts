/**
 * The search attributes the project's workflows set (workflows/search-attributes.ts), checked and
 * registered on a namespace. A namespace without them refuses every workflow start that sets one
 * ("no mapping defined for search attribute …"), so workers check at start and `a2a-temporal setup`
 * registers them.
 */
import { SearchAttributeType } from '@temporalio/common';
import proto from '@temporalio/proto';
import { searchAttributeKeys } from '../contract/search-attributes.js';

const IndexedValueType = proto.temporal.api.enums.v1.IndexedValueType;
type OperatorService = proto.temporal.api.operatorservice.v1.OperatorService;

/** Anything with an operator service: a client `Connection` or a worker's `NativeConnection`. */
export interface HasOperatorService {
  operatorService: Pick<OperatorService, 'listSearchAttributes' | 'addSearchAttributes'>;
}

const INDEXED_TYPE: Record<SearchAttributeType, proto.temporal.api.enums.v1.IndexedValueType> = {
  [SearchAttributeType.TEXT]: IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  [SearchAttributeType.KEYWORD]: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  [SearchAttributeType.INT]: IndexedValueType.INDEXED_VALUE_TYPE_INT,
  [SearchAttributeType.DOUBLE]: IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  [SearchAttributeType.BOOL]: IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  [SearchAttributeType.DATETIME]: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  [SearchAttributeType.KEYWORD_LIST]: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

/** The `--type` of `temporal operator search-attribute create` for each type. */
export const CLI_TYPE_NAME: Record<SearchAttributeType, string> = {
  [SearchAttributeType.TEXT]: 'Text',
  [SearchAttributeType.KEYWORD]: 'Keyword',
  [SearchAttributeType.INT]: 'Int',
  [SearchAttributeType.DOUBLE]: 'Double',
  [SearchAttributeType.BOOL]: 'Bool',
  [SearchAttributeType.DATETIME]: 'Datetime',
  [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
};

export interface SearchAttributeCheck {
  /** Names the namespace does not have. */
  missing: string[];
  /** Names it has with another type (`A2aTaskId (Text, needs Keyword)`): these cannot be fixed by adding. */
  wrongType: string[];
}

/** Compares the namespace's custom search attributes with the workflows'. */
export async function checkSearchAttributes(
  connection: HasOperatorService,
  namespace: string,
): Promise<SearchAttributeCheck> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const registered = customAttributes ?? {};
  const result: SearchAttributeCheck = { missing: [], wrongType: [] };
  for (const key of searchAttributeKeys) {
    const has = registered[key.name];
    if (has === undefined || has === null) result.missing.push(key.name);
    else if (has !== INDEXED_TYPE[key.type]) {
      const hasName = Object.entries(INDEXED_TYPE).find(([, v]) => v === has)?.[0] as SearchAttributeType | undefined;
      result.wrongType.push(
        `${key.name} (${hasName ? CLI_TYPE_NAME[hasName] : String(has)}, needs ${CLI_TYPE_NAME[key.type]})`,
      );
    }
  }
  return result;
}

/**
 * Registers the search attributes the namespace lacks (a dev server started without them, a
 * self-hosted cluster). @returns the names it added (empty when all were there).
 */
export async function ensureSearchAttributes(connection: HasOperatorService, namespace: string): Promise<string[]> {
  const { missing } = await checkSearchAttributes(connection, namespace);
  if (missing.length === 0) return [];
  await registerSearchAttributes(connection, namespace, missing);
  return missing;
}

/**
 * Registers `names` (default: all of ours) without asking which exist: for a server that cannot
 * list them (Temporal's time-skipping test server implements AddSearchAttributes only).
 */
export async function registerSearchAttributes(
  connection: { operatorService: Pick<OperatorService, 'addSearchAttributes'> },
  namespace: string,
  names: string[] = searchAttributeKeys.map((key) => key.name),
): Promise<void> {
  const types = new Map<string, SearchAttributeType>(searchAttributeKeys.map((key) => [key.name, key.type]));
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(names.map((name) => [name, INDEXED_TYPE[types.get(name)!]])),
  });
}

/** The command that prepares `namespace` (with the profile in use, so it works as printed). */
export function setupCommand(namespace: string): string {
  const profile = process.env.TEMPORAL_PROFILE ? ` --profile ${process.env.TEMPORAL_PROFILE}` : '';
  return `a2a-temporal setup${profile} --namespace ${namespace}`;
}

/** `A2aAgent, A2aTaskState, … (Keyword)`: what a namespace needs, for messages. */
export function requiredSearchAttributes(): string {
  return searchAttributeKeys.map((key) => `${key.name} (${CLI_TYPE_NAME[key.type]})`).join(', ');
}
