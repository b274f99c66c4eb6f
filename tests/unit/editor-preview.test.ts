/**
 * The editor's Preview of an entry leads to the page that shows it (in `npm run edit`; on the live
 * site, to the draft's preview of it): for every page copy of src/content/pages, a page of
 * src/pages; for a service page, its address.
 */
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GET } from '../../src/editor/dev-server/preview';

async function previewOf(entry: string) {
  const response = (await GET({
    params: { entry },
    redirect: (to: string, status = 302) =>
      new Response(null, { status, headers: { location: to } }),
  } as unknown as Parameters<typeof GET>[0])) as Response;
  return response.headers.get('location');
}

/** The file of src/pages that answers an address, if any. */
const pageFileOf = (address: string) =>
  ['.astro', '/index.astro'].some((end) =>
    existsSync(`src/pages${address === '/' ? '/index' : address}${end}`),
  );

describe("the editor's Preview", () => {
  const copies = readdirSync('src/content/pages').map((file) => file.replace(/\.yaml$/, ''));

  it.each(copies)('of the page copy %s leads to its page', async (name) => {
    const address = await previewOf(`pages/${name}`);
    expect(address).toBeTruthy();
    expect(pageFileOf(address!), `${name} → ${address}`).toBe(true);
  });

  it('of the booking pages leads to each under /schedule', async () => {
    expect(await previewOf('pages/schedule-change')).toBe('/schedule/change');
    expect(await previewOf('pages/schedule-confirm')).toBe('/schedule/confirm');
    expect(await previewOf('pages/schedule')).toBe('/schedule');
  });

  it('of a service page leads to its address', async () => {
    expect(await previewOf('services/ipad')).toBe('/ipad');
    expect(await previewOf('services/../../etc')).toBeNull();
  });
});
