/**
 * The SDK's push sender logs every delivery (one line per event and artifact chunk) with
 * console.info; a sample agent delivering to a benchmark's or a test's receiver would drown its
 * output. Installed once per process by the agent server; other console.info output passes.
 */
let installed = false;

export function quietPushDeliveryLog(): void {
  if (installed) return;
  installed = true;
  const info = console.info.bind(console);
  console.info = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('Push notification sent')) return;
    info(...args);
  };
}
