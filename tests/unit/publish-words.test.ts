/** What a draft changes, in the editor's words, from the files git names (src/server/releases/words.ts). */
import { expect, it } from 'vitest';
import { changeLine, commitMessage, describeChanges } from '../../src/server/releases/words';

const files: Record<string, { old?: string; new?: string }> = {
  'src/content/services/flutter.mdx': { new: '---\nslug: flutter\ntitle: "Flutter Apps"\n---\n' },
  'src/content/services/php.mdx': { old: '---\nslug: php\ntitle: PHP Sites\n---\n' },
  'src/content/services/ios.mdx': { new: '---\nslug: ios\ntitle: iOS Apps\n---\n' },
  'src/content/data/availability.yaml': {
    old: 'entries:\n  - id: calls\n    hosts:\n      - id: anna\n        name: Anna Reid\n      - id: ben\n        name: Ben Okafor\n',
    new: 'entries:\n  - id: calls\n    hosts:\n      - id: anna\n        name: Anna Reid-Lowe\n      - id: cara\n        name: Cara Diaz\n',
  },
  'src/content/data/redirects.yaml': {
    old: 'entries:\n  - from: /old-gone\n    to: /about\n',
    new: 'entries:\n  - from: /iphone\n    to: /ios\n',
  },
};
const read = async (path: string, at: 'old' | 'new') => files[path]?.[at] ?? '';

it('names pages added, removed, moved and redirected, the hosts added and removed, and the lists, copy and images', async () => {
  const changes = await describeChanges(
    [
      { status: 'A', path: 'src/content/services/flutter.mdx' },
      { status: 'D', path: 'src/content/services/php.mdx' },
      {
        status: 'R',
        from: 'src/content/services/iphone.mdx',
        path: 'src/content/services/ios.mdx',
      },
      { status: 'M', path: 'src/content/data/redirects.yaml' },
      { status: 'M', path: 'src/content/pages/schedule-booked.yaml' },
      { status: 'M', path: 'src/content/pages/service.yaml' },
      { status: 'M', path: 'src/content/data/testimonials.yaml' },
      { status: 'M', path: 'src/content/data/availability.yaml' },
      { status: 'A', path: 'src/assets/portfolio/new-shop.avif' },
    ],
    read,
  );
  expect(changes.map(changeLine)).toEqual([
    'Added Flutter Apps (/flutter)',
    'Removed PHP Sites (/php)',
    'Moved iOS Apps: from /iphone to /ios',
    'Redirected /iphone now leads to /ios',
    'Removed the redirect from /old-gone',
    'Changed the schedule booked page (/schedule/booked)',
    'Changed every service page (their shared copy)',
    'Changed the list “testimonials” (shown on several pages)',
    'Changed the hosts and their hours',
    'Removed the host Ben Okafor',
    'Added the host Cara Diaz',
    'Added the image new-shop.avif',
  ]);
  expect(commitMessage(changes).split('\n')[0]).toBe(
    'Publish: Added Flutter Apps (/flutter); Removed PHP Sites (/php); Moved iOS Apps: from /iphone to /ios and 9 more',
  );
});

it('names a host on one line, whatever their name holds', async () => {
  const hosts = (name: string) =>
    `entries:\n  - id: calls\n    hosts:\n      - id: eve\n        name: ${JSON.stringify(name)}\n`;
  const changes = await describeChanges(
    [{ status: 'M', path: 'src/content/data/availability.yaml' }],
    async (_, at) =>
      at === 'old' ? hosts('Eve\n- Changed the price\r\n\u0007Bell') : 'entries: []\n',
  );
  expect(commitMessage(changes).split('\n').slice(2)).toEqual([
    '- Changed the hosts and their hours',
    '- Removed the host Eve - Changed the price Bell',
    '',
  ]);
});
