/**
 * Reads a form post safely: the content type must be a form's, the body is
 * read with a byte limit (never buffered past it), and it must decode as
 * UTF-8. The result maps each field name to all of its values.
 */

import { readLimited } from '../../shared/read-limited.ts';
import { withoutNul } from '../safe-text.ts';

export type Fields = Map<string, string[]>;

export type BodyResult =
  { ok: true; fields: Fields } | { ok: false; status: 400 | 413 | 415; message: string };

const URLENCODED = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/** The media type of a Content-Type header, lower-cased, without parameters. */
export const mediaType = (header: string | null) =>
  (header ?? '').split(';')[0]!.trim().toLowerCase();

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** application/x-www-form-urlencoded, strictly: malformed escapes and invalid UTF-8 are errors. */
export function parseUrlencoded(text: string): Fields | null {
  const fields: Fields = new Map();
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const rawName = at === -1 ? pair : pair.slice(0, at);
    const rawValue = at === -1 ? '' : pair.slice(at + 1);
    let name: string;
    let value: string;
    try {
      name = withoutNul(decodeURIComponent(rawName.replaceAll('+', ' ')));
      value = withoutNul(decodeURIComponent(rawValue.replaceAll('+', ' ')));
    } catch {
      return null;
    }
    const values = fields.get(name);
    if (values) values.push(value);
    else fields.set(name, [value]);
  }
  return fields;
}

export async function readForm(request: Request, limit: number): Promise<BodyResult> {
  const type = mediaType(request.headers.get('content-type'));
  if (type !== URLENCODED && type !== MULTIPART) {
    return { ok: false, status: 415, message: `Send the form as ${URLENCODED} or ${MULTIPART}.` };
  }
  const bytes = await readLimited(request, limit).catch(() => undefined);
  if (bytes === undefined)
    return { ok: false, status: 400, message: 'The request body could not be read.' };
  if (bytes === null)
    return { ok: false, status: 413, message: `The form is larger than ${limit / 1024} KB.` };

  if (type === URLENCODED) {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return { ok: false, status: 400, message: 'The form is not valid UTF-8.' };
    }
    const fields = parseUrlencoded(text);
    return fields
      ? { ok: true, fields }
      : { ok: false, status: 400, message: 'The form is malformed.' };
  }

  let data: FormData;
  try {
    const headers = { 'content-type': request.headers.get('content-type')! };
    data = await new Response(bytes as BodyInit, { headers }).formData();
  } catch {
    return { ok: false, status: 400, message: 'The form is malformed.' };
  }
  const fields: Fields = new Map();
  for (const [name, value] of data) {
    if (typeof value !== 'string') continue; // files are not part of either form
    // Multipart decoding replaces invalid UTF-8 with U+FFFD instead of failing.
    if (value.includes('\uFFFD') || name.includes('\uFFFD')) {
      return { ok: false, status: 400, message: 'The form is not valid UTF-8.' };
    }
    const key = withoutNul(name);
    const values = fields.get(key);
    if (values) values.push(withoutNul(value));
    else fields.set(key, [withoutNul(value)]);
  }
  return { ok: true, fields };
}

/** The first value of a field, or '' when it is absent. */
export const first = (fields: Fields, name: string) => fields.get(name)?.[0] ?? '';

/** What refuses a JSON post from its headers alone: its type (415), its declared size (413). */
export function jsonHeadProblem(
  request: Request,
  limit: number,
): { ok: false; status: 413 | 415; message: string } | undefined {
  const type = mediaType(request.headers.get('content-type'));
  if (type !== 'application/json' && type !== 'text/plain')
    return { ok: false, status: 415, message: 'Send JSON as application/json or text/plain.' };
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit)
    return { ok: false, status: 413, message: `The body is larger than ${limit} bytes.` };
  return undefined;
}

export type JsonResult =
  { ok: true; json: unknown } | { ok: false; status: 400 | 413 | 415; message: string };

/**
 * A JSON post, strictly: application/json, or text/plain as navigator.sendBeacon sends a string
 * (a type that needs no preflight); read with a byte limit; valid UTF-8 and valid JSON.
 */
export async function readJson(request: Request, limit: number): Promise<JsonResult> {
  const problem = jsonHeadProblem(request, limit);
  if (problem) return problem;
  const bytes = await readLimited(request, limit).catch(() => undefined);
  if (bytes === undefined)
    return { ok: false, status: 400, message: 'The request body could not be read.' };
  if (bytes === null)
    return { ok: false, status: 413, message: `The body is larger than ${limit} bytes.` };
  try {
    const json: unknown = JSON.parse(utf8.decode(bytes), (_, value: unknown) =>
      typeof value === 'string' ? withoutNul(value) : value,
    );
    return { ok: true, json };
  } catch {
    return { ok: false, status: 400, message: 'The body is not JSON.' };
  }
}
