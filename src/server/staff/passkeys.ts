/**
 * Passkeys for the staff desk (WebAuthn, with @simplewebauthn/server): a signed-in member adds one;
 * from then on it signs them in without e-mail. Each ceremony's challenge is kept (as a hash) in a
 * table of its own with its purpose, five minutes and used once, so that any process sharing the
 * store can check it, no response is accepted twice, and neither a link nor the other ceremony's
 * challenge stands in for it. A network holds at most CHALLENGES_PER_NETWORK at once, and expired
 * ones are swept. The browser's side is src/components/staff/PasskeyButton.astro.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { COSEALG, isoBase64URL } from '@simplewebauthn/server/helpers';
import type { PasskeyAnswer } from '../../domain/api.ts';
import { jsonResponse } from '../json.ts';
import { isLoopbackOrigin } from '../requests/client.ts';
import { postHeaders, refusalOf, type PostVerdict } from '../requests/post-gate.ts';
import { wideNetwork } from '../networks.ts';
import { signedIn, storedHash } from './access.ts';
import { record, type OpenDesk, type StaffDesk } from './desk.ts';
import { signInUnavailableJson } from './refused.ts';
import { startSession } from './sign-in.ts';
import type { ChallengePurpose } from '../store/staff.ts';

/** How long a ceremony may take, from its options to its response. */
const CEREMONY_MS = 5 * 60_000;
/** Ceremonies under way at once from one network (an IPv4 /24, an IPv6 /48). */
export const CHALLENGES_PER_NETWORK = 20;

/**
 * The keys a passkey may have: the library's default, said here, because without a list it asks
 * Node whether it verifies ML-DSA (SubtleCrypto.supports), experimental in Node 24, which writes
 * two ExperimentalWarnings to the log at the first passkey added. No authenticator makes ML-DSA
 * keys yet.
 */
const ALGORITHMS = [COSEALG.EdDSA, COSEALG.ES256, COSEALG.RS256];

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

/**
 * The relying party: the site's host name (a passkey is bound to it) and origin; without SITE_URL,
 * the page's own at this machine's address (`npm start` at http://localhost:4321).
 */
const party = (desk: StaffDesk, request: Request) => {
  const page = request.headers.get('origin');
  const local = desk.localParty && page && isLoopbackOrigin(page);
  const url = new URL(local ? page : desk.siteUrl);
  return { rpID: url.hostname, origin: url.origin, local: !!local };
};

/** A host name that is an address (127.0.0.1, [::1]): no passkey can be bound to it. */
const isAddress = (hostname: string) => /^[\d.]+$|^\[/.test(hostname);

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
  if (!desk) return signInUnavailableJson();
  const body = (post?.ok ? post.json : undefined) as PasskeyPost | undefined;
  const { local, ...relyingParty } = party(desk, request);
  if (local && isAddress(relyingParty.rpID))
    return refuse(
      `A passkey is bound to a name, not an address: open this page at ${relyingParty.origin.replace(relyingParty.rpID, 'localhost')} to use one.`,
      409,
    );
  const step: Step = {
    desk,
    request,
    now: desk.now?.() ?? Date.now(),
    ...relyingParty,
    client: post?.ok ? post.client : '',
    challenge: typeof body?.challenge === 'string' ? body.challenge.slice(0, 200) : '',
    response: body?.response,
  };
  switch (body?.step) {
    case 'register-options':
      return registerOptions(step);
    case 'register':
      return register(step);
    case 'sign-in-options':
      return begin(
        step,
        await generateAuthenticationOptions({ rpID: step.rpID, userVerification: 'preferred' }),
        'sign-in',
        null,
      );
    case 'sign-in':
      return signIn(step);
    default:
      return refuse('Not a step of a passkey.');
  }
}

/** A step of a ceremony: who posted it, from where, and what it answers. */
interface Step {
  desk: StaffDesk;
  request: Request;
  now: number;
  rpID: string;
  origin: string;
  /** The client's address, whose network's challenges are bounded. */
  client: string;
  /** The challenge the response answers (second steps), as the browser sent it back. */
  challenge: string;
  response: unknown;
}

