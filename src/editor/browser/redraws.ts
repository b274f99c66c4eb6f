/**
 * In the editor's own tab: Keystatic draws its pages as React renders them, so what the tab adds
 * to them (a History link, the drafts marker, the Delete dialog's help) is added again after each
 * change of the page, once a frame at most.
 */
export function afterEachRedraw(add: () => void): void {
  let scheduled = false;
  new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      add();
    });
  }).observe(document.documentElement, { childList: true, subtree: true });
}
