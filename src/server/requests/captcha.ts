/**
 * reCAPTCHA verification, only when RECAPTCHA_SECRET is set. The verify URL
 * is configurable so that tests can use a local stub.
 */
export async function verifyCaptcha(
  token: string,
  remoteIp: string,
  { secret, verifyUrl }: { secret: string; verifyUrl: string },
  timeoutMs = 5000,
): Promise<boolean> {
  if (!token) return false;
  try {
    const response = await fetch(verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret, response: token, remoteip: remoteIp }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return false;
    const result = (await response.json()) as { success?: unknown };
    return result.success === true;
  } catch {
    return false;
  }
}
