/** Numbers written as English texts write them (src/domain/numbers.ts), without Intl. */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { grouped } from '../../src/domain/numbers.ts';

describe('grouped', () => {
  it('writes a whole number as toLocaleString("en-GB") does', () => {
    for (const n of [0, 7, 999, 1000, 5000, 12345, 2400, 999999, 1000000, -5000])
      expect(grouped(n)).toBe(n.toLocaleString('en-GB'));
    fc.assert(
      fc.property(fc.integer({ min: -1e15, max: 1e15 }), (n) => {
        expect(grouped(n)).toBe(n.toLocaleString('en-GB'));
      }),
    );
  });

  it("is what the forms' and the images' words say, and loading the forms' rules sets up no locale data", async () => {
    // A page's first Intl call costs a slow phone 50 to 90 ms: the enquiry form's module made one as
    // it loaded, at the visitor's first touch of the form.
    vi.resetModules();
    const numberText = vi.spyOn(Number.prototype, 'toLocaleString');
    const numberFormat = vi.spyOn(Intl, 'NumberFormat');
    try {
      const enquiry = await import('../../src/domain/enquiry-form.ts');
      expect(enquiry.enquiryMessages.project).toBe(
        'Project details must be 5,000 characters or fewer',
      );
      const call = await import('../../src/domain/call-form.ts');
      expect(
        call.validateCallRequest({
          name: 'Ada',
          email: 'ada@example.com',
          message: 'x'.repeat(5001),
        }).message,
      ).toBe('Message must be 5,000 characters or fewer.');
      const images = await import('../../src/domain/images.ts');
      expect(images.sizeInWords(5_000_000)).toBe('4.8 MB');
      expect(images.sizeInWords(1_000_000)).toBe('977 KB');
      expect(images.sizeInWords(1024 * 1023)).toBe('1,023 KB');
      expect(numberText).not.toHaveBeenCalled();
      expect(numberFormat).not.toHaveBeenCalled();
    } finally {
      numberText.mockRestore();
      numberFormat.mockRestore();
    }
  });
});
