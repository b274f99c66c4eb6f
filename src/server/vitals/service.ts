/**
 * The field data service of this process: the recorder that writes beacons into the enquiries'
 * store, and the rate limit beacons are counted against, opened on first use. Its limit is its
 * own, in this process's memory even with PostgreSQL: a reader's page views must never use up the
 * posts the enquiry forms allow them, and a beacon is not worth a database round trip to count.
 */
import { serverConfig, type ServerConfig } from '../config.ts';
import { getEnquiryService } from '../enquiries/service.ts';
import { RateLimiter, type RateLimit } from '../requests/rate-limit.ts';
import { onShutdown } from '../shutdown.ts';
import { readBuildPages } from './build.ts';
import { Pacer } from './pacer.ts';
import { SpeedFiguresCache, type SpeedFigures } from './speed.ts';
import { VitalsRecorder } from './recorder.ts';

export interface VitalsService {
  config: ServerConfig;
  limiter: RateLimit | undefined;
  recorder: VitalsRecorder;
  pacer: Pacer;
}

let service: Promise<VitalsService> | undefined;

export function getVitalsService(): Promise<VitalsService> {
  service ??= (async () => {
    const { store } = await getEnquiryService();
    const config = serverConfig();
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
  })().catch((error: unknown) => {
    service = undefined;
    throw error;
  });
  return service;
}

let speed: SpeedFiguresCache | undefined;

/**
 * What /speed shows, for this process: the store read at most once a minute, however many visit it
 * (./speed.ts). Only the store is needed, not the beacons' recorder.
 */
export async function getSpeedFigures(): Promise<SpeedFigures> {
  const { store } = await getEnquiryService();
  speed ??= new SpeedFiguresCache(async (from) => {
    const [records, days] = await Promise.all([
      store.vitalsSince(from),
      store.vitalsDaysSince(from),
    ]);
    return { records, days };
  });
  return speed.get();
}
