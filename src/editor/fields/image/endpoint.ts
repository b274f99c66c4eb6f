/** The editor's image endpoint (src/editor/dev-server/images.ts), as the image fields ask it. */
import { imageUploadPath, type AssetFolder, type FolderImage } from '../../../domain/images.ts';

export type Answer = {
  name?: string;
  url?: string;
  /** What the endpoint took out of an uploaded SVG, in words ("a script"). */
  removed?: string[];
  images?: FolderImage[];
  error?: string;
};

/** Where this browser keeps its id, by which the dev server holds the uploads its drafts name. */
const BROWSER_KEY = 'editor:browser';

/** This browser's id, made the first time (src/editor/dev-server/pending.ts holds uploads by it). */
export function browserId(): string | undefined {
  try {
    let id = localStorage.getItem(BROWSER_KEY);
    if (!id || !/^[a-z0-9-]{8,64}$/.test(id)) {
      id = crypto.randomUUID();
      localStorage.setItem(BROWSER_KEY, id);
    }
    return id;
  } catch {
    return undefined; // no storage: uploads are then held by no draft, and kept a day
  }
}

/** A pending upload, as the endpoint lists them. */
export type PendingUpload = { folder: AssetFolder; name: string; url: string };

/** Every upload no Save has named yet, of every folder. */
export async function pendingUploads(): Promise<PendingUpload[]> {
  try {
    const response = await fetch(`${imageUploadPath}?pending`, { cache: 'no-store' });
    return response.ok ? ((await response.json()) as { uploads: PendingUpload[] }).uploads : [];
  } catch {
    return [];
  }
}

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