/** Keeps a new ceremony's challenge, within its network's bound; its options, or a 429. */
async function begin(
  step: Step,
  options: { challenge: string },
  purpose: ChallengePurpose,
  email: string | null,
) {
  const kept = await step.desk.store.staff.addChallenge(
    {
      hash: storedHash(options.challenge),
      purpose,
      email,
      network: wideNetwork(step.client),
      expiresAt: step.now + CEREMONY_MS,
    },
    step.now,
    CHALLENGES_PER_NETWORK,
  );
  return kept
    ? answer(200, options)
    : refuse(
        'Too many passkeys are being used from your network just now. Sign in with a link, or try again in a few minutes.',
        429,
      );
}

/** The challenge a second step answers, used up: whose it was, if it is one of `purpose`. */
const used = (step: Step, purpose: ChallengePurpose) =>
  step.desk.store.staff.useChallenge(storedHash(step.challenge), purpose, step.now);

/** A signed-in member's options to add a passkey (not one of those they have). */
async function registerOptions(step: Step) {
  const { desk, rpID } = step;
  const current = await signedIn(step.request, { ...desk, now: step.now });
  if (!current) return refuse('Sign in first.', 401);
  const { member } = current;
  const options = await generateRegistrationOptions({
    rpName: desk.brand,
    rpID,
    userName: member.email,
    userDisplayName: member.name,
    attestationType: 'none',
    excludeCredentials: (await desk.store.staff.passkeysOf(member.email)).map(
      ({ id, transports }) => ({ id, transports }),
    ),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  return begin(step, options, 'register', member.email);
}

/** A passkey added: by the member whose ceremony it is, verified against its challenge. */
async function register(step: Step) {
  const { desk, now } = step;
  const current = await signedIn(step.request, { ...desk, now });
  if (!current) return refuse('Sign in first.', 401);
  const ceremony = await used(step, 'register');
  if (ceremony?.email !== current.member.email)
    return refuse('That took too long, or was done already. Try again.');
  const verified = await verifyRegistrationResponse({
    response: step.response as RegistrationResponseJSON,
    expectedChallenge: step.challenge,
    expectedOrigin: step.origin,
    expectedRPID: step.rpID,
    requireUserVerification: false,
    supportedAlgorithmIDs: ALGORITHMS,
  }).catch(() => ({ verified: false as const }));
  if (!verified.verified) return refuse('The passkey could not be checked. Try again.');
  const { credential } = verified.registrationInfo;
  await desk.store.staff.addPasskey(
    {
      id: credential.id,
      email: current.member.email,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
    },
    now,
  );
  await record(desk, current.member, now, { action: 'added a passkey' });
  return answer(200, { added: true });
}

/** Signed in by a member's passkey, verified against a sign-in challenge: a session. */
async function signIn(step: Step) {
  const { desk, now } = step;
  const response = step.response as AuthenticationResponseJSON | undefined;
  const ceremony = await used(step, 'sign-in');
  const passkey =
    typeof response?.id === 'string' ? await desk.store.staff.passkey(response.id) : undefined;
  const member = passkey && desk.members.get(passkey.email);
  if (!ceremony || !passkey || !member)
    return refuse('That passkey does not sign anyone in here. Sign in with a link instead.', 401);
  const verified = await verifyAuthenticationResponse({
    response: response!,
    expectedChallenge: step.challenge,
    expectedOrigin: step.origin,
    expectedRPID: step.rpID,
    credential: {
      id: passkey.id,
      publicKey: isoBase64URL.toBuffer(passkey.publicKey),
      counter: passkey.counter,
      transports: passkey.transports as never,
    },
    requireUserVerification: false,
  }).catch(() => ({ verified: false as const }));
  if (!verified.verified) return refuse('The passkey could not be checked. Try again.', 401);
  await desk.store.staff.usePasskey(passkey.id, verified.authenticationInfo.newCounter, now);
  const cookie = await startSession(desk, member, 'with a passkey', now);
  return answer(200, { location: '/staff' }, { 'Set-Cookie': cookie });
}
