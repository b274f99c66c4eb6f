/**
 * The enquiries kept on this device (src/offline/device-queue.ts) as the islands show them: the form that
 * kept one shows it in place, the notice of the Schedule a Call island shows the others. The page
 * sends them when the connection returns (`online`) and when it loads with some kept; the service
 * worker may send them first (Background Sync). What one sends or the visitor dismisses, the others
 * are told on a BroadcastChannel, so that no tab shows a post as waiting once it is done.
 */
import { atom } from 'nanostores';
import type { CallRequestField } from '../domain/call-form';
import { REQUESTED } from '../domain/hand-over';
import { CALL_DIALOG_ID, CALL_TIME_ID, openCallModal } from './call-modal';
import {
  CHANNEL,
  PENDING_FLAG,
  SYNC_TAG,
  forget,
  keep,
  kept,
  sendKept,
  type QueuedEnquiry,
  type SendResult,
} from '../offline/device-queue';

export interface OutboxItem {
  key: string;
  kind: QueuedEnquiry['kind'];
  state: 'kept' | 'sent' | 'refused';
  error?: string;
  /** What the visitor wrote, shown again if the server refuses it. */
  message?: string;
  /** Kept by a form of this page (which shows it), not on an earlier visit. */
  here: boolean;
  /** Why it was kept (QueuedEnquiry.why). */
  why?: QueuedEnquiry['why'];
  /** Refused for its time (QueuedEnquiry.refusedTime). */
  refusedTime?: QueuedEnquiry['refusedTime'];
  /** Sent and booked: the call's page (QueuedEnquiry.booked). */
  booked?: string;
}

const RETRY_MS = 30_000;

/** What the device keeps, or nothing where its storage cannot be read (cleared, or refused). */
const keptOrNone = () => kept().catch((): QueuedEnquiry[] => []);

export const $outbox = atom<OutboxItem[]>([]);

const update = (key: string, change: Partial<OutboxItem>) =>
  $outbox.set($outbox.get().map((item) => (item.key === key ? { ...item, ...change } : item)));

/** The flag that lets the next page load hydrate the notice without opening IndexedDB first. */
function flagPending() {
  // A booked call is told until dismissed (QueuedEnquiry.booked); anything else sent is done.
  const pending = $outbox.get().some((item) => item.state !== 'sent' || item.booked);
  try {
    if (pending) localStorage.setItem(PENDING_FLAG, '1');
    else localStorage.removeItem(PENDING_FLAG);
  } catch {
    // Storage blocked: the notice then appears only where a form is used.
  }
}

/**
 * What the site's tabs tell each other on CHANNEL (and the service worker tells them): what became
 * of the kept posts, or one the visitor dismissed.
 */
type TabNews = SendResult[] | { dismissed: string };

let channel: BroadcastChannel | undefined;
/** The site's other tabs (a channel does not hear its own messages). */
const otherTabs = () =>
  'BroadcastChannel' in window ? (channel ??= new BroadcastChannel(CHANNEL)) : undefined;

/** An item no longer shown: dismissed, here or in another tab. */
function drop(key: string) {
  $outbox.set($outbox.get().filter((item) => item.key !== key));
  flagPending();
}

function apply(results: SendResult[]) {
  for (const { key, outcome, ...said } of results) {
    if (outcome !== 'kept') update(key, { state: outcome, ...said });
  }
  flagPending();
}

let sending: Promise<void> | undefined;
/** Sends what is kept, one run at a time. */
export const sendNow = () =>
  (sending ??= sendKept()
    .then(
      (results) => {
        apply(results);
        otherTabs()?.postMessage(results satisfies TabNews);
      },
      () => {},
    )
    .finally(() => (sending = undefined)));

const messageOf = (entry: QueuedEnquiry) =>
  entry.fields.find(([name]) => name === 'message' || name === 'project')?.[1];

let started: Promise<void> | undefined;
/** Whether an earlier page left enquiries kept on the device (known without opening IndexedDB). */
export function somethingKept() {
  try {
    return !!localStorage.getItem(PENDING_FLAG);
  } catch {
    return false;
  }
}

