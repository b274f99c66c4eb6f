/**
 * What the staff read of the field data (`npm run vitals`, ./cli.ts): pure functions of the stored
 * measurements. The statistic is Google's for Core Web Vitals: the 75th percentile of a page's
 * measurements, rated good / needs improvement / poor by the same thresholds (src/domain/vitals.ts).
 * The percentile is the nearest-rank one: the smallest value that at least 75% of the measurements
 * are at or below, so that it is always a value a visitor really had. The staff's figures count
 * every measurement alike; by device class, /speed's figure (./figure.ts, one say per network) is
 * given beside them, over the same window. */
import {
  formatValue,
  metricNames,
  MIN_RATED_VISITS,
  rate,
  ratingWords,
  thresholds,
  type MeasurementIntake,
  type MetricName,
  type Rating,
} from '../../domain/vitals.ts';
import { htmlText } from '../../domain/html-text.ts';
import { grouped } from '../../domain/numbers.ts';
import { csvCell, terminalText } from '../safe-text.ts';
import type { VitalRecord, VitalsDay, VitalsP75, VitalsStore } from '../store/types.ts';
import { classFigures, networkFigure, p75 } from './figure.ts';

export interface Summary {
  /** What the rows are split by: a page path, a connection type, a device class. */
  group: string;
  metric: MetricName;
  p75: number;
  rating: Rating;
  samples: number;
  /** With `perNetwork`: /speed's figure of the same measurements, null when too few for one. */
  perNetwork?: number | null;
}

/** One group's p75 of one metric and its count, as `p75` or the store (EnquiryStore.vitalsP75) makes it. */
export type GroupP75 = Omit<Summary, 'rating'>;

/**
 * p75 per group and metric, groups in order of their samples (most first), metrics in their order;
 * with `perNetwork`, /speed's figure of each beside it.
 */
export function summarise(
  records: readonly VitalRecord[],
  groupOf: (record: VitalRecord) => string,
  { perNetwork = false }: { perNetwork?: boolean } = {},
): Summary[] {
  const groups = Map.groupBy(records, (record) => `${record.metric} ${groupOf(record)}`);
  return summaryRows(
    [...groups.values()].map((list) => ({
      group: groupOf(list[0]!),
      metric: list[0]!.metric,
      p75: p75(list.map((r) => r.value))!,
      samples: list.length,
      ...(perNetwork && { perNetwork: networkFigure(list) ?? null }),
    })),
  );
}

/**
 * The store's p75s (EnquiryStore.vitalsP75) split by `key` and metric, as summarise gives them; with
 * `perNetwork`, /speed's figure of each row beside it.
 */
export function summaryOf<K extends 'day' | 'path' | 'connection' | 'device'>(
  rows: readonly VitalsP75<K | 'metric'>[],
  key: K,
  perNetwork?: (group: string, metric: MetricName) => number | null,
): Summary[] {
  return summaryRows(
    rows.map((row) => ({
      group: row[key],
      metric: row.metric,
      p75: row.p75,
      samples: row.samples,
      ...(perNetwork && { perNetwork: perNetwork(row[key], row.metric) }),
    })),
  );
}

/** The groups' p75s rated, groups in order of their samples (most first), metrics in their order. */
export function summaryRows(rows: readonly GroupP75[]): Summary[] {
  const sizes = new Map<string, number>();
  for (const row of rows) sizes.set(row.group, (sizes.get(row.group) ?? 0) + row.samples);
  const order = (row: GroupP75) => metricNames.indexOf(row.metric);
  return rows
    .filter((row) => order(row) >= 0)
    .sort(
      (a, b) =>
        sizes.get(b.group)! - sizes.get(a.group)! ||
        a.group.localeCompare(b.group) ||
        order(a) - order(b),
    )
    .map((row) => ({ ...row, rating: rate(row.metric, row.p75) }));
}

/** The day `days` days before `today` ('YYYY-MM-DD'), the first day a window of `days` includes. */
export const windowStart = (today: string, days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);

