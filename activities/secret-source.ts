/**
 * Secrets named by the agents file: an environment variable, or a file (a Kubernetes or compose
 * secret) read again on every use, so a rotated secret is picked up without a restart.
 */
import { readFile } from 'node:fs/promises';
import { CredentialMissingError } from './agent-registry.js';

/** Where one secret lives: exactly one of the two is set. */
export interface SecretRef {
  env?: string | undefined;
  file?: string | undefined;
}

/** The largest secret file read (a PEM chain is a few KB; anything bigger is a wrong path). */
const MAX_SECRET_FILE_BYTES = 1024 * 1024;

/**
 * The secret's current value, trimmed of surrounding whitespace (files usually end in a newline).
 * @throws CredentialMissingError naming the variable or file and what it should hold.
 */
export async function readSecret(ref: SecretRef, env: NodeJS.ProcessEnv, what: string, agent: string): Promise<string> {
  if (ref.env !== undefined) {
    const value = env[ref.env]?.trim();
    if (value) return value;
    throw new CredentialMissingError(
      `Agent "${agent}" needs the environment variable ${ref.env} (${what}), which is not set in the worker's environment; set it and restart the worker.`,
    );
  }
  const file = ref.file ?? '';
  try {
    const text = await readFile(file, 'utf8');
    if (text.length > MAX_SECRET_FILE_BYTES) throw new Error(`larger than ${MAX_SECRET_FILE_BYTES} bytes`);
    const value = text.trim();
    if (value) return value;
    throw new Error('the file is empty');
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new CredentialMissingError(
      `Agent "${agent}" needs the file ${file} (${what}), which cannot be read (${why}); mount the secret there.`,
    );
  }
}
