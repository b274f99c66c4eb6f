/**
 * Rewrites of Keystatic's browser code as Vite pre-bundles it for `npm run edit` (./editor.ts adds
 * them to `optimizeDeps`), for what Keystatic 0.6.9 has no option for. Each is an exact text
 * replacement: if Keystatic changes that code, nothing matches, Keystatic's own behaviour stays, and
 * the editor's browser tests fail on what the page shows (tests/editor/editor.spec.ts, "Save says").
 *
 * - Save tells: after a Save that wrote the entry, Keystatic's own toast says "Saved" with the
 *   entry's name (a toast is announced to screen readers); a Save Keystatic refuses on a mistake it
 *   found sends `SAVE_REFUSED_EVENT` with the entry's values, which the editor's tab turns into a
 *   message that names the item and field (../browser/save-message.ts, src/editor/problems.ts).
 * - Toolbar words: the entry's toolbar (reset, delete, copy, paste, duplicate, preview, and the
 *   entry's History) shows each action's word beside its icon, not the icon alone, and its menu of the actions that do not fit
 *   (at 375 px, all of them) is a button that says "Actions".
 * - A field's siblings: a list item's id field (src/editor/fields/unique-id/) reads the
 *   other items' ids from Keystatic's own context, which Keystatic does not export; a redirect's
 *   addresses (src/editor/fields/redirect/) read the other redirects from the singleton's state,
 *   kept for them as its page is drawn.
 * - Words: a collection's list names its address column by the field's label ("Page address", not
 *   "Slug"); an emptied text that must be given is "required", not "at least 3 characters long".
 * - Its typeface: Keystatic links Google Fonts' Inter into the page, so that every marketer's
 *   browser told Google each time the editor opened (and, offline, fell back to another font).
 *   The link goes; the editor's tab loads Inter from this server (../browser/tab.ts).
 */

import { RESET_EVENT, SAVED_EVENT, SAVED_WORDS, SAVE_REFUSED_EVENT } from '../events.ts';
import { EDITED_ENTRY, KEYSTATIC_CONTEXTS } from '../keystatic-contexts.ts';
import { HISTORY_BASE } from '../routes.ts';

/** The refusal's event: the entry's values, and its collection's `slugInfo` (../browser/save-message.ts). */
const refused = (slugInfo: string) =>
  `document.dispatchEvent(new CustomEvent(${JSON.stringify(SAVE_REFUSED_EVENT)}, { detail: { preview: props.previewProps, slugInfo: ${slugInfo} } }));`;

/** The toast and the event of a Save that wrote `name` (a JavaScript expression of Keystatic's). */
const saved = (name: string) =>
  `{ const words = globalThis[Symbol.for(${JSON.stringify(SAVED_WORDS)})]; delete globalThis[Symbol.for(${JSON.stringify(SAVED_WORDS)})]; toastQueue.positive(words ? words(${name}) : \`Saved “\${${name}}”\`, { timeout: 5000 }); document.dispatchEvent(new CustomEvent(${JSON.stringify(SAVED_EVENT)})); }`;

/** An entry's History: its address in the editor, under /keystatic/history. */
const HISTORY_HREF = `${JSON.stringify(HISTORY_BASE)} + location.pathname.slice("/keystatic".length)`;

/** [what Keystatic has, what it becomes]: each must be found, once per module that has the first. */
export type Rewrite = { module: string; from: string; to: string };

