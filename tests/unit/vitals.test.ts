/**
 * Field data's rules: the beacon schema the server holds a page's measurements to, the thresholds
 * (Google's, as web-vitals has them), the p75 the staff's report gives, and the recorder's batches.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  CLSThresholds,
  FCPThresholds,
  INPThresholds,
  LCPThresholds,
  TTFBThresholds,
} from 'web-vitals';
import { beaconSchema, rate, thresholds } from '../../src/domain/vitals';
import {
  formatHtmlReport,
  formatTables,
  reportTables,
  summarise,
  VITALS_CSV_HEADER,
  vitalsCsvLines,
  windowStart,
} from '../../src/server/vitals/report';
import { p75 } from '../../src/server/vitals/figure';
import { BATCH, MAX_QUEUED, networkKey, VitalsRecorder } from '../../src/server/vitals/recorder';
import { Pacer } from '../../src/server/vitals/pacer';
import type { NewVitalRecord, VitalsDayCounts, VitalsStore } from '../../src/server/store/types';
import { vitalRecord as record } from '../support/records';

const beacon = (overrides: Record<string, unknown> = {}) => ({
  path: '/iphone',
  navigation: 'navigate',
  connection: '4g',
  device: 'phone',
  metrics: [
    { name: 'LCP', value: 812.5, target: 'main>h1.hero__title' },
    { name: 'INP', value: 64, target: 'button.menu-toggle', phases: [8, 20, 36] },
    { name: 'CLS', value: 0.01 },
    { name: 'FCP', value: 500 },
    { name: 'TTFB', value: 80 },
  ],
  ...overrides,
});

describe('the beacon schema', () => {
  it('takes what the page sends', () => {
    expect(beaconSchema.safeParse(beacon()).success).toBe(true);
  });

  const refused: [string, unknown][] = [
    ['an unknown metric', beacon({ metrics: [{ name: 'FID', value: 10 }] })],
    ['a negative value', beacon({ metrics: [{ name: 'LCP', value: -1 }] })],
    ['an LCP over a minute', beacon({ metrics: [{ name: 'LCP', value: 60_001 }] })],
    ['a CLS over 10', beacon({ metrics: [{ name: 'CLS', value: 11 }] })],
    ['a value that is not a number', beacon({ metrics: [{ name: 'LCP', value: '800' }] })],
    ['Infinity', beacon({ metrics: [{ name: 'LCP', value: Infinity }] })],
    [
      'a metric sent twice',
      beacon({
        metrics: [
          { name: 'LCP', value: 1 },
          { name: 'LCP', value: 2 },
        ],
      }),
    ],
    ['no metric', beacon({ metrics: [] })],
    ['an extra field', beacon({ userAgent: 'Mozilla/5.0' })],
    ['an extra field in a metric', beacon({ metrics: [{ name: 'LCP', value: 1, ip: '1.2.3.4' }] })],
    ['phases for LCP', beacon({ metrics: [{ name: 'LCP', value: 1, phases: [1, 2, 3] }] })],
    [
      'a selector with a control character',
      beacon({ metrics: [{ name: 'LCP', value: 1, target: 'h1\u001b[2J' }] }),
    ],
    [
      'a selector of 101 characters',
      beacon({ metrics: [{ name: 'LCP', value: 1, target: 'a'.repeat(101) }] }),
    ],
    ['an unknown device', beacon({ device: 'fridge' })],
    ['an unknown connection', beacon({ connection: '5g' })],
    ['a path that is not one', beacon({ path: 'https://evil.example/' })],
    ['a path of 201 characters', beacon({ path: `/${'a'.repeat(200)}` })],
    ['an array', [beacon()]],
    ['null', null],
  ];
  it.each(refused)('refuses %s', (_, value) => {
    expect(beaconSchema.safeParse(value).success).toBe(false);
  });
});

describe('thresholds', () => {
  it("are web-vitals' own", () => {
    expect(thresholds).toEqual({
      LCP: LCPThresholds,
      INP: INPThresholds,
      CLS: CLSThresholds,
      FCP: FCPThresholds,
      TTFB: TTFBThresholds,
    });
  });

  it('rate a value at a threshold as the better side', () => {
    expect(rate('LCP', 2500)).toBe('good');
    expect(rate('LCP', 2501)).toBe('needs-improvement');
    expect(rate('LCP', 4000)).toBe('needs-improvement');
    expect(rate('LCP', 4001)).toBe('poor');
    expect(rate('CLS', 0.1)).toBe('good');
    expect(rate('CLS', 0.26)).toBe('poor');
  });
});

describe('the p75', () => {
  it('is the nearest-rank 75th percentile', () => {
    expect(p75([])).toBeUndefined();
    expect(p75([7])).toBe(7);
    expect(p75([4, 1, 3, 2])).toBe(3);
    // 10 values: rank ceil(7.5) = 8.
    expect(p75([10, 9, 8, 7, 6, 5, 4, 3, 2, 1])).toBe(8);
    expect(p75([0.01, 0.3, 0.02, 0.05, 0.2])).toBe(0.2);
  });

  it('of a fixed fixture, per page and metric, with its rating and samples', () => {
    // /: LCP 1000..4000 in steps of 250 (13 values): rank ceil(9.75) = 10 -> 3250.
    const lcp = Array.from({ length: 13 }, (_, i) => record({ value: 1000 + 250 * i }));
    const inp = [40, 90, 180, 560].map((value) => record({ metric: 'INP', value }));
    const other = [0.3, 0.02].map((value) => record({ path: '/iphone', metric: 'CLS', value }));
    expect(summarise([...lcp, ...inp, ...other], (r) => r.path)).toEqual([
      { group: '/', metric: 'LCP', p75: 3250, rating: 'needs-improvement', samples: 13 },
      { group: '/', metric: 'INP', p75: 180, rating: 'good', samples: 4 },
      { group: '/iphone', metric: 'CLS', p75: 0.3, rating: 'poor', samples: 2 },
    ]);
    const report = formatTables(
      reportTables([...lcp, ...inp, ...other]),
      '2026-10-28',
      '2026-11-24',
    );
    expect(report).toMatch(/\/\s+LCP\s+3250 ms\s+needs improvement\s+13/);
    // From fewer than 5 visits: not rated (2 CLS, 4 INP), as the desk's table says it too.
    expect(report).toMatch(/\/iphone\s+CLS\s+0\.300\s+too few visits\s+2/);
    expect(report).toMatch(/\/\s+INP\s+180 ms\s+too few visits\s+4/);
    expect(report).toContain('19 measurements');
    // Not /speed's figures (one say per network), and it says so.
    expect(report).toContain('Plain figures: every measurement counts alike');
  });

  it('says what the days received, kept, sampled out and dropped, when they have counts', () => {
    const days = [
      { day: '2026-11-20', received: 60_000, kept: 50_000, dropped: 4_000 },
      { day: '2026-11-21', received: 30, kept: 30, dropped: 0 },
    ];
    const report = formatTables(reportTables([record()]), '2026-10-28', '2026-11-24', days);
    expect(report).toContain('Received 60,030 measurements, kept 50,030.');
    expect(report).toContain(
      "On 1 day more came than a day keeps (VITALS_DAILY_CAP): a random sample of the day's was kept, 6,000 left out.",
    );
    expect(report).toContain('4,000 measurements dropped: a network over its daily share');
    // A quiet window says neither.
    const quiet = formatTables(reportTables([record()]), '2026-10-28', '2026-11-24', days.slice(1));
    expect(quiet).toContain('Received 30 measurements, kept 30.');
    expect(quiet).not.toMatch(/random sample|dropped:/);
  });

  it('window of 28 days ends on the day given', () => {
    expect(windowStart('2026-11-24', 28)).toBe('2026-10-28');
    expect(windowStart('2026-03-01', 1)).toBe('2026-03-01');
  });
});

describe('the exports', () => {
  it('CSV: every measurement, cells safe for a spreadsheet', () => {
    const csv =
      VITALS_CSV_HEADER +
      vitalsCsvLines([record({ target: '=HYPERLINK("x")', metric: 'INP', phases: [1, 2, 3] })]);
    const [header, row] = csv.trim().split('\r\n');
    expect(header).toBe(
      'day,path,metric,value,rating,navigation,connection,device,build,target,input_delay,processing,presentation',
    );
    expect(row).toBe(`2026-11-20,/,INP,1000,good,navigate,4g,phone,b,"'=HYPERLINK(""x"")",1,2,3`);
  });

  it('HTML: one page with a chart per metric and nothing to fetch', () => {
    const records = [record({ path: '/<script>' }), record({ day: '2026-11-21', value: 5000 })];
    const html = formatHtmlReport(
      reportTables(records),
      summarise(records, (r) => r.day),
      '2026-11-20',
      '2026-11-21',
      'https://www.example.com',
    );
    expect(html.match(/<svg /g)).toHaveLength(5);
    // Each day's point on its metric's chart.
    expect(html).toMatch(/<title>2026-11-21: p75 [^<]+ \(1 samples\)<\/title>/);
    expect(html).toContain('2026-11-20 to 2026-11-21: 2 measurements');
    expect(html).not.toContain('<script>');
    expect(html).toContain('/&#60;script&#62;');
    expect(html).not.toMatch(/\b(src|href)=/);
  });
});

const SECRET = 'a'.repeat(64);

/**
 * A store that keeps what the recorder writes: its batches, the days' counts, the days pruned; its
 * answer to a write is `edges` (each day's sample key edge), none by default.
 */
