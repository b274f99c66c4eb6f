/**
 * /staff/publish, for editors (STAFF_EDITORS): what the draft changes against the live site, in
 * the editor's words, with Publish; the publish under way, step by step (the page refreshes
 * itself while it builds); the last releases, who published each and when, each with Roll back.
 * Every post is through the gate (same origin), signed in, an editor's, and in the audit log.
 */
import { first } from '../requests/body.ts';
import type { PostVerdict } from '../requests/post-gate.ts';
import type { PageAnswer } from '../http/answer.ts';
import { pageTag, unchanged } from '../http/page-tag.ts';
import { START_AGAIN_STEP } from '../../domain/publishing.ts';
import {
  PUBLISHED_MEANWHILE,
  PublishedElsewhere,
  type Publishing,
  type PublishingView,
} from '../releases/publishing.ts';
import { PublishRefused } from '../releases/draft.ts';
import { isEditor, type StaffMember } from './access.ts';
import { staffRefusal, type RefusedPage } from './refused.ts';
import { isUnderWay } from '../../domain/publishing.ts';
import {
  deskHeaders,
  notDone,
  record,
  redirect,
  type Answered,
  type OpenDesk,
  type StaffDesk,
} from './desk.ts';
import { signedInVisit } from './visit.ts';

/** Publishing's page, as its reload and its redirects name it. */
export const PUBLISH_PAGE = '/staff/publish';

export interface PublishPage extends PageAnswer, PublishingView {
  member: StaffMember;
  /** What the last action did, said once. */
  done?: string;
  /** A publish is queued or building: the page refreshes itself to show its progress. */
  underWay: boolean;
  /** Start again's second step: what it drops, by entry and who saved it, and "Yes, start again". */
  startAgain: boolean;
}

/** What an action came to, said on the page after it (`?done=`). */
const DONE = {
  queued: 'Publishing has started. This page shows its progress; you may close it, it goes on.',
  already: 'A publish is already under way: it is shown below. Publish again once it is live.',
  'rolled-back': 'Rolled back: the site shows that release again, live within seconds.',
  'not-kept': 'That release is no longer kept, so it cannot be brought back.',
  'published-meanwhile': PUBLISHED_MEANWHILE,
  'rollback-waits':
    'Not rolled back: a publish is under way, and would go live over it. Roll back once it is live or has failed.',
  restarted:
    'Your draft starts again from what is live now. What it held is kept under “Dropped drafts” below: bring it back if you need it.',
  'draft-changed':
    'Not started again: the draft changed since you looked (a Save, yours or a colleague’s). Check what it drops now, then press again.',
  'brought-back': 'The dropped changes are back in your draft: they are listed below.',
  'not-brought-back':
    'Not brought back: those changes and your draft (or the live site) change the same text. They are still kept.',
  'not-dropped': 'That dropped draft is no longer kept: it was brought back already.',
  clash:
    'Not published: your changes cannot be added to what is live, which changed the same text. See below.',
  nothing: 'There is nothing to publish: the draft is the same as the live site.',
};

/**
 * The page after an action, at the words that say what it came to (`#done`, focused as the page
 * opens, as the desk's): a press refused is said where the keyboard and a screen reader are. A
 * publish started opens at its progress, right below them.
 */
const said = (done: keyof typeof DONE, step = '') =>
  redirect(`${PUBLISH_PAGE}?done=${done}${step}#${done === 'queued' ? 'progress' : 'done'}`);

/** /staff/publish: GET shows it; POST publishes, rolls back or starts the draft again. */
export async function handlePublish(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenDesk,
): Promise<PublishPage | RefusedPage | Answered> {
  const visit = await signedInVisit(request, post, open);
  if ('type' in visit) return visit;
  const { desk, member, now, refused } = visit;
  if (!desk.publishing) return staffRefusal(request, 'publishing-off', member);
  if (!isEditor(member)) return staffRefusal(request, 'publish-not-an-editor', member);
  try {
    if (refused)
      return {
        ...publishPage(await desk.publishing.view(), member, request),
        status: refused.status,
        headers: deskHeaders(refused.headers),
        done: notDone(refused),
      };
    if (request.method === 'POST' && post?.ok)
      return await publishPost(desk, member, post.fields, now);
    return await publishGet(desk.publishing, member, request);
  } catch (error) {
    if (error instanceof PublishedElsewhere)
      return staffRefusal(request, 'published-elsewhere', member, { said: error.message });
    throw error;
  }
}

