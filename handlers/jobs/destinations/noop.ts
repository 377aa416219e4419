/**
 * PostHog's NoOp destination: reads nothing, writes nothing, and completes with 0 records. Its optional delay is
 * test-only (HEDGEROW_NOOP_DELAY_MS): a process test needs a run that is still going when it kills the process.
 */
import type { Destination, ExportOutcome, ExportRun } from './types.js';

export function noopDestination(delayMs = 0): Destination {
  return {
    async run({ signal }: ExportRun): Promise<ExportOutcome> {
      if (delayMs > 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, delayMs);
          signal.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              reject(signal.reason);
            },
            { once: true },
          );
        });
      }
      signal.throwIfAborted();
      return { recordsCompleted: 0, bytesExported: 0 };
    },
  };
}
