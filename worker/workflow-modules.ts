/**
 * Where our workflow modules are, for the bundles workers run: the SDK's (through the plugin)
 * and our pre-built ones (`bundleWorkflowsTo`). Sources under tsx and vitest, compiled JS from dist/.
 */
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

/** Our workflows' folder (sources under tsx/vitest, compiled JS from dist/). */
const WORKFLOWS_DIR = join(dirname(here), '..', 'workflows');

/** `.ts` from sources, `.js` from dist/: a `workflowsPath` must name an existing file (the bundler stats it). */
const EXT = extname(here);

/** The plugin's default `workflowsPath`, for a worker without workflows of its own: `delegate` only. */
export const DELEGATE_WORKFLOWS_PATH: string = join(WORKFLOWS_DIR, 'bundles', `delegate${EXT}`);

/** Our own worker's `workflowsPath` (`a2a-temporal worker`, the demo, the image): `delegate` and `release`. */
export const SHOWCASE_WORKFLOWS_PATH: string = join(WORKFLOWS_DIR, 'bundles', `showcase${EXT}`);

/** The workflow interceptors of tracing: bundled with every worker's workflows (they pass through unless a run is traced). */
export const TRACING_INTERCEPTORS_PATH = join(WORKFLOWS_DIR, 'tracing-interceptors');

/**
 * Our workflow modules (`a2a-temporal/workflows` and all it imports: `delegate`, `delegateTo`, the
 * contract), loaded once per workflow thread and shared by every workflow (the bundler's
 * `preloadModules`). With the reusable V8 context, a module not preloaded is evaluated again by
 * each workflow and held while the workflow is cached. Safe to share: they keep no state at
 * module scope (everything per delegation lives in the objects `delegate` builds), and the
 * worker freezes what they export. Measured (`npm run bench -- --quick --only parked --parked 500
 * --parked-cache 500`): 395 → 346 MB per 1,000 cached delegations, a bare SDK worker 320–337.
 */
export const SHARED_WORKFLOW_MODULES: readonly string[] = [join(WORKFLOWS_DIR, `index${EXT}`)];