/** /speed's figure of a row, as the tables show it: '-' when too few for one. */
const perNetworkCell = (r: Summary) =>
  r.perNetwork == null ? '-' : formatValue(r.metric, r.perNetwork);

function table(title: string, heading: string, rows: readonly Summary[]): string {
  if (!rows.length) return `${title}\n  (no measurements)\n`;
  const withNetworks = 'perNetwork' in rows[0]!;
  const cells = rows.map((r) => [
    terminalText(r.group, 60),
    r.metric,
    formatValue(r.metric, r.p75),
    ratingWords(r.rating, r.samples),
    String(r.samples),
    ...(withNetworks ? [perNetworkCell(r)] : []),
  ]);
  const header = [
    heading,
    'metric',
    'p75',
    'rating',
    'samples',
    ...(withNetworks ? ['/speed (per network)'] : []),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    `  ${c.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`.trimEnd();
  return [title, line(header), ...cells.map(line)].join('\n') + '\n';
}

/** The measurements the days of a window received, kept, sampled out and dropped, in all. */
export function dayTotals(days: readonly VitalsDay[]): MeasurementIntake {
  const sum = (key: 'received' | 'kept' | 'dropped') => days.reduce((n, d) => n + d[key], 0);
  const [received, kept, dropped] = [sum('received'), sum('kept'), sum('dropped')];
  const sampled = days.filter((d) => d.received - d.dropped > d.kept);
  return {
    received,
    kept,
    dropped,
    sampledOut: Math.max(0, received - dropped - kept),
    sampledDays: sampled.length,
  };
}

const plural = (n: number, word: string) => `${grouped(n)} ${word}${n === 1 ? '' : 's'}`;

/** What came in and what was kept, for the report's heading: sampled and dropped said when any. */
function intake(days: readonly VitalsDay[]): string {
  if (!days.length) return '';
  const t = dayTotals(days);
  const parts = [`Received ${plural(t.received, 'measurement')}, kept ${grouped(t.kept)}.`];
  if (t.sampledOut)
    parts.push(
      `On ${plural(t.sampledDays, 'day')} more came than a day keeps (VITALS_DAILY_CAP): a random sample of the day's was kept, ${grouped(t.sampledOut)} left out.`,
    );
  if (t.dropped)
    parts.push(
      `${plural(t.dropped, 'measurement')} dropped: a network over its daily share (VITALS_PER_NETWORK_PER_DAY), a full queue or a failed write.`,
    );
  return `${parts.join(' ')}\n`;
}

/**
 * What the staff's figures are, unlike /speed's: every measurement counts alike, so that a page's
 * or a day's figure is what its measurements say, a flood included, for staff to see.
 */
const PLAIN =
  "Plain figures: every measurement counts alike. By device class, '/speed (per network)' is the figure /speed shows for the same measurements: each network's own p75, then the mean of the middle half of those (none below 100 measurements or 5 networks).";

/** What the terminal report shows: how many measurements, and p75 per page, connection and device. */
export interface ReportTables {
  measurements: number;
  byPage: Summary[];
  byConnection: Summary[];
  /** With /speed's figure of each beside it. */
  byDevice: Summary[];
}

/** The report's tables from the measurements themselves. */
export const reportTables = (records: readonly VitalRecord[]): ReportTables => ({
  measurements: records.length,
  byPage: summarise(records, (r) => r.path),
  byConnection: summarise(records, (r) => r.connection),
  byDevice: summarise(records, (r) => r.device, { perNetwork: true }),
});

/**
 * The same tables worked out by the store, from `from` to `to` (the days included): a few hundred
 * rows read, however many measurements the window holds.
 */
export async function reportTablesOf(
  store: Pick<VitalsStore, 'vitalsP75'>,
  from: string,
  to: string,
): Promise<ReportTables> {
  const window = { to };
  const [pages, connections, devices, networks] = await Promise.all([
    store.vitalsP75(from, ['path', 'metric'], window),
    store.vitalsP75(from, ['connection', 'metric'], window),
    store.vitalsP75(from, ['device', 'metric'], window),
    store.vitalsP75(from, ['device', 'metric', 'network'], window),
  ]);
  const of = classFigures(networks);
  return {
    measurements: pages.reduce((sum, row) => sum + row.samples, 0),
    byPage: summaryOf(pages, 'path'),
    byConnection: summaryOf(connections, 'connection'),
    byDevice: summaryOf(devices, 'device', (device, metric) => of(device, metric).figure ?? null),
  };
}

/** Each metric's p75 by day (the HTML report's charts), worked out by the store as the tables are. */
export const dailyP75Of = async (
  store: Pick<VitalsStore, 'vitalsP75'>,
  from: string,
  to: string,
): Promise<Summary[]> => summaryOf(await store.vitalsP75(from, ['day', 'metric'], { to }), 'day');

/** The terminal report: per page and metric, then per connection type and per device class. */
export function formatTables(
  tables: ReportTables,
  from: string,
  to: string,
  days: readonly VitalsDay[] = [],
): string {
  const count = tables.measurements;
  const heading = `Field data, ${from} to ${to}: ${count} measurement${count === 1 ? '' : 's'}. p75, rated as Google's Core Web Vitals are (${metricNames
    .map((m) => `${m} good <= ${formatValue(m, thresholds[m][0])}`)
    .join(', ')}).\n${PLAIN}\n${intake(days)}`;
  return [
    heading,
    table('By page', 'page', tables.byPage),
    table('By connection type', 'connection', tables.byConnection),
    table('By device class', 'device', tables.byDevice),
  ].join('\n');
}

const csvColumns: [string, (r: VitalRecord) => string][] = [
  ['day', (r) => r.day],
  ['path', (r) => r.path],
  ['metric', (r) => r.metric],
  ['value', (r) => String(r.value)],
  ['rating', (r) => r.rating],
  ['navigation', (r) => r.navigation],
  ['connection', (r) => r.connection],
  ['device', (r) => r.device],
  ['build', (r) => r.build],
  ['target', (r) => r.target ?? ''],
  ['input_delay', (r) => (r.phases ? String(r.phases[0]) : '')],
  ['processing', (r) => (r.phases ? String(r.phases[1]) : '')],
  ['presentation', (r) => (r.phases ? String(r.phases[2]) : '')],
];

/** The CSV's first line: its columns' names. */
export const VITALS_CSV_HEADER = `${csvColumns.map(([name]) => csvCell(name)).join(',')}\r\n`;

/** Measurements as lines of the CSV, each cell safe to open in a spreadsheet (./safe-text.ts). */
export const vitalsCsvLines = (records: readonly VitalRecord[]) =>
  records.map((r) => `${csvColumns.map(([, get]) => csvCell(get(r))).join(',')}\r\n`).join('');

const ratingColour: Record<Rating, string> = {
  good: '#0a7d3b',
  'needs-improvement': '#a15c00',
  poor: '#b3261e',
};

/** Every day from `from` to `to`, inclusive. */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (
    let t = Date.parse(`${from}T00:00:00Z`);
    t <= Date.parse(`${to}T00:00:00Z`);
    t += 86_400_000
  ) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** An SVG chart of a metric's p75 by day, with its two thresholds; days without data leave a gap. */
function chart(metric: MetricName, daily: readonly Summary[], days: readonly string[]) {
  const byDay = daily.filter((s) => s.metric === metric);
  const points = new Map(byDay.map((s) => [s.group, s]));
  const [good, poor] = thresholds[metric];
  const top = Math.max(poor * 1.25, ...byDay.map((s) => s.p75)) || 1;
  const width = 640;
  const height = 200;
  const left = 56;
  const bottom = 24;
  const x = (i: number) =>
    left + (days.length < 2 ? 0 : (i * (width - left - 8)) / (days.length - 1));
  const y = (v: number) => 8 + (1 - v / top) * (height - bottom - 8);
  const bars = days
    .map((day, i) => {
      const s = points.get(day);
      if (!s) return '';
      return `<circle cx="${x(i).toFixed(1)}" cy="${y(s.p75).toFixed(1)}" r="4" fill="${ratingColour[s.rating]}"><title>${day}: p75 ${htmlText(formatValue(metric, s.p75))} (${s.samples} samples)</title></circle>`;
    })
    .join('');
  const line = days
    .map((day, i) => [points.get(day), i] as const)
    .filter(([s]) => s)
    .map(([s, i]) => `${x(i).toFixed(1)},${y(s!.p75).toFixed(1)}`)
    .join(' ');
  const rule = (v: number, label: string, colour: string) =>
    `<line x1="${left}" x2="${width - 8}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="${colour}" stroke-dasharray="4 4"/><text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${htmlText(label)}</text>`;
  const labels = [0, days.length - 1]
    .filter((i, n, all) => days[i] && all.indexOf(i) === n)
    .map(
      (i) =>
        `<text x="${x(i).toFixed(1)}" y="${height - 6}" text-anchor="${i === 0 ? 'start' : 'end'}">${days[i]}</text>`,
    )
    .join('');
  return `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${metric} p75 by day"><rect x="${left}" y="8" width="${width - left - 8}" height="${height - bottom - 8}" fill="#f6f7f9"/>${rule(good, formatValue(metric, good), ratingColour.good)}${rule(poor, formatValue(metric, poor), ratingColour.poor)}${line ? `<polyline points="${line}" fill="none" stroke="#1d3a8a" stroke-width="2"/>` : ''}${bars}${labels}</svg>`;
}

function htmlTable(heading: string, rows: readonly Summary[]) {
  if (!rows.length) return '<p>No measurements.</p>';
  const withNetworks = 'perNetwork' in rows[0]!;
  const body = rows
    .map(
      (r) =>
        `<tr><td>${htmlText(r.group)}</td><td>${r.metric}</td><td>${htmlText(formatValue(r.metric, r.p75))}</td><td style="color:${r.samples < MIN_RATED_VISITS ? '#555' : ratingColour[r.rating]}">${ratingWords(r.rating, r.samples)}</td><td>${r.samples}</td>${withNetworks ? `<td>${htmlText(perNetworkCell(r))}</td>` : ''}</tr>`,
    )
    .join('');
  return `<table><thead><tr><th scope="col">${heading}</th><th scope="col">Metric</th><th scope="col">p75</th><th scope="col">Rating</th><th scope="col">Samples</th>${withNetworks ? '<th scope="col">/speed (per network)</th>' : ''}</tr></thead><tbody>${body}</tbody></table>`;
}

/**
 * One self-contained page (no script, no request: styles and charts inline) that a member of staff
 * can open and forward: a chart per metric of the p75 by day, and the tables of the terminal report.
 */
export function formatHtmlReport(
  tables: ReportTables,
  daily: readonly Summary[],
  from: string,
  to: string,
  site: string,
): string {
  const days = daysBetween(from, to);
  const charts = metricNames
    .map((m) => `<section><h2>${m}</h2>${chart(m, daily, days)}</section>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Field data: ${htmlText(site)}, ${from} to ${to}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#14171f}svg{width:100%;height:auto;font-size:11px;fill:#4a5060}table{border-collapse:collapse;width:100%;margin:1rem 0 2rem}th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #dde1e8}td:nth-child(3),td:nth-child(5){font-variant-numeric:tabular-nums}</style>
</head><body>
<h1>Field data: ${htmlText(site)}</h1>
<p>${from} to ${to}: ${tables.measurements} measurements of real visits. Each figure is the 75th percentile (p75), rated as Google's Core Web Vitals are: ${metricNames.map((m) => `${m} good up to ${htmlText(formatValue(m, thresholds[m][0]))}, poor above ${htmlText(formatValue(m, thresholds[m][1]))}`).join('; ')}. ${htmlText(PLAIN)}</p>
<h2>p75 by day</h2>${charts}
<h2>By page</h2>${htmlTable('Page', tables.byPage)}
<h2>By connection type</h2>${htmlTable('Connection', tables.byConnection)}
<h2>By device class</h2>${htmlTable('Device', tables.byDevice)}
</body></html>
`;
}
