import { describe, expect, it } from 'vitest';
import { parseUrlencoded, readForm, readJson } from '../../src/server/requests/body';

const post = (body: BodyInit, type: string, headers: Record<string, string> = {}) =>
  new Request('http://localhost/php/email.php', {
    method: 'POST',
    body,
    headers: { 'content-type': type, ...headers },
  });

describe('urlencoded parsing', () => {
  it('decodes names and values, + as space, and keeps repeated fields', () => {
    const fields = parseUrlencoded(
      'first_name=Ada+Byron&service=Web+Development&service=Other%20Services&empty=&flag',
    );
    expect(fields?.get('first_name')).toEqual(['Ada Byron']);
    expect(fields?.get('service')).toEqual(['Web Development', 'Other Services']);
    expect(fields?.get('empty')).toEqual(['']);
    expect(fields?.get('flag')).toEqual(['']);
  });

  it('reads a NUL, which PostgreSQL cannot keep (a post holding one was lost there), as U+FFFD', () => {
    expect(parseUrlencoded('na%00me=Ada%00Lovelace')?.get('na\uFFFDme')).toEqual([
      'Ada\uFFFDLovelace',
    ]);
  });

  it('rejects malformed escapes and escaped invalid UTF-8', () => {
    expect(parseUrlencoded('a=%E0%A4%A')).toBeNull();
    expect(parseUrlencoded('a=%FF')).toBeNull();
    expect(parseUrlencoded('a=%')).toBeNull();
  });
});

describe('reading a form post', () => {
  it('accepts urlencoded and multipart', async () => {
    const urlencoded = await readForm(
      post('email=a%40b.co', 'application/x-www-form-urlencoded'),
      1024,
    );
    expect(urlencoded).toEqual({ ok: true, fields: new Map([['email', ['a@b.co']]]) });
    const data = new FormData();
    data.append('service', 'Web Development');
    data.append('service', 'Other Services');
    const multipart = await readForm(
      new Request('http://localhost/', { method: 'POST', body: data }),
      1024,
    );
    expect(multipart.ok && multipart.fields.get('service')).toEqual([
      'Web Development',
      'Other Services',
    ]);
  });

  it('reads a NUL in a multipart field or a JSON string as U+FFFD', async () => {
    const data = new FormData();
    data.append('message', 'before\u0000after');
    const multipart = await readForm(
      new Request('http://localhost/', { method: 'POST', body: data }),
      1024,
    );
    expect(multipart.ok && multipart.fields.get('message')).toEqual(['before\uFFFDafter']);
    const json = await readJson(
      post('{"id":"\\u0000","list":["a\\u0000"]}', 'application/json'),
      1024,
    );
    expect(json).toEqual({ ok: true, json: { id: '\uFFFD', list: ['a\uFFFD'] } });
  });

  it('answers 415 to another content type', async () => {
    for (const type of ['application/json', 'text/plain', '']) {
      const result = await readForm(post('{}', type), 1024);
      expect(result).toMatchObject({ ok: false, status: 415 });
    }
  });

  it('answers 413 past the limit, declared or streamed', async () => {
    expect(
      await readForm(post('a='.padEnd(2000, 'x'), 'application/x-www-form-urlencoded'), 1024),
    ).toMatchObject({
      status: 413,
    });
    // A stream with no Content-Length is cut off at the limit rather than buffered whole.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(512).fill(97));
      },
    });
    const request = new Request('http://localhost/', {
      method: 'POST',
      body: endless,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      duplex: 'half',
    } as RequestInit);
    expect(await readForm(request, 1024)).toMatchObject({ status: 413 });
    expect(pulled).toBeLessThan(10);
  });

  it('answers 400 to invalid UTF-8 and malformed bodies', async () => {
    const invalid = new Uint8Array([0x61, 0x3d, 0xff, 0xfe]);
    expect(await readForm(post(invalid, 'application/x-www-form-urlencoded'), 1024)).toMatchObject({
      status: 400,
    });
    expect(
      await readForm(post('a=%E0%A4%A', 'application/x-www-form-urlencoded'), 1024),
    ).toMatchObject({
      status: 400,
    });
    expect(await readForm(post('garbage', 'multipart/form-data; boundary=x'), 1024)).toMatchObject({
      status: 400,
    });
    const multipartInvalid = new Uint8Array([
      ...new TextEncoder().encode('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n'),
      0xff,
      ...new TextEncoder().encode('\r\n--x--\r\n'),
    ]);
    expect(
      await readForm(post(multipartInvalid, 'multipart/form-data; boundary=x'), 1024),
    ).toMatchObject({
      status: 400,
    });
  });
});