export const keystaticRewrites: Rewrite[] = [
  // An existing entry of a collection: its Save.
  {
    module: 'function ItemPageInner(',
    from: `      if (!clientSideValidateProp(schema, props.state, slugInfo)) {
        setForceValidation(true);
        return false;
      }
      const slug = getSlugFromState(collectionConfig, props.state);
      const hasUpdated = await parentOnUpdate();`,
    to: `      if (!clientSideValidateProp(schema, props.state, slugInfo)) {
        setForceValidation(true);
        ${refused('slugInfo')}
        return false;
      }
      const slug = getSlugFromState(collectionConfig, props.state);
      const hasUpdated = await parentOnUpdate();
      if (hasUpdated) ${saved('typeof props.state.title === "string" && props.state.title || slug')}`,
  },
  // A new entry: its Create (Keystatic says "Entry created" itself).
  {
    module: 'function ItemPageInner(',
    from: `      if (!clientSideValidateProp(schema, props.state, slugInfo)) {
        setForceValidation(true);
        return;
      }
      if (await props.createItem()) {`,
    to: `      if (!clientSideValidateProp(schema, props.state, slugInfo)) {
        setForceValidation(true);
        ${refused('slugInfo')}
        return;
      }
      if (await props.createItem()) {`,
  },
  // A singleton's Save.
  {
    module: 'function SingletonPageInner(',
    from: `      if (!clientSideValidateProp(schema, props.state, undefined)) {
        setForceValidation(true);
        return;
      }
      await props.onUpdate();`,
    to: `      if (!clientSideValidateProp(schema, props.state, undefined)) {
        setForceValidation(true);
        ${refused('undefined')}
        return;
      }
      if (await props.onUpdate()) ${saved('singletonConfig.label')}`,
  },
  // An entry's Reset changes.
  {
    module: 'function HeaderActions(',
    from: `        case "reset":
          {
            onReset();`,
    to: `        case "reset":
          {
            onReset();
            document.dispatchEvent(new CustomEvent(${JSON.stringify(RESET_EVENT)}));`,
  },
  // The toolbars of an entry, a new entry and a singleton: words beside the icons.
  ...Array.from({ length: 3 }, () => ({
    module: 'function HeaderActions(',
    from: `buttonLabelBehavior: "hide",
      overflowMode: "collapse",`,
    to: `buttonLabelBehavior: "show",
      overflowMode: "collapse",`,
  })),
  // Keystatic keeps the toolbar one icon wide below 1280 px: its menu's word would not show.
  ...Array.from({ length: 3 }, () => ({
    module: 'function HeaderActions(',
    from: 'isBelowDesktop ? "element.regular" : undefined',
    to: 'undefined',
  })),
  // The entry's History (./history/route.ts), a page of its own: "_top", so
  // that the link loads it rather than Keystatic's router, which has no such page. Then the actions
  // that stay in view when the others go into the menu: first, Preview, History and those that
  // change the entry; copying and pasting an entry's text last.
  {
    module: 'function HeaderActions(',
    from: `    $[5] = previewHref;
    $[6] = viewHref;
    $[7] = items;`,
    to: `    if (!location.pathname.endsWith("/create"))
      items.push({ key: "history", label: "History", icon: historyIcon, href: ${HISTORY_HREF}, target: "_top" });
    const shownFirst = ["preview", "history", "reset", "delete", "duplicate", "copy", "paste", "view"];
    items.sort((a, b) => shownFirst.indexOf(a.key) - shownFirst.indexOf(b.key));
    $[5] = previewHref;
    $[6] = viewHref;
    $[7] = items;`,
  },
  // A singleton's History, after its Preview.
  {
    module: 'function SingletonPageInner(',
    from: `    $[16] = previewHref;
    $[17] = viewHref;
    $[18] = actions;`,
    to: `    actions.push({ key: "history", label: "History", icon: historyIcon, href: ${HISTORY_HREF}, target: "_top" });
    $[16] = previewHref;
    $[17] = viewHref;
    $[18] = actions;`,
  },
  // An entry's toolbar may narrow (its words then go into the menu) rather than push Save off the
  // page: at 1280 px, with the words, it is wider than the room beside the entry's name. It takes
  // three quarters of the header (three fifths below 1280 px), the entry's name the rest, which may
  // shorten to "… › iphone" (at 375 px, else the menu's word did not fit). The group has a box of
  // its own, whose size it follows: "Unsaved" beside it then sends one more action into the menu.
  {
    module: 'const HeaderBreadcrumbs =',
    from: `      flex: true,
      size: "medium",
      minWidth: "alias.singleLineWidth",`,
    to: `      flex: true,
      size: "medium",
      minWidth: 0,`,
  },
  {
    module: 'function HeaderActions(',
    from: `    t22 = /*#__PURE__*/jsxs(Flex, {
      alignItems: "center",
      gap: t7,
      children: [t8, indicatorElement, t13, t15, t18, t21]`,
    to: `    t22 = /*#__PURE__*/jsxs(Flex, {
      alignItems: "center",
      gap: t7,
      flex: isBelowDesktop ? 1.5 : 3,
      minWidth: 0,
      justifyContent: "end",
      children: [t8, indicatorElement, /*#__PURE__*/jsx(Flex, { flex: true, minWidth: 0, justifyContent: "end", children: t13 }), t15, t18, t21]`,
  },
  // A new entry's toolbar: the same room, in a box of its own (its name, "Add", kept in view).
  {
    module: 'function HeaderActions(',
    from: `    t19 = /*#__PURE__*/jsxs(PageHeader, {
      children: [t10, t11, t12, t16, t18]`,
    to: `    t19 = /*#__PURE__*/jsxs(PageHeader, {
      children: [t10, t11, t12, /*#__PURE__*/jsx(Flex, { flex: isBelowDesktop ? 1.5 : 3, minWidth: 0, justifyContent: "end", children: t16 }), t18]`,
  },
  // The toolbar's menu of the actions that do not fit: a word too (Keystar UI's ActionGroup; other
  // groups that hide their words, such as the text editor's, keep an icon alone).
  {
    module: 'function ActionGroupMenu(',
    from: `let ariaLabel = otherProps['aria-label'] || (otherProps['aria-labelledby'] ? undefined : '…');`,
    to: `let ariaLabel = otherProps['aria-label'] || (otherProps['aria-labelledby'] || !hideButtonText ? undefined : '…');`,
  },
  {
    module: 'function ActionGroupMenu(',
    from: `            children: summaryIcon || /*#__PURE__*/jsx(Icon, {
              src: moreHorizontalIcon
            })`,
    to: `            children: summaryIcon || (hideButtonText ? /*#__PURE__*/jsx(Icon, {
              src: moreHorizontalIcon
            }) : [/*#__PURE__*/jsx(Icon, { src: moreHorizontalIcon }, "icon"), /*#__PURE__*/jsx(Text, { children: "Actions" }, "text")])`,
  },
  // A singleton's entry as it is edited, for the fields that check an item against its list's
  // others (a redirect against the other redirects): kept as the page is drawn, before its fields.
  {
    module: 'function SingletonPageInner(',
    from: `function SingletonPageInner(props) {
  const $ = c(96);`,
    to: `function SingletonPageInner(props) {
  const $ = c(96);
  globalThis[Symbol.for(${JSON.stringify(EDITED_ENTRY)})] = { singleton: props.singleton, state: props.state };`,
  },
  // The list of a collection's entries names its address column by the field's own label ("Page
  // address"), not "Slug".
  {
    module: 'function CollectionTable(',
    from: `        name: 'Slug',
        key: SLUG`,
    to: `        name: collection.schema[collection.slugField] && collection.schema[collection.slugField].label || 'Slug',
        key: SLUG`,
  },
  // An emptied text that must be given says so ("Alt text is required"), not "must be at least 3
  // characters long".
  {
    module: 'function validateText(',
    from: `function validateText(val, min, max, fieldLabel, slugInfo, pattern) {
  if (val.length < min) {`,
    to: `function validateText(val, min, max, fieldLabel, slugInfo, pattern) {
  if (val.length < min && val.trim() === '') return \`\${fieldLabel} is required\`;
  if (val.length < min) {`,
  },
  // Keystatic's contexts of a field, for the editor's own fields.
  {
    module: 'const SlugFieldContext = /*#__PURE__*/createContext(undefined);',
    from: 'const SlugFieldContext = /*#__PURE__*/createContext(undefined);',
    to: `const SlugFieldContext = /*#__PURE__*/createContext(undefined);
globalThis[Symbol.for(${JSON.stringify(KEYSTATIC_CONTEXTS)})] = { get SlugFieldContext() { return SlugFieldContext; }, get PathContext() { return PathContext; } };`,
  },
  // Its typeface from Google Fonts: no link (the tab loads Inter from this server).
  {
    module: 'https://fonts.googleapis.com/css2?family=Inter',
    from: `/*#__PURE__*/jsx("link", {
        href: "https://fonts.googleapis.com/css2?family=Inter:wght@400;500;600;700&display=swap",
        rel: "stylesheet"
      }), `,
    to: '',
  },
];

