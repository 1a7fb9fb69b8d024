import { fileURLToPath } from 'node:url';
// Importing the JSON (rather than only pointing at it) also makes `tsc` copy it into dist/.
import manifest from './sample-manifest.json' with { type: 'json' };
import type { JsonValue } from '../../a2a/schemas/json.js';

/** payment-service 1.4.0's package.json: findings of every risk level for Node.js 24, and license findings. */
export const SAMPLE_MANIFEST: Readonly<Record<string, JsonValue>> = manifest;

/** Absolute path of `sample-manifest.json` (next to this module, in the sources and in dist/). */
export const SAMPLE_MANIFEST_PATH = fileURLToPath(new URL('./sample-manifest.json', import.meta.url));
