/**
 * Creates a Temporal namespace when it does not exist (a fresh self-hosted cluster creates none,
 * not even `default`). Temporal Cloud refuses: its namespaces are made in its UI or with `tcld`.
 */
import type { ConnectionLike } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import type { Duration } from '@temporalio/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { grpcCode, GrpcStatus } from './grpc-status.js';

export type NamespaceOutcome = 'exists' | 'created';

/**
 * @param retention how long closed workflows are kept (the namespace's retention), e.g. '3 days'
 * @throws the server's error when the namespace is missing and cannot be created
 */
export async function ensureNamespace(
  connection: Pick<ConnectionLike, 'workflowService' | 'operatorService'>,
  namespace: string,
  retention: Duration,
): Promise<NamespaceOutcome> {
  if (await namespaceExists(connection, namespace)) return 'exists';
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(retention),
    });
  } catch (err) {
    // Another setup created it in the meantime: that is what we wanted.
    if (grpcCode(err) !== GrpcStatus.ALREADY_EXISTS) throw err;
  }
  // DescribeNamespace reads the database, but most calls go through the frontend's namespace
  // cache, which learns of a new namespace up to ~10 s later: wait until one of those works.
  for (let i = 0; ; i++) {
    try {
      await connection.operatorService.listSearchAttributes({ namespace });
      return 'created';
    } catch (err) {
      if (grpcCode(err) !== GrpcStatus.NOT_FOUND || i >= 300) throw err;
    }
    await sleep(100);
  }
}

async function namespaceExists(connection: Pick<ConnectionLike, 'workflowService'>, namespace: string) {
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } catch (err) {
    if (grpcCode(err) === GrpcStatus.NOT_FOUND) return false;
    throw err;
  }
}
