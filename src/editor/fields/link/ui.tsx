import { useSyncExternalStore } from 'react';
import { currentSite, subscribeSite, type Site } from '../../site.ts';
import { CheckedText } from '../checked/ui.tsx';
import { leadsTo } from './validate.ts';

/** A link, checked against the site's pages as it is typed, with the page it leads to under it. */
export function LinkInput(props: {
  label: string;
  description?: string;
  value: string;
  onChange(value: string): void;
  forceValidation: boolean;
  problem(href: string, site: Site | undefined): string | undefined;
}) {
  const site = useSyncExternalStore(subscribeSite, currentSite, () => undefined);
  const leads = leadsTo(props.value, site);
  return (
    <CheckedText
      {...props}
      description={[props.description, leads].filter(Boolean).join(' ')}
      problem={(href) => props.problem(href, site)}
    />
  );
}
