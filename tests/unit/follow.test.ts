import { describe, expect, it } from 'vitest';
import { reading } from '../../src/client/follow';

/** An answer as fetch gives it: its type, status and whether it is a success. */
const answer = (status: number, type: ResponseType = 'basic') => ({
  type,
  status,
  ok: status >= 200 && status < 300,
});

describe('what a followed page does with an answer', () => {
  it('reads a success as the page', () => {
    expect(reading(answer(200), false)).toBe('read');
    expect(reading(answer(202), true)).toBe('read');
  });

  it('asks again after a 304: nothing new since the ETag sent, not a failure nor the end', () => {
    expect(reading(answer(304), false)).toBe('again');
    expect(reading(answer(304), true)).toBe('again');
  });

  it('reads an error page only when asked to (the preview says why), else asks again', () => {
    expect(reading(answer(500), true)).toBe('read');
    expect(reading(answer(409), true)).toBe('read');
    expect(reading(answer(503), false)).toBe('again');
  });

  it('leaves a redirect to the page, asked without following it', () => {
    expect(reading(answer(0, 'opaqueredirect'), true)).toBe('redirected');
    expect(reading(answer(0, 'opaqueredirect'), false)).toBe('redirected');
  });
});
