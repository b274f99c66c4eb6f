/**
 * `/keystatic/preview` (src/pages/keystatic/preview.astro), the editor's Preview on the live site
 * (`EDITING=on`): for a signed-in editor, the preview once it is ready (./preview.ts decides),
 * else what the page shows meanwhile, as a page of the staff's. Signed out, the sign-in page; a
 * member who is not an editor, 403, the staff page that says so, as at the editor (./refused.ts).
 */
import type { ServerConfig } from '../config.ts';
import { isEditor, type StaffMember } from './access.ts';
import { deskHeaders, type Answered, type OpenDesk } from './desk.ts';
import { draftFolder } from './editing.ts';
import { previewEntry, type PreviewPage } from './preview.ts';
import { staffRefusal, type RefusedPage } from './refused.ts';
import { signedInVisit } from './visit.ts';

export interface PreviewVisit extends PreviewPage {
  member: StaffMember;
}

/** `/keystatic/preview?page=/address`: the preview (303), or the page that says where it is. */
export async function handlePreview(
  request: Request,
  open: OpenDesk,
  config: ServerConfig,
): Promise<PreviewVisit | RefusedPage | Answered> {
  // No editor on this site: the address is no page of it (Astro's not-found page).
  if (!config.editing.enabled)
    return {
      type: 'response',
      response: new Response(null, { status: 404, headers: deskHeaders() }),
    };
  const visit = await signedInVisit(request, undefined, open);
  if ('type' in visit) return visit;
  if (!isEditor(visit.member)) return staffRefusal(request, 'not-an-editor', visit.member);
  const shown = await previewEntry(new URL(request.url), {
    config,
    siteRoot: process.cwd(),
    draft: draftFolder(config),
  });
  return shown.type === 'page' ? { ...shown, member: visit.member } : shown;
}
