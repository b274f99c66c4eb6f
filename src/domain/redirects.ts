// TEMPORARY stand-in until the redirects branch lands (its version replaces this file).
export interface Redirect {
  from: string;
  to: string;
}
export function withMove(redirects: readonly Redirect[], from: string, to: string): Redirect[] {
  const kept = redirects
    .filter((r) => r.from !== to && r.from !== from)
    .map((r) => (r.to === from ? { ...r, to } : r))
    .filter((r) => r.from !== r.to);
  return from === to ? kept : [...kept, { from, to }];
}
