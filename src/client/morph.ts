/**
 * Makes `current` (an element of the page) read as `next` (the same element in a newer copy of the
 * page), changing only what differs: the nodes both have stay the same nodes, so that the focus
 * stays where it is and a live region says only the words that changed. Children are matched by
 * `id` where they have one (a release's item: the button focused never becomes another release's),
 * else in order, by kind.
 */
export function morph(current: Element, next: Element) {
  for (const { name } of [...current.attributes])
    if (!next.hasAttribute(name)) current.removeAttribute(name);
  for (const { name, value } of [...next.attributes])
    if (current.getAttribute(name) !== value) current.setAttribute(name, value);
  const olds = [...current.childNodes];
  const used = new Set<ChildNode>();
  const idOf = (node: Node) => (node instanceof Element ? node.id : '');
  const children = [...next.childNodes].map((node) => {
    const old = olds.find(
      (candidate) =>
        !used.has(candidate) &&
        candidate.nodeName === node.nodeName &&
        idOf(candidate) === idOf(node),
    );
    if (!old) return node;
    used.add(old);
    if (old instanceof Element) morph(old, node as Element);
    else if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
    return old;
  });
  for (const old of olds) if (!used.has(old)) old.remove();
  // Only what is new is inserted: a node kept is not moved (a move would drop its focus).
  children.forEach((node, at) => {
    if (current.childNodes[at] !== node) current.insertBefore(node, current.childNodes[at] ?? null);
  });
}
