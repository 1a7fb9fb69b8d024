/**
 * The bench's dev server settings (`--dynamic-config-value`). The dev server has ONE history
 * shard, and a shard's transfer and timer queues load new tasks at most 20 times a second by
 * default: once the burst allowance is spent, every workflow task waits for the next load,
 * which a production cluster (hundreds of shards) does not see. Measured here (`--quick --only
 * latency`, with and without `--default-server-config`): about 32 ms per workflow task, i.e.
 * p50 190 → 62 ms for `blocking_activity` (4 workflow tasks) and 352 → 125 ms for `delegate`
 * (7). Lifted for every variant alike; the ratio between them barely moves (1.85 → 2.0).
 */
export const DEV_SERVER_DYNAMIC_CONFIG = {
  'history.transferProcessorMaxPollRPS': 1000,
  'history.timerProcessorMaxPollRPS': 1000,
  'history.visibilityProcessorMaxPollRPS': 1000,
};