/** The page's ETag: of what it was made from, for whom, at which address (`?done=`, `&step=`). */
const tagOf = (state: string, member: StaffMember, request: Request) =>
  pageTag([state, member, new URL(request.url).search]);

/**
 * The page; or, to a copy of it that is still what it would show (its ETag, sent back as
 * If-None-Match by PublishFollow every few seconds while a publish builds), 304: nothing made,
 * no git run (`Publishing.state` reads the draft and the branches without).
 */
async function publishGet(
  publishing: Publishing,
  member: StaffMember,
  request: Request,
): Promise<PublishPage | Answered> {
  const state = await publishing.state();
  const tag = state && tagOf(state, member, request);
  if (tag && unchanged(request, tag))
    return {
      type: 'response',
      response: new Response(null, { status: 304, headers: deskHeaders({ ETag: tag }) }),
    };
  const view = await publishing.view();
  const page = publishPage(view, member, request);
  if (!view.state) return page;
  return { ...page, headers: deskHeaders({ ETag: tagOf(view.state, member, request) }) };
}

/** The page, with what the last action did. */
function publishPage(view: PublishingView, member: StaffMember, request: Request): PublishPage {
  const query = new URL(request.url).searchParams;
  const done = query.get('done');
  const underWay = isUnderWay(view.latest);
  // "Publishing has started" is said while it lasts: the page's reload once it was live still
  // said so, above "Live (100%)".
  const said =
    done &&
    Object.hasOwn(DONE, done) &&
    (underWay || !/^(queued|already|rollback-waits)$/.test(done));
  return {
    type: 'page',
    status: 200,
    headers: deskHeaders(),
    member,
    ...view,
    ...(said && { done: DONE[done as keyof typeof DONE] }),
    underWay,
    startAgain: query.get('step') === 'start-again',
  };
}

/** An editor's post: Publish, Roll back, or Start again; recorded in the audit log. */
async function publishPost(
  desk: StaffDesk,
  member: StaffMember,
  fields: Map<string, string[]>,
  now: number,
): Promise<Answered> {
  const publishing = desk.publishing!;
  const action = first(fields, 'action');
  const author = { name: member.name, email: member.email };
  if (action === 'publish') {
    const view = await publishing.view();
    const underWay = isUnderWay(view.latest);
    if (view.changes.length === 0 && !underWay) return said('nothing');
    // A page shown before the live site changed still had Publish: it would only fail.
    if (view.clash && !underWay) return said('clash');
    const { publish, started } = await publishing.start(author);
    if (started)
      await record(desk, member, now, { action: 'started publish', subject: String(publish.id) });
    return said(started ? 'queued' : 'already');
  }
  if (action === 'rollback') {
    const id = Number(first(fields, 'release'));
    if (!Number.isSafeInteger(id) || id < 1) return said('not-kept');
    // The publish under way would go live over the roll back, undoing it within the minute.
    if (isUnderWay(await publishing.records.latestPublish())) return said('rollback-waits');
    try {
      const release = await publishing.rollBack(author, id);
      await record(desk, member, now, {
        action: 'rolled back to',
        subject: `release ${id}`,
        detail: `as release ${release.id}`,
      });
      return said('rolled-back');
    } catch (error) {
      if (error instanceof PublishRefused)
        return said(error.meanwhile ? 'published-meanwhile' : 'not-kept');
      throw error;
    }
  }
  if (action === 'restart-draft') return startAgainPost(desk, member, fields, now);
  if (action === 'bring-back') {
    const id = first(fields, 'dropped');
    const back = await publishing.bringBack(id);
    if (back)
      await record(desk, member, now, { action: 'brought back a dropped draft', subject: id });
    return said(back ? 'brought-back' : back === false ? 'not-brought-back' : 'not-dropped');
  }
  return redirect(PUBLISH_PAGE);
}

/**
 * Start again, in two steps: a press without the draft it was shown (the first button, or a form
 * of before) opens the step that lists what it drops; "Yes, start again" drops that draft only,
 * kept to be brought back, or says that a Save changed it since.
 */
async function startAgainPost(
  desk: StaffDesk,
  member: StaffMember,
  fields: Map<string, string[]>,
  now: number,
): Promise<Answered> {
  const seen = first(fields, 'draft');
  if (!seen) return redirect(START_AGAIN_STEP);
  const author = { name: member.name, email: member.email };
  if (!(await desk.publishing!.restartDraft(author, seen)))
    return said('draft-changed', '&step=start-again');
  await record(desk, member, now, { action: 'started the draft again' });
  return said('restarted');
}
