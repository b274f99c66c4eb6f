/**
 * Rewrites of Keystatic's browser code (0.6.9) for Saves made on the version the editor opened, as
 * Vite pre-bundles it (./editor.ts adds them beside ./keystatic-rewrites.ts, whose mechanism they
 * share: an exact text replacement each, checked by tests/unit/editor-keystatic.test.ts).
 *
 * - The version an entry was opened at: an entry's page keeps, beside its values, the key of the
 *   files it was opened at (Keystatic's own "tree key": the blob sha of each file of the entry),
 *   and a restored draft keeps the key of the version it was begun on (Keystatic wrote the key of
 *   the files as they were at each later edit, and a draft begun before a change of the file then
 *   counted as made after it). Keystatic resets the page to the new files when they change; it
 *   still does, unless the marketer has changed something: their values stay, on the version they
 *   began on, until they save or reset.
 * - A Save and a deletion name that version of each file (SAVE_BASE_HEADER), which the dev server
 *   checks (./save-check.ts); a Save that went through marks the page as up to date, so that it
 *   shows the files as saved (the other version's, when the marketer took it at a conflict).
 * - The tab's copy of the files can be replaced by one it fetched (KEYSTATIC_TREE): the editor then
 *   follows the dev server's own writes (a rename's redirect, links moved, a restore) without a
 *   reload (../browser/saves.ts).
 * - A restored draft of an entry changed since says that Save will show both versions.
 * - Drafts are kept per tab as well as per entry, by the editor's tab (../browser/tab-drafts.ts):
 *   two tabs on one page wrote one draft, each over the other's.
 */
import { KEYSTATIC_TREE, SAVE_BASE_HEADER, TAB_DRAFTS } from '../events.ts';
import { fingerprint, rewriteKeystatic, type Rewrite } from './keystatic-rewrites.ts';

const header = JSON.stringify(SAVE_BASE_HEADER);

/** An entry page's state as Keystatic sets it anew for `key`, with the version it was opened at. */
const fresh = (key: string) => `baseKey: ${key},\n      clean: true`;

/** The state kept when the files change under values the marketer changed. */
const keepEdits = '{ ...t2, localTreeKey }';

