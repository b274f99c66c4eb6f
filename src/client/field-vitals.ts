/**
 * Field data: the Core Web Vitals of this page view, measured by web-vitals and sent to the site's
 * own server (src/server/vitals/) in one small beacon when the page is hidden. Loaded by the first
 * move of BaseLayout once the page is idle, never for a browser that sends Global Privacy Control.
 * Nothing identifies the visitor: no cookie, no storage, the path without its query or fragment.
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { endpoints } from '../domain/api';
import type { Beacon, ConnectionType, DeviceClass, Measurement } from '../domain/vitals';

/** A short selector of an element: its tag, id or first class, and those of two ancestors. */
function selectorOf(node: Node | null | undefined): string | undefined {
  const parts: string[] = [];
  for (let el = node as Element | null; el?.tagName && parts.length < 3; el = el.parentElement) {
    const name = el.tagName.toLowerCase();
    if (el.id) {
      parts.unshift(`${name}#${el.id}`);
      break;
    }
    const cls = el.classList?.[0];
    parts.unshift(cls ? `${name}.${cls}` : name);
  }
  const text = parts.join('>').replace(/[^\x20-\x7e]/g, '');
  return text ? text.slice(0, 100) : undefined;
}

type Timing = PerformanceEntry & {
  element?: Element;
  target?: Node;
  processingStart?: number;
  processingEnd?: number;
};

/** The metric, with what attribution is cheap: LCP's element; INP's target and its phase split. */
function measurement({ name, value, entries }: Metric): Measurement {
  const m: Measurement = { name, value: Math.round(value * 1000) / 1000 } as Measurement;
  const last = entries.at(-1) as Timing | undefined;
  const target = name === 'LCP' ? last?.element : name === 'INP' ? last?.target : undefined;
  const selector = target && selectorOf(target);
  if (selector) m.target = selector;
  if (name === 'INP' && last?.processingStart !== undefined) {
    const { startTime, duration, processingStart, processingEnd = processingStart } = last;
    const ms = (t: number) => Math.max(0, Math.round(t));
    m.phases = [
      ms(processingStart - startTime),
      ms(processingEnd - processingStart),
      ms(startTime + duration - processingEnd),
    ];
  }
  return m;
}

const connection = (): ConnectionType => {
  const type = (navigator as { connection?: { effectiveType?: string } }).connection?.effectiveType;
  return type === 'slow-2g' || type === '2g' || type === '3g' || type === '4g' ? type : 'unknown';
};

// Read once, while the page is live (not as it unloads).
const device: DeviceClass = !matchMedia('(pointer: coarse)').matches
  ? 'desktop'
  : Math.min(screen.width, screen.height) < 600
    ? 'phone'
    : 'tablet';

/** Measured and not sent yet; each metric of a page view is sent once. */
const pending = new Map<string, Measurement>();
const sent = new Set<string>();
let navigation: Metric['navigationType'] = 'navigate';

const collect = (metric: Metric) => {
  if (sent.has(metric.id)) return;
  navigation = metric.navigationType;
  pending.set(metric.id, measurement(metric));
};

function send() {
  if (!pending.size) return;
  const beacon: Beacon = {
    path: location.pathname,
    navigation,
    connection: connection(),
    device,
    metrics: [...pending.values()],
  };
  for (const id of pending.keys()) sent.add(id);
  pending.clear();
  const body = JSON.stringify(beacon);
  // A string is sent as text/plain, which needs no preflight; the server reads it as JSON.
  if (!navigator.sendBeacon?.(endpoints.vitals, body)) {
    fetch(endpoints.vitals, { method: 'POST', body, keepalive: true }).catch(() => {});
  }
}

for (const on of [onLCP, onCLS, onFCP, onTTFB]) on(collect);
// Each change of INP, not only its value as the page is hidden: web-vitals reads the interactions it
// was handed when the page is next idle, or as it is hidden, in a listener added then, after its
// final report; a tap just before leaving, on a phone not idle since, was read too late to be sent.
onINP(collect, { reportAllChanges: true });
// Sent as the page is hidden, once web-vitals has its final values (CLS, INP): its listeners are
// the window's capturing ones, some added only as interactions come, and this one, not capturing,
// runs after them all. Leaving a page fires pagehide before visibilitychange: it sends only where
// no visibilitychange follows (the page is hidden already).
addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && send());
addEventListener('pagehide', () => document.visibilityState === 'hidden' && send(), true);
