/**
 * A request's body read with a byte limit, never buffered past it: the server's gate
 * (src/server/requests/body.ts) and the editor's image uploads in `astro dev`
 * (src/editor/dev-server/images.ts) read theirs so.
 */

/** The body's bytes, or null once it is larger than `limit` (declared or sent): never read past it. */
export async function readLimited(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not cancelled: that would destroy the connection before the 413 is written. The HTTP
      // server closes it soon after the answer (see lingering in src/server/http/server.ts).
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