export const saveRewrites: Rewrite[] = [
  // An entry of a collection: its state holds the version it was opened at.
  {
    module: 'function LocalItemPage(',
    from: `    t1 = {
      state: t0,
      localTreeKey
    };`,
    to: `    t1 = {
      state: t0,
      localTreeKey,
      baseKey: draft?.treeKey ?? localTreeKey,
      clean: !draft
    };`,
  },
  {
    module: 'function LocalItemPage(',
    from: `  useShowRestoredDraftMessage(draft, state, localTreeKey);
  if (localTreeKeyInState !== localTreeKey) {
    setState({
      state: initialState,
      localTreeKey
    });
  }`,
    to: `  useShowRestoredDraftMessage(draft, state, localTreeKey);
  if (localTreeKeyInState !== localTreeKey) {
    setState(t2.clean ? {
      state: initialState,
      localTreeKey,
      ${fresh('localTreeKey')}
    } : ${keepEdits});
  }`,
  },
  {
    module: 'function LocalItemPage(',
    from: `      setState(state_0 => ({
        localTreeKey: state_0.localTreeKey,
        state: stateUpdater(state_0.state)
      }));`,
    to: `      setState(state_0 => ({
        ...state_0,
        clean: false,
        state: stateUpdater(state_0.state)
      }));`,
  },
  {
    module: 'function LocalItemPage(',
    from: `        const data = {
          beforeTreeKey: localTreeKey,
          slug,`,
    to: `        const data = {
          beforeTreeKey: t2.baseKey,
          slug,`,
  },
  {
    module: 'function LocalItemPage(',
    from: `      currentLocalTreeKey: localTreeKey,
      slug: t6
    };`,
    to: `      currentLocalTreeKey: localTreeKey,
      slug: t6,
      baseKey: t2.baseKey,
      baseDirpath: getCollectionItemPath(config, collection, props.itemSlug),
      baseSlug: props.itemSlug,
      onSaved: () => setState(s => ({ ...s, clean: true, localTreeKey: null }))
    };`,
  },
  {
    module: 'function LocalItemPage(',
    from: `    t10 = () => {
      setState({
        state: initialState,
        localTreeKey
      });
    };`,
    to: `    t10 = () => {
      setState({
        state: initialState,
        localTreeKey,
        ${fresh('localTreeKey')}
      });
    };`,
  },
  // A singleton: the same.
  {
    module: 'function LocalSingletonPage(',
    from: `      return {
        localTreeKey,
        state: (_draft$state = draft`,
    to: `      return {
        localTreeKey,
        baseKey: draft?.treeKey ?? localTreeKey,
        clean: !draft,
        state: (_draft$state = draft`,
  },
  {
    module: 'function LocalSingletonPage(',
    from: `  if (localTreeKeyInState !== localTreeKey) {
    setState({
      localTreeKey,
      state: initialState === null ? getInitialPropsValue(schema) : initialState
    });
  }`,
    to: `  if (localTreeKeyInState !== localTreeKey) {
    setState(t2.clean ? {
      localTreeKey,
      ${fresh('localTreeKey')},
      state: initialState === null ? getInitialPropsValue(schema) : initialState
    } : ${keepEdits});
  }`,
  },
  {
    module: 'function LocalSingletonPage(',
    from: `      setState(state_0 => ({
        localTreeKey: state_0.localTreeKey,
        state: cb(state_0.state)
      }));`,
    to: `      setState(state_0 => ({
        ...state_0,
        clean: false,
        state: cb(state_0.state)
      }));`,
  },
  {
    module: 'function LocalSingletonPage(',
    from: `        const data = {
          beforeTreeKey: localTreeKey,
          files,`,
    to: `        const data = {
          beforeTreeKey: t2.baseKey,
          files,`,
  },
  {
    module: 'function LocalSingletonPage(',
    from: `      currentLocalTreeKey: localTreeKey,
      slug: undefined
    };
    $[28] = state;`,
    to: `      currentLocalTreeKey: localTreeKey,
      slug: undefined,
      baseKey: t2.baseKey,
      baseDirpath: singletonPath,
      onSaved: () => setState(s => ({ ...s, clean: true, localTreeKey: null }))
    };
    $[28] = state;`,
  },
  {
    module: 'function LocalSingletonPage(',
    from: `    t8 = () => setState({
      localTreeKey,
      state: initialState === null ? getInitialPropsValue(schema) : initialState
    });`,
    to: `    t8 = () => setState({
      localTreeKey,
      ${fresh('localTreeKey')},
      state: initialState === null ? getInitialPropsValue(schema) : initialState
    });`,
  },
  // A Save names the version of each file of the entry as it was opened (the tree key's shas, in
  // the order of the folders and files it was made from); a new entry's, none.
  {
    module: 'function useUpsertItem(',
    from: `        const res = await fetch('/api/keystatic/update', {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'no-cors': '1'
          },
          body: JSON.stringify({
            additions: additions.map(addition_3 => ({`,
    to: `        const editorBase = {};
        if (args.baseKey !== undefined) {
          const shas = args.baseKey.split("-");
          getDirectoriesForTreeKey(object(args.schema), args.baseDirpath, args.baseSlug, args.format).forEach((path, i) => {
            editorBase[pathPrefix + path] = shas[i] || null;
          });
        }
        const res = await fetch('/api/keystatic/update', {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'no-cors': '1',
            [${header}]: JSON.stringify(editorBase)
          },
          body: JSON.stringify({
            additions: additions.map(addition_3 => ({`,
  },
  // Marked up to date as the new files arrive (in one render), so that the page takes them: even
  // when their version is the one the tab had (a refused Save resolved by taking the other
  // version, whose files the tab had followed already), since what the page shows is then the
  // marketer's values, not the files saved (its tree key in state is cleared for that).
  {
    module: 'function useUpsertItem(',
    from: `        const {
          tree: tree_0
        } = await hydrateTreeCacheWithEntries(newTree);
        setTreeSha(await treeSha(tree_0));`,
    to: `        const {
          tree: tree_0
        } = await hydrateTreeCacheWithEntries(newTree);
        const savedTreeSha = await treeSha(tree_0);
        args.onSaved?.();
        setTreeSha(savedTreeSha);`,
  },
  // A deletion names the version of the files the tab knows.
  {
    module: 'function useDeleteItem(',
    from: `            'no-cors': '1'
          },
          body: JSON.stringify({
            additions: [],`,
    to: `            'no-cors': '1',
            [${header}]: JSON.stringify(Object.fromEntries(deletions.map(path => {
              var _node;
              return [path, ((_node = getTreeNodeAtPath(unscopedTree, path)) === null || _node === void 0 ? void 0 : _node.entry.sha) ?? null];
            })))
          },
          body: JSON.stringify({
            additions: [],`,
  },
  // Drafts kept per tab as well as per entry, once the editor's tab has put its store in place
  // (Keystatic's own one draft an entry until then).
  {
    module: 'function setDraft(key, val) {',
    from: `function setDraft(key, val) {
  return set(key, val, getStore());
}
function delDraft(key) {
  return del(key, getStore());
}
function getDraft(key) {
  return get(key, getStore());
}`,
    to: `const tabDrafts = () => globalThis[Symbol.for(${JSON.stringify(TAB_DRAFTS)})];
function setDraft(key, val) {
  return tabDrafts() ? tabDrafts().set(key, val) : set(key, val, getStore());
}
function delDraft(key) {
  return tabDrafts() ? tabDrafts().del(key) : del(key, getStore());
}
function getDraft(key) {
  return tabDrafts() ? tabDrafts().get(key) : get(key, getStore());
}`,
  },
  // The tab's copy of the files, replaced by one it fetched.
  {
    module: 'function LocalAppShellProvider(',
    from: `  const [currentTreeSha, setCurrentTreeSha] = useState('initial');`,
    to: `  const [currentTreeSha, setCurrentTreeSha] = useState('initial');
  globalThis[Symbol.for(${JSON.stringify(KEYSTATIC_TREE)})] = async entries => {
    const { tree } = await hydrateTreeCacheWithEntries(entries);
    setCurrentTreeSha(await treeSha(tree));
  };`,
  },
  // What a page shows stays while its data loads again (its file changed: another tab's Save
  // followed): Keystatic's loads are set in an effect, which hid the entry behind "Loading Item"
  // for as long as its file took to come, and a Save clicked then was lost without a word. As a
  // transition, the page, its values and its Save button stay until the new data is there.
  {
    module: 'function useData(func) {',
    from: `  useEffect(() => {
    if (result_0.kind === 'result' && isThenable(result_0.result)) {
      setState({
        kind: 'loading',
        promise: result_0.result
      });`,
    to: `  useEffect(() => {
    if (result_0.kind === 'result' && isThenable(result_0.result)) {
      startTransition(() => setState({
        kind: 'loading',
        promise: result_0.result
      }));`,
  },
  // A restored draft of an entry saved since: what Save will do, not "you may want to discard".
  {
    module: 'function showDraftRestoredToast(',
    from: `children: "Other changes have been made to this entry since the draft. You may want to discard the draft changes."`,
    to: `children: "This entry was saved again after your draft. When you save, you will see both versions, field by field, and choose what to keep."`,
  },
];

/** The rolldown plugin, named for its rewrites as ./keystatic-rewrites.ts's is. */
export const keystaticSaves = {
  name: `editor:keystatic-saves-${fingerprint(JSON.stringify(saveRewrites))}`,
  transform: (code: string, id: string) => rewriteKeystatic(code, id, saveRewrites),
};
