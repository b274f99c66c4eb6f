import { JSDOM } from 'jsdom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  $callModalOpen,
  CALL_DIALOG_ID,
  CALL_TIME_ID,
  closeCallModal,
  openCallModal,
} from '../../src/stores/call-modal';
import { writeAgain } from '../../src/stores/device-queue';
import {
  $lightboxIndex,
  $portfolioFilter,
  closeLightbox,
  openLightbox,
} from '../../src/stores/portfolio';
import {
  filterFromSearch,
  isPortfolioFilter,
  searchForFilter,
  stepProject,
} from '../../src/domain/portfolio';

describe('call modal store', () => {
  it('opens, and on closing hands back the element that opened it, once', () => {
    const opener = { focus() {} } as unknown as HTMLElement;
    openCallModal(opener);
    expect($callModalOpen.get()).toBe(true);
    expect(closeCallModal()).toBe(opener);
    expect($callModalOpen.get()).toBe(false);
    expect(closeCallModal()).toBeNull();
  });

  it('notifies subscribers, which is how the button and the modal islands talk', () => {
    const seen: boolean[] = [];
    const unsubscribe = $callModalOpen.listen((open) => seen.push(open));
    openCallModal();
    closeCallModal();
    unsubscribe();
    expect(seen).toEqual([true, false]);
  });
});

describe('a kept call request written again', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    closeCallModal();
  });

  it('opens the dialog at its time step even when the device cannot read its copy', async () => {
    // Node has no IndexedDB: every read of the device's copy fails, as a cleared or refused storage's.
    const { window } = new JSDOM(
      `<dialog><div id="${CALL_DIALOG_ID}"><form><input name="name"><input name="email">` +
        `<textarea name="message"></textarea></form><a id="${CALL_TIME_ID}" href="#t">Choose a time</a></div></dialog>`,
    );
    window.HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      this.open = true;
    };
    vi.stubGlobal('document', window.document);
    const opener = window.document.querySelector('a')!;
    await writeAgain('a-refused-call', opener);
    expect(window.document.querySelector('dialog')!.open).toBe(true);
    expect($callModalOpen.get()).toBe(true);
    expect(window.document.activeElement?.id).toBe(CALL_TIME_ID);
  });
});

describe('portfolio stores', () => {
  it('reads the filter from the address, ignoring unknown values', () => {
    expect(filterFromSearch('?filter=apps')).toBe('apps');
    expect(filterFromSearch('?filter=social-media&x=1')).toBe('social-media');
    expect(filterFromSearch('?filter=games')).toBe('all');
    expect(filterFromSearch('')).toBe('all');
  });

  it('writes the filter to the address, keeping other parameters; "all" is the plain page', () => {
    expect(searchForFilter('apps')).toBe('?filter=apps');
    expect(searchForFilter('websites', '?filter=apps&utm_source=x')).toBe(
      '?filter=websites&utm_source=x',
    );
    expect(searchForFilter('all', '?filter=apps')).toBe('');
    expect(searchForFilter('all', '?filter=apps&utm_source=x')).toBe('?utm_source=x');
  });

  it('knows the four filters', () => {
    for (const value of ['all', 'websites', 'apps', 'social-media'])
      expect(isPortfolioFilter(value)).toBe(true);
    expect(isPortfolioFilter('website')).toBe(false);
    expect($portfolioFilter.get()).toBe('all');
  });

  it('opens the lightbox on a project and clears it on close', () => {
    openLightbox(3);
    expect($lightboxIndex.get()).toBe(3);
    closeLightbox();
    expect($lightboxIndex.get()).toBeNull();
  });

  it('steps through the projects the filter shows, wrapping at either end', () => {
    const shown = [1, 4, 6];
    expect(stepProject(shown, 4, 1)).toBe(6);
    expect(stepProject(shown, 6, 1)).toBe(1);
    expect(stepProject(shown, 1, -1)).toBe(6);
    expect(stepProject(shown, 4, -1)).toBe(1);
    // A project the filter now hides steps from the first one shown.
    expect(stepProject(shown, 2, 1)).toBe(4);
    expect(stepProject([], 2, 1)).toBe(2);
  });
});
