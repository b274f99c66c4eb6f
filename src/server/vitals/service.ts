/**
 * The field data service: the recorder that writes beacons into the enquiries' store, and the rate
 * limit beacons are counted against (built once, by ../app.ts). Its limit is its own, in this
 * process's memory even with PostgreSQL: a reader's page views must never use up the posts the
 * enquiry forms allow them, and a beacon is not worth a database round trip to count.
 */
import type { ServerConfig } from '../config.ts';
import { RateLimiter, type RateLimit } from '../requests/rate-limit.ts';
import { onShutdown } from '../shutdown.ts';
import type { EnquiryStore } from '../store/types.ts';
import { readBuildPages } from './build.ts';
import { Pacer } from './pacer.ts';
import { VitalsRecorder } from './recorder.ts';

export interface VitalsService {
  config: ServerConfig;
  limiter: RateLimit | undefined;
  recorder: VitalsRecorder;
  pacer: Pacer;
}

export async function startVitals(
  store: EnquiryStore,
  config: ServerConfig,
): Promise<VitalsService> {
  const { flushMs, retentionDays, perClientPerMinute, perSecond, dailyCap, perNetwork } =
    config.vitals;
  const recorder = new VitalsRecorder({
    store,
    build: readBuildPages(config.distDir),
    flushMs,
    retentionDays,
    dailyCap,
    perNetwork,
    networkSecret: await store.vitalsSecret(),
  });
  const limiter = config.rateLimit.enabled
    ? new RateLimiter(perClientPerMinute, 60_000)
    : undefined;
  // Measurements still queued when the server stops are written, not lost.
  onShutdown(() => recorder.close());
  return { config, limiter, recorder, pacer: new Pacer(perSecond) };
}
