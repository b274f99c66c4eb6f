/** The editor's image endpoint (src/editor/dev-server/images.ts), as the image fields ask it. */
import { imageUploadPath, type FolderImage } from '../../../domain/images.ts';

export type Answer = {
  name?: string;
  url?: string;
  /** What the endpoint took out of an uploaded SVG, in words ("a script"). */
  removed?: string[];
  images?: FolderImage[];
  error?: string;
};

/** A request to the editor's image endpoint: its JSON, or the reason it failed. */
export async function ask(
  method: 'GET' | 'POST' | 'DELETE',
  query: Record<string, string>,
  body?: File,
): Promise<Answer> {
  try {
    const response = await fetch(`${imageUploadPath}?${new URLSearchParams(query)}`, {
      method,
      ...(body && { headers: { 'content-type': 'application/octet-stream' }, body }),
    });
    const answer = (await response.json().catch(() => ({}))) as Answer;
    if (response.ok) return answer;
    return { error: answer.error ?? `That did not work (${response.status}).` };
  } catch {
    return { error: 'The editor could not reach `npm run edit`: is it still running?' };
  }
}
