/**
 * What `npm run test:cluster` (test/cluster/run.ts) hands to the cluster durability test: where
 * the server is, which pid it has now, and the PostgreSQL cluster to restart. The runner writes it
 * to a file and names the file in A2A_TEST_CLUSTER.
 */
import { readFileSync } from 'node:fs';
import type { PostgresInfo } from './postgres.js';

export interface ClusterState {
  address: string;
  namespace: string;
  uiUrl?: string;
  /** Holds the pid of the server process running now (the supervisor rewrites it after a restart). */
  serverPidFile: string;
  postgres: PostgresInfo;
  /** The server reaches PostgreSQL through this Toxiproxy link (the API's URL, the link's name). */
  postgresLink: { apiUrl: string; name: string };
  /** Where the durability test writes its figures (JSON) for the runner to print. */
  figuresFile: string;
}

/** @throws Error saying how to run the test when A2A_TEST_CLUSTER is not set. */
export function loadClusterState(): ClusterState {
  const file = process.env.A2A_TEST_CLUSTER;
  if (!file) {
    throw new Error(
      'The cluster tests run against the cluster `npm run test:cluster` starts; run them with that command.',
    );
  }
  return JSON.parse(readFileSync(file, 'utf8')) as ClusterState;
}

export function serverPid(state: ClusterState): number {
  return Number(readFileSync(state.serverPidFile, 'utf8').trim());
}
