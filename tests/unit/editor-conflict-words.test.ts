/**
 * What the conflict view says changed a file (src/editor/browser/conflict-view.ts whoChanged), from
 * the note the history kept: each of the editor's notes read as History reads it (changeKind), then
 * said in a marketer's words.
 */
import { describe, expect, it } from 'vitest';
import { whoChanged } from '../../src/editor/browser/conflict-view';
import { changeKind } from '../../src/editor/dev-server/stale-files';

const said = (note: string) => whoChanged({ kind: changeKind(note), at: 0, note });

describe('who changed a file, from its note', () => {
  it('says each of the editor’s notes as what happened', () => {
    expect(said('Saved in the editor')).toMatch(/^Someone saved it in the editor/);
    // On the live site a signed-in member saved it: named (a colleague, or they in another tab).
    expect(
      whoChanged({ kind: 'editor', at: 0, note: 'Saved in the editor', by: 'Anna Reid' }),
    ).toBe('Anna Reid saved it in the editor');
    expect(said('Links to /ipad now lead to /ipad-apps')).toBe(
      'Its links to /ipad were pointed at /ipad-apps (“Point them at /ipad-apps”), after that page moved',
    );
    expect(said('Links that led to /php lead to /zend again')).toBe(
      'Its links to /php were pointed back at /zend, when a deleted page came back',
    );
    expect(said('/zend no longer sends visitors to /php: a new page is there now')).toBe(
      'The redirect from /zend to /php was taken away, as a page took that address',
    );
    expect(said('Brought back Zend Framework')).toBe('It was brought back from Deleted entries');
    expect(said('issue 47, part 2')).toBe('A developer changed it (“issue 47, part 2”)');
  });

  it('says a publish or a roll back of the live site as such', () => {
    expect(said('Publish: Changed Android Apps (/android)')).toBe(
      'A publish of the live site changed it',
    );
    expect(said('Roll back to release 3 (Ben, 2027-01-05 09:00 UTC)')).toBe(
      'A roll back of the live site changed it',
    );
  });
});
