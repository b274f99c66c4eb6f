/**
 * Passkeys for the staff desk (WebAuthn, with @simplewebauthn/server): a signed-in member adds one;
 * from then on it signs them in without e-mail. Each ceremony's challenge is kept as a one-time row
 * of the links' table (five minutes, used once), so that any process sharing the store can check it
 * and no response is accepted twice. The browser's side is src/components/staff/PasskeyButton.astro.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { PasskeyAnswer } from '../../domain/api.ts';
import { jsonResponse } from '../json.ts';
import { postHeaders, refusalOf, type PostVerdict } from '../requests/post-gate.ts';
import { newSessionToken, sessionCookie, signedIn } from './access.ts';
import type { OpenDesk, StaffDesk } from './desk.ts';

/** How long a ceremony may take, from its options to its response. */
const CEREMONY_MS = 5 * 60_000;

/** What the browser posts: a step, and for the second steps the response to the challenge. */
interface PasskeyPost {
  step?: unknown;
  challenge?: unknown;
  response?: unknown;
}

const answer = (status: number, body: PasskeyAnswer, headers: Record<string, string> = {}) => ({
  type: 'response' as const,
  response: jsonResponse(status, body, postHeaders({ 'X-Robots-Tag': 'noindex', ...headers })),
});
const refuse = (message: string, status = 400) => answer(status, { error: message });

/** The relying party: the site's host name (a passkey is bound to it) and origin. */
const party = (desk: StaffDesk) => {
  const url = new URL(desk.siteUrl);
  return { rpID: url.hostname, origin: url.origin };
};

/**
 * /staff/passkey (POST, JSON): `register-options` and `register` for a signed-in member;
 * `sign-in-options` and `sign-in` for anyone (signed in by a passkey of a member of staff).
 */
export async function handlePasskey(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenDesk,
) {
  const refused = post && refusalOf(post);
  if (refused) return answer(refused.status, { error: refused.message }, refused.headers);
  const desk = await open().catch(() => undefined);
  if (!desk) return refuse('Passkeys cannot be used right now.', 503);
  const now = desk.now?.() ?? Date.now();
  const body = (post?.ok ? post.json : undefined) as PasskeyPost | undefined;
  const { rpID, origin } = party(desk);
  const links = desk.store.staff;
  const challenge = typeof body?.challenge === 'string' ? body.challenge.slice(0, 200) : '';

  switch (body?.step) {
    case 'register-options': {
      const current = await signedIn(request, { ...desk, now });
      if (!current) return refuse('Sign in first.', 401);
      const { member } = current;
      const options = await generateRegistrationOptions({
        rpName: desk.brand,
        rpID,
        userName: member.email,
        userDisplayName: member.name,
        attestationType: 'none',
        excludeCredentials: (await links.passkeysOf(member.email)).map(({ id, transports }) => ({
          id,
          transports,
        })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      await links.addLink(options.challenge, member.email, now, CEREMONY_MS);
      return answer(200, options);
    }
    case 'register': {
      const current = await signedIn(request, { ...desk, now });
      if (!current) return refuse('Sign in first.', 401);
      const used = await links.useLink(challenge, now);
      if (!('email' in used) || used.email !== current.member.email)
        return refuse('That took too long, or was done already. Try again.');
      const verified = await verifyRegistrationResponse({
        response: body.response as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
      }).catch(() => ({ verified: false as const }));
      if (!verified.verified) return refuse('The passkey could not be checked. Try again.');
      const { credential } = verified.registrationInfo;
      await links.addPasskey(
        {
          id: credential.id,
          email: current.member.email,
          publicKey: isoBase64URL.fromBuffer(credential.publicKey),
          counter: credential.counter,
          transports: credential.transports ?? [],
        },
        now,
      );
      await links.audit({
        at: now,
        actor: current.member.email,
        action: 'added a passkey',
        subject: null,
        detail: null,
      });
      return answer(200, { added: true });
    }
    case 'sign-in-options': {
      const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
      await links.addLink(options.challenge, '', now, CEREMONY_MS);
      return answer(200, options);
    }
    case 'sign-in': {
      const response = body.response as AuthenticationResponseJSON | undefined;
      const used = await links.useLink(challenge, now);
      const passkey =
        typeof response?.id === 'string' ? await links.passkey(response.id) : undefined;
      const member = passkey && desk.members.get(passkey.email);
      if (!('email' in used) || !passkey || !member)
        return refuse(
          'That passkey does not sign anyone in here. Sign in with a link instead.',
          401,
        );
      const verified = await verifyAuthenticationResponse({
        response: response!,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: {
          id: passkey.id,
          publicKey: isoBase64URL.toBuffer(passkey.publicKey),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
        requireUserVerification: false,
      }).catch(() => ({ verified: false as const }));
      if (!verified.verified) return refuse('The passkey could not be checked. Try again.', 401);
      await links.usePasskey(passkey.id, verified.authenticationInfo.newCounter, now);
      const session = newSessionToken();
      await links.startSession(session.hash, member.email, now);
      await links.audit({
        at: now,
        actor: member.email,
        action: 'signed in',
        subject: null,
        detail: 'with a passkey',
      });
      return answer(
        200,
        { location: '/staff' },
        { 'Set-Cookie': sessionCookie(desk.secure, session.token) },
      );
    }
    default:
      return refuse('Not a step of a passkey.');
  }
}
