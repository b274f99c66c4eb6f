/** Signing in to the staff desk as a member does, by the link e-mailed (tests of the built server). */
import { expect } from 'vitest';
import { postForm } from '../support/server';
import { textOf } from '../support/mime';

/** A form post as the desk's own page sends it (no fetch: the answers are pages and redirects). */
export const post = (
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) => postForm(url, fields, { Accept: 'text/html', Origin: new URL(url).origin, ...headers });

/** A page's text as read, without its tags. */
export const read = (html: string) => html.replace(/<[^>]*>/g, '');

export type Mails = { raw: string; to: string[] }[];
/** The sign-in e-mails `to` got. */
export const mailsTo = (mails: Mails, to: string) =>
  mails.filter((m) => m.to.includes(to) && m.raw.includes('@staff-sign-in.invalid>'));

/** Signs `email` in by the link it is sent; the session's cookie, and the link's token. */
export async function signIn(server: { url: string }, mails: Mails, email: string) {
  const before = mailsTo(mails, email).length;
  expect((await post(`${server.url}/staff/sign-in`, { email })).status).toBe(200);
  await expect.poll(() => mailsTo(mails, email).length).toBe(before + 1);
  return signInBy(server, mailsTo(mails, email).at(-1)!);
}

/** Signs in by the link of a sign-in e-mail, as its reader does: opened, then its button. */
export async function signInBy(server: { url: string }, mail: Mails[number]) {
  const link = /https?:\/\/\S+\/staff\/sign-in\?token=\S+/.exec(textOf(mail.raw) ?? '')![0];
  const page = await fetch(link);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Press the button to sign in');
  const token = new URL(link).searchParams.get('token')!;
  const signed = await post(`${server.url}/staff/sign-in`, { token });
  expect(signed.status).toBe(303);
  expect(signed.headers.get('location')).toBe('/staff');
  const cookie = signed.headers.get('set-cookie')!;
  expect(cookie).toMatch(/^staff=[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax$/);
  return { cookie: cookie.split(';')[0]!, token };
}