function recordingStore(edges: () => Map<string, number> = () => new Map()) {
  const batches: NewVitalRecord[][] = [];
  const counts: VitalsDayCounts[] = [];
  const pruned: string[] = [];
  const fake: VitalsStore = {
    addVitals: async (records, options) => {
      batches.push([...records]);
      counts.push(...(options?.counts ?? []));
      return edges();
    },
    pruneVitals: async (day) => (pruned.push(day), 0),
    vitalsSince: async () => [],
    vitalsPages: async function* () {},
    vitalsP75: async () => [],
    vitalsDaysSince: async () => [],
    vitalsSecret: async () => SECRET,
  };
  return { fake, batches, counts, pruned, written: () => batches.flat() };
}

describe('the recorder', () => {
  const store = () => recordingStore();
  const build = { id: 'build1', pathOf: (p: string) => (p === '/iphone' ? p : '(other)') };
  const now = () => Date.parse('2026-11-24T12:00:00Z');
  const options = {
    build,
    flushMs: 1000,
    retentionDays: 90,
    dailyCap: 1e9,
    perNetwork: 1e9,
    networkSecret: SECRET,
    now,
  };
  const client = '203.0.113.7';

  it('writes what it was sent in one batch after flushMs, stamped and rated by the server', async () => {
    vi.useFakeTimers();
    try {
      const { fake, batches, counts, pruned } = store();
      const recorder = new VitalsRecorder({ ...options, store: fake });
      recorder.record(beaconSchema.parse(beacon()), client);
      recorder.record(beaconSchema.parse(beacon({ path: '/iphone?utm=x' })), client);
      expect(batches).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1000);
      expect(batches).toHaveLength(1);
      expect(batches[0]).toHaveLength(10);
      expect(batches[0]![0]).toEqual({
        day: '2026-11-24',
        path: '/iphone',
        metric: 'LCP',
        value: 812.5,
        rating: 'good',
        navigation: 'navigate',
        connection: '4g',
        device: 'phone',
        build: 'build1',
        target: 'main>h1.hero__title',
        phases: null,
        network: networkKey(SECRET, '203.0.113.0/24'),
        sample: expect.any(Number),
      });
      expect(batches[0]![5]!.path).toBe('(other)');
      expect(counts).toEqual([{ day: '2026-11-24', received: 10, dropped: 0 }]);
      // Retention: 90 days before today.
      expect(pruned).toEqual(['2026-08-26']);
      await recorder.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes at once when a batch is full, and drops past its limit', async () => {
    vi.useFakeTimers();
    try {
      const { fake, batches } = store();
      let slow: () => void = () => {};
      const held = new Promise<void>((resolve) => (slow = resolve));
      const blocked: VitalsStore = {
        ...fake,
        addVitals: async (r, o) => (await held, fake.addVitals(r, o)),
      };
      const recorder = new VitalsRecorder({ ...options, flushMs: 60_000, store: blocked });
      const one = beaconSchema.parse(beacon());
      for (let i = 0; i < BATCH / 5; i++) recorder.record(one, client);
      await vi.advanceTimersByTimeAsync(0);
      // The store is slow: what arrives meanwhile is queued up to MAX_QUEUED, the rest dropped.
      for (let i = 0; i < MAX_QUEUED / 5 + 10; i++) recorder.record(one, client);
      expect(recorder.dropped).toBe(50);
      slow();
      await vi.advanceTimersByTimeAsync(0);
      await recorder.close();
      expect(batches.map((b) => b.length)).toEqual([BATCH, MAX_QUEUED]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the network key', () => {
  it('is one per network (a /24, a /48) under one secret, and another under another secret', async () => {
    const keysFrom = async (secret: string, clients: string[]) => {
      const { fake, written } = recordingStore();
      const recorder = new VitalsRecorder({
        store: fake,
        build: { id: 'b', pathOf: (p) => p },
        flushMs: 1000,
        retentionDays: 90,
        dailyCap: 1e9,
        perNetwork: 1e9,
        networkSecret: secret,
        now: () => Date.parse('2026-11-24T12:00:00Z'),
      });
      for (const client of clients) recorder.record(beaconSchema.parse(beacon()), client);
      await recorder.close();
      return written().map((r) => r.network!);
    };
    const clients = [
      '192.0.2.1',
      '192.0.2.200',
      '::ffff:192.0.2.9',
      '2001:db8:1:2::1',
      '2001:db8:1:ff::2',
    ];
    const keys = await keysFrom(SECRET, clients);
    // Five measurements a beacon: one key for the /24's three clients, one for the /48's two.
    expect(new Set(keys.slice(0, 15))).toEqual(new Set([networkKey(SECRET, '192.0.2.0/24')]));
    expect(new Set(keys.slice(15))).toEqual(new Set([networkKey(SECRET, '2001:db8:1::/48')]));
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{4}$/);
    // Another process with the store's secret gives the same keys; another store's secret, others.
    expect(await keysFrom(SECRET, clients)).toEqual(keys);
    expect(await keysFrom('b'.repeat(64), clients)).not.toEqual(keys);
  });

  it('has at most 65,536 values, each shared by many networks: a key names none', () => {
    // 262,144 IPv4 /24s: four a key on average, whatever the secret.
    const keys = new Set(
      Array.from({ length: 1 << 18 }, (_, i) =>
        networkKey(SECRET, `${i >> 16}.${(i >> 8) & 255}.${i & 255}.0/24`),
      ),
    );
    expect(keys.size).toBeLessThanOrEqual(65_536);
    expect(keys.size).toBeGreaterThan(60_000);
  });
});

describe('what a flood can do', () => {
  const five = beaconSchema.parse(beacon());

  it('one network (a /24, a /48) gives at most its share a day: the rest is dropped, counted and said', async () => {
    let time = Date.parse('2026-11-24T23:59:00Z');
    const { fake, counts, written } = recordingStore();
    const logged: string[] = [];
    const recorder = new VitalsRecorder({
      store: fake,
      build: { id: 'b', pathOf: (p) => p },
      flushMs: 1000,
      retentionDays: 90,
      dailyCap: 1e9,
      perNetwork: 12,
      networkSecret: SECRET,
      log: (message) => logged.push(message),
      now: () => time,
    });
    // Four beacons of five from as many /64s of one /48: twelve taken, eight dropped.
    for (let i = 0; i < 4; i++) recorder.record(five, `2001:db8:1:${i}::1`);
    recorder.record(five, '2001:db8:2::1');
    expect(recorder.dropped).toBe(8);
    expect(logged).toEqual([expect.stringContaining('2001:db8:1::/48 sent more than its share')]);
    time += 120_000; // the next day (UTC): its share again
    recorder.record(five, '2001:db8:1:9::1');
    await recorder.close();
    expect(written().map((r) => r.day)).toEqual([
      ...Array(17).fill('2026-11-24'),
      ...Array(5).fill('2026-11-25'),
    ]);
    expect(counts).toEqual([
      { day: '2026-11-24', received: 25, dropped: 8 },
      { day: '2026-11-25', received: 5, dropped: 0 },
    ]);
  });

  it('once the day is full, writes only what has a place in its sample, and says so once', async () => {
    const keys = [0.9, 0.1, 0.6, 0.2, 0.8];
    let next = 0;
    // The store says the day's sample now keeps keys up to 0.5.
    const { fake, written } = recordingStore(() => new Map([['2026-11-24', 0.5]]));
    const logged: string[] = [];
    const recorder = new VitalsRecorder({
      store: fake,
      build: { id: 'b', pathOf: (p) => p },
      flushMs: 1000,
      retentionDays: 90,
      dailyCap: 5,
      perNetwork: 1e9,
      networkSecret: SECRET,
      log: (message) => logged.push(message),
      now: () => Date.parse('2026-11-24T12:00:00Z'),
      random: () => keys[next++ % keys.length]!,
    });
    recorder.record(five, '192.0.2.1');
    await recorder.flush();
    expect(written().map((r) => r.sample)).toEqual(keys);
    recorder.record(five, '192.0.2.2');
    recorder.record(five, '192.0.2.3');
    await recorder.close();
    expect(
      written()
        .slice(5)
        .map((r) => r.sample),
    ).toEqual([0.1, 0.2, 0.1, 0.2]);
    expect(recorder.sampledOut).toBe(6);
    expect(logged.filter((m) => m.includes('VITALS_DAILY_CAP'))).toHaveLength(1);
  });
});

describe('the pacer', () => {
  it('lets beacons through one per turn, and refuses at once past the longest wait', async () => {
    vi.useFakeTimers();
    try {
      // 10 a second: a turn every 100 ms; at most 300 ms of queue.
      const pacer = new Pacer(10, 300);
      const admitted: number[] = [];
      const answers = Array.from({ length: 6 }, (_, i) =>
        pacer.admit(0).then((ok) => (ok && admitted.push(i), ok)),
      );
      // Turns at 0, 100, 200, 300 ms; the fifth and sixth would wait 400 and 500 ms.
      expect(await answers[4]).toBe(false);
      expect(await answers[5]).toBe(false);
      await vi.advanceTimersByTimeAsync(0);
      expect(admitted).toEqual([0]);
      await vi.advanceTimersByTimeAsync(250);
      expect(admitted).toEqual([0, 1, 2]);
      await vi.advanceTimersByTimeAsync(100);
      expect(await Promise.all(answers)).toEqual([true, true, true, true, false, false]);
      // Once the queue has gone by, a beacon goes at once.
      expect(await pacer.admit(10_000)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