/**
 * Applies the rewrites to one module of Keystatic's as Vite pre-bundles it; `null` for a module
 * none concerns. A rewrite whose module is there but whose text is not is left out (Keystatic's own
 * behaviour stays), and said on the console of the dev server.
 */
export function rewriteKeystatic(
  code: string,
  id: string,
  rewrites: readonly Rewrite[] = keystaticRewrites,
): string | null {
  if (!/@keystatic[\\/]core|@keystar[\\/]ui/.test(id)) return null;
  let rewritten = code;
  for (const { module, from, to } of rewrites) {
    if (!code.includes(module)) continue;
    const at = rewritten.indexOf(from);
    if (at === -1) {
      console.warn(`[editor] Keystatic's code has changed: a rewrite did not apply in ${id}`);
      continue;
    }
    rewritten = rewritten.slice(0, at) + to + rewritten.slice(at + from.length);
  }
  return rewritten === code ? null : rewritten;
}

/** FNV-1a of a text, in hexadecimal: short, and the same in Node and the browser. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16);
}

/**
 * The rolldown plugin for `optimizeDeps.rolldownOptions.plugins`. Vite keeps its pre-bundles until
 * the lockfile or its configuration changes, the names of these plugins included but not their
 * code: the name carries a fingerprint of the rewrites, so that a changed rewrite bundles anew
 * (else an existing node_modules/.vite kept the old Keystatic).
 */
export const keystaticFriction = {
  name: `editor:keystatic-friction-${fingerprint(JSON.stringify(keystaticRewrites))}`,
  transform: (code: string, id: string) => rewriteKeystatic(code, id),
};
