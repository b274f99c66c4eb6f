/**
 * The visual editor on the live site: which addresses are the editor's (the site's server hands
 * them to its helper, behind the sign-in), which browsers are in the draft's preview mode, and who
 * is an editor (STAFF_EDITORS, however its addresses are written).
 */
import { describe, expect, it } from 'vitest';
import { inPreview, isEditorAddress } from '../../src/domain/editing';
import { isEditor, staffMembers } from '../../src/server/staff/access';
import { readConfig } from '../../src/server/config';

describe('the live editor', () => {
  it("knows the editor's addresses, and no other", () => {
    for (const path of [
      '/keystatic',
      '/keystatic/collection/services/item/ipad',
      '/keystatic/history',
      '/api/keystatic/update',
      '/api/editor/images',
      '/_keystatic/client.js',
    ])
      expect(isEditorAddress(path), path).toBe(true);
    for (const path of [
      '/keystaticx',
      '/api/keystatic',
      '/api/editors',
      '/_astro/a.js',
      '/staff',
      '/',
    ])
      expect(isEditorAddress(path), path).toBe(false);
  });

  it('puts a browser in preview mode by its own cookie only', () => {
    expect(inPreview('staff=abc; editor-preview=1')).toBe(true);
    expect(inPreview('editor-preview=')).toBe(true);
    expect(inPreview('not-editor-preview=1; staff=abc')).toBe(false);
    expect(inPreview(undefined)).toBe(false);
  });

  it('makes STAFF_EDITORS members and editors, EDITING on only when said', () => {
    const config = readConfig({
      STAFF_EDITORS: ' Ed@Northgate-Digital.example , ',
      STAFF_EMAILS: 'office@northgate-digital.example',
      EDITING: 'on',
      ENQUIRY_DB: '/srv/site/data/enquiries.sqlite',
    });
    expect(config.editing.enabled).toBe(true);
    expect(config.editing.editingDir).toBe('/srv/site/data/editing');
    expect(readConfig({ EDITING: 'yes' }).editing.enabled).toBe(false);
    const members = staffMembers([], config.staffEmails, 'UTC', config.staffEditors);
    const editor = members.get('ed@northgate-digital.example')!;
    expect(editor).toBeDefined();
    expect(isEditor(editor)).toBe(true);
    expect(isEditor(members.get('office@northgate-digital.example')!)).toBe(false);
  });
});
