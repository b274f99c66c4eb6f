/**
 * The colour pairs the site uses meet WCAG AA: 4.5:1 for text, 3:1 for large
 * text and UI borders. Colours are read from tokens.css, so a token change
 * that breaks a pair fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync('src/styles/tokens.css', 'utf8');
const token = (name: string) => {
  const value = new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(css)?.[1];
  if (!value) throw new Error(`tokens.css has no hex colour --${name}`);
  return value;
};

function luminance(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function contrast(a: string, b: string) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const text: [string, string][] = [
  ['color-ink', 'color-bg'],
  ['color-ink', 'color-bg-alt'],
  ['color-text', 'color-bg'],
  ['color-text', 'color-bg-alt'],
  ['color-muted', 'color-bg'],
  ['color-muted', 'color-bg-alt'],
  ['color-accent', 'color-bg'],
  ['color-accent', 'color-bg-alt'],
  ['color-accent', 'color-accent-faint'],
  ['color-accent-strong', 'color-accent-soft'],
  ['color-secondary', 'color-bg'],
  ['color-secondary', 'color-bg-alt'],
  ['color-on-dark', 'color-ink'],
  ['color-on-dark-muted', 'color-ink'],
  ['color-accent-on-dark', 'color-ink'],
  ['color-danger', 'color-bg'],
  ['color-danger', 'color-danger-soft'],
  ['color-ink', 'color-accent-soft'],
];

describe('colour contrast of the design tokens', () => {
  it.each(text)('%s on %s is at least 4.5:1', (fg, bg) => {
    expect(contrast(token(fg), token(bg))).toBeGreaterThanOrEqual(4.5);
  });

  it('white text on the accent buttons and the banner is at least 4.5:1', () => {
    expect(contrast('#ffffff', token('color-accent'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#ffffff', token('color-accent-strong'))).toBeGreaterThanOrEqual(4.5);
  });

  it('the form field border is at least 3:1 against the page', () => {
    expect(contrast(token('color-field-border'), token('color-bg'))).toBeGreaterThanOrEqual(3);
  });
});