/** Loads what the device keeps, and sends it now and whenever the connection returns. */
export const startOutbox = () =>
  (started ??= (async () => {
    addEventListener('online', () => void sendNow());
    // A post that timed out on a slow connection gets no `online` event: try again now and then.
    // Armed at once, not once IndexedDB has answered: a post kept now is tried in RETRY_MS.
    setInterval(() => {
      if (navigator.onLine && $outbox.get().some((item) => item.state === 'kept')) void sendNow();
    }, RETRY_MS);
    const tabs = otherTabs();
    if (tabs)
      tabs.onmessage = ({ data }: MessageEvent<TabNews>) =>
        Array.isArray(data) ? apply(data) : drop(data.dismissed);
    const entries = await keptOrNone();
    const known = new Set($outbox.get().map((item) => item.key));
    $outbox.set([
      ...$outbox.get(),
      ...entries
        .filter((entry) => !known.has(entry.key))
        .map((entry): OutboxItem => ({
          key: entry.key,
          kind: entry.kind,
          state: entry.refused ? 'refused' : entry.booked ? 'sent' : 'kept',
          error: entry.refused,
          booked: entry.booked,
          refusedTime: entry.refusedTime,
          message: messageOf(entry),
          here: false,
          why: entry.why,
        })),
    ]);
    // A booked call's own page is where it is told: reaching it is reading it.
    for (const item of $outbox.get())
      if (item.booked === location.pathname + location.search) dismiss(item.key);
    flagPending();
    if (navigator.onLine) await sendNow();
  })());

/** Keeps a form's submission on the device, to be sent when the connection returns. */
export async function keepEnquiry(entry: QueuedEnquiry) {
  await keep(entry);
  $outbox.set([
    ...$outbox.get(),
    {
      key: entry.key,
      kind: entry.kind,
      state: 'kept',
      message: messageOf(entry),
      here: true,
      why: entry.why,
    },
  ]);
  flagPending();
  void startOutbox();
  // Background Sync sends it even if the page is closed first (where the browser has it).
  void navigator.serviceWorker
    ?.getRegistration()
    .then((registration) =>
      (
        registration as
          | (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
          | undefined
      )?.sync?.register(SYNC_TAG),
    )
    .catch(() => {});
}

/**
 * The visitor has read the outcome (or written it again): a sent one is gone already, a refused or
 * booked one is deleted now. Settles once the device has forgotten it, so that a page about to be
 * left can wait for that.
 */
export function dismiss(key: string): Promise<void> {
  drop(key);
  otherTabs()?.postMessage({ dismissed: key } satisfies TabNews);
  return forget(key).catch(() => {});
}

/** The call form's own fields: not its time, its key or its captcha, which are asked for anew. */
const WRITTEN: readonly string[] = ['name', 'email', 'message'] satisfies CallRequestField[];

/** The kept call request written again into the dialog's form, until that form's own is safe. */
let writtenAgain: string | undefined;

/**
 * A kept call request the server refused for its time, written again (the notice's "Choose another
 * time"): its fields into the Schedule a Call dialog's form, the dialog opened, and its free times
 * asked for: the time step opened by a tap where its code has come, else marked as asked for
 * (REQUESTED) and its code loaded by the focus, to open as it comes. Not by a tap on it then: the
 * page's first move would offer the first days meanwhile, whose script a tap on 'Schedule a Call'
 * loads beforehand, and which here would race the step's code. The kept request is forgotten once
 * the form's own is safe (`forgetWrittenAgain`).
 */
export async function writeAgain(key: string, opener: HTMLElement) {
  const form = document.querySelector<HTMLFormElement>(`#${CALL_DIALOG_ID} form`)!;
  // The device's copy unreadable now: the dialog opens all the same, the notice still showing
  // what was written.
  for (const [name, value] of (await keptOrNone()).find((entry) => entry.key === key)?.fields ??
    []) {
    // The call form's name, email and message: an input or a text area each.
    const field = WRITTEN.includes(name) && (form.elements.namedItem(name) as HTMLInputElement);
    if (field) field.value = value;
  }
  writtenAgain = key;
  // Modal at once (the first move's frame of a non-modal dialog is for a tap's first paint), the store
  // following.
  form.closest('dialog')!.showModal();
  openCallModal(opener);
  const step = document.getElementById(CALL_TIME_ID)!;
  step.focus();
  // Its island still as the server sent it (as the first move tells it): its code yet to come.
  if (step.closest('astro-island[ssr]')) step.setAttribute(REQUESTED, '');
  else step.click();
}

/** The dialog's request is safe (sent, or kept): the one it was written again from is done with. */
export async function forgetWrittenAgain() {
  const key = writtenAgain;
  writtenAgain = undefined;
  if (key) await dismiss(key);
}
