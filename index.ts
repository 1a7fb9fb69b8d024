/**
 * a2a-temporal as a library, for code that runs OUTSIDE workflows (workers, clients, scripts).
 * Workflow code imports `a2a-temporal/workflows` instead: it is the only sandbox-safe entry.
 */
export { ensureTemporalCli, type TemporalCli, type TemporalCliRoute } from './platform/temporal-cli.js';
export { startDevServer, type DevServer, type DevServerOptions } from './platform/dev-server.js';
export { temporalTarget, type TemporalTarget } from './platform/temporal-config.js';
