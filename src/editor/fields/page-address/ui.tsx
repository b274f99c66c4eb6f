import { TextField } from '@keystar/ui/text-field';
import { useEffect, useState } from 'react';
import type { Rule } from '../../../domain/content-rules.ts';
import { HISTORY_BASE } from '../../routes.ts';

/**
 * Where an address sends its visitors now, if Redirects has it as an old address: asked of the dev
 * server (the History's links.json) a moment after typing stops, as the editor's copy of the
 * files may be older than a save of another tab, a delete or a move.
 */
function useRedirectFrom(address: string | undefined) {
  const [redirect, setRedirect] = useState<{ address: string; to: string }>();
  useEffect(() => {
    if (!address) return;
    const stop = new AbortController();
    const timer = setTimeout(() => {
      fetch(`${HISTORY_BASE}/links.json?to=${encodeURIComponent(address)}`, { signal: stop.signal })
        .then((response) => (response.ok ? response.json() : undefined))
        .then((found?: { redirect?: { to: string } }) =>
          setRedirect(found?.redirect && { address, to: found.redirect.to }),
        )
        .catch(() => {});
    }, 250);
    return () => (clearTimeout(timer), stop.abort());
  }, [address]);
  return redirect?.address === address ? redirect : undefined;
}

/** The address, lowercased as it is typed, with the page it makes and its problem once left. */
export function AddressInput(props: {
  label: string;
  description?: string;
  rule: Rule;
  existing: readonly string[];
  value: string;
  onChange(value: string): void;
  forceValidation: boolean;
  problem(address: string, others: ReadonlySet<string>): string | undefined;
}) {
  const { value, rule } = props;
  const [left, setLeft] = useState(false);
  // The pages there were when the editor opened, less this one (as it was when opened): Save
  // checks against Keystatic's own list, which this field cannot read.
  const [own] = useState(value);
  const others = new Set(props.existing.filter((address) => address !== own));
  const shown = props.forceValidation || left ? props.problem(value, others) : undefined;
  const valid = value !== '' && rule.regex.test(value);
  // A redirect of the address the page moves to: saved, the page takes its visitors (said first).
  const redirect = useRedirectFrom(valid && value !== own ? `/${value}` : undefined);
  const takes = redirect
    ? ` /${value} sends its visitors on to ${redirect.to} now (Redirects): saved at this address, this page takes them, and that redirect is removed.`
    : '';
  return (
    <TextField
      label={props.label}
      description={`${props.description ?? ''} ${valid ? `This page: /${value}.${takes}` : ''}`.trim()}
      value={value}
      onChange={(next) => props.onChange(next.trim().toLowerCase())}
      onBlur={() => setLeft(true)}
      errorMessage={shown}
      width={{ mobile: 'auto', tablet: 'alias.singleLineWidth' }}
    />
  );
}
