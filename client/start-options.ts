/** Flags and checks shared by the commands that start workflows (`release start`, `delegate`). */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Client } from '@temporalio/client';
import { loadAgentRegistry, type AgentRegistry } from '../activities/index.js';
import { DEFAULT_TASK_QUEUE } from '../platform/temporal-config.js';
import type { Duration } from '@temporalio/common';
import { durationMs, InvalidDurationError } from '../contract/durations.js';
import type { TrackingMode } from '../contract/index.js';
import { CliError, usageError } from './cli-error.js';

export const MODES: TrackingMode[] = ['auto', 'stream', 'poll', 'push'];

export function parseMode(value: string | undefined): TrackingMode | undefined {
  if (value === undefined) return undefined;
  if (!(MODES as string[]).includes(value))
    throw usageError(`--mode must be one of ${MODES.join(', ')}; got "${value}".`);
  return value as TrackingMode;
}

/** A duration flag, checked before anything starts (the workflow would refuse it after "Started"). */
export function parseDurationFlag(value: string | undefined, flag: string): Duration | undefined {
  if (value === undefined) return undefined;
  try {
    durationMs(value, flag);
  } catch (err) {
    if (err instanceof InvalidDurationError) throw usageError(err.message);
    throw err;
  }
  return value as Duration;
}

/** Longest id the CLI sends (task, context, workflow ids): what A2A agents and Temporal accept. */
const MAX_ID_LENGTH = 256;

/** An id flag (task or context id): not empty, not blank, at most 256 characters. */
export function parseIdFlag(value: string, flag: string): string {
  const id = value.trim();
  if (!id) throw usageError(`${flag} needs an id; got an empty one.`);
  if (id.length > MAX_ID_LENGTH)
    throw usageError(`${flag} takes an id of at most ${MAX_ID_LENGTH} characters; got ${id.length}.`);
  return id;
}

export function taskQueueOf(flag: string | undefined): string {
  return flag ?? process.env.A2A_TASK_QUEUE ?? DEFAULT_TASK_QUEUE;
}

/** A readable, unique workflow id: `<prefix>-<8 hex>`, prefix reduced to [a-z0-9.-]. */
export function readableId(prefix: string): string {
  return `${prefix
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^-+|-+$/g, '')}-${randomUUID().slice(0, 8)}`;
}

/** Reads a JSON file (a manifest, a data part). @throws CliError (usage) naming the file and the problem. */
export function readJsonFile(path: string, what: string, flag: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(resolve(path), 'utf8');
  } catch (err) {
    throw usageError(
      `Cannot read the ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}. Give its path with ${flag}.`,
    );
  }
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('expected a JSON object');
    return value as Record<string, unknown>;
  } catch (err) {
    throw usageError(`The ${what} ${path} is not a JSON object: ${(err as Error).message}.`);
  }
}

/**
 * The agents file the CLI checks names against: `--agents-file`, A2A_AGENTS_FILE, or ./agents.json.
 * The worker resolves names with its own file; this check only catches typos early.
 */
export function cliRegistry(flag: string | undefined): AgentRegistry | undefined {
  const path = flag ?? process.env.A2A_AGENTS_FILE ?? (existsSync('agents.json') ? 'agents.json' : undefined);
  if (!path) return undefined;
  try {
    return loadAgentRegistry(path);
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
}

/**
 * @throws CliError (usage) when a name is neither a URL nor in the agents file, or is a URL with
 * user info (`https://user:password@…`): that would be stored in history as the workflow's input.
 */
export function checkAgentNames(registry: AgentRegistry | undefined, names: string[]): void {
  for (const name of names) {
    if (/^https?:\/\//.test(name)) {
      if (hasUserInfo(name))
        throw new CliError(
          'An agent URL with user info (user:password@) would be stored in the workflow history as it is, and agents are never sent such URLs; put the credential in the agents file (auth) and name the agent, or give its URL without user info.',
          2,
        );
      continue;
    }
    if (!registry) continue;
    try {
      registry.locate(name);
    } catch (err) {
      throw new CliError((err as Error).message, 2);
    }
  }
}

function hasUserInfo(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false; // not a URL after all: the worker says what is wrong with it
  }
}

/** Warns when no worker polls the task queue: the workflow would wait until one starts. */
export async function warnWithoutWorker(client: Client, namespace: string, taskQueue: string): Promise<void> {
  try {
    const { pollers } = await client.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue },
      taskQueueType: 1,
    });
    if (!pollers?.length) {
      console.error(
        `note: no worker polls task queue "${taskQueue}" yet; the workflow waits until one starts (a2a-temporal worker --task-queue ${taskQueue}).`,
      );
    }
  } catch {
    // Only a hint: never fail a start because the task queue could not be described.
  }
}
