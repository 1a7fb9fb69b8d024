/**
 * Registers the project's search attributes on a Temporal service that does not have them yet
 * (a dev server started without them, a self-hosted cluster). Temporal Cloud registers them
 * through its own tools; there this reports what is missing instead.
 */
import type { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { searchAttributeKeys } from '../workflows/search-attributes.js';

/** @returns the names it added (empty when all were there). */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = searchAttributeKeys.filter((key) => !(customAttributes && key.name in customAttributes));
  if (missing.length === 0) return [];
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(
      missing.map((key) => [key.name, proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD]),
    ),
  });
  return missing.map((key) => key.name);
}
