/**
 * How the History's endpoint (./route.ts) answers with a page: an Astro component of ./pages/,
 * rendered whole with Astro's container, never kept by the browser.
 */
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import type { ComponentProps } from 'astro/types';
import NotFound from './pages/NotFound.astro';

let container: Promise<AstroContainer> | undefined;

/** A History page as the answer: one of ./pages/, never kept by the browser. */
export async function page<Page extends (props: any) => unknown>(
  component: Page,
  props: ComponentProps<Page>,
  status = 200,
) {
  container ??= AstroContainer.create();
  const renderer = await container;
  // A whole page (its doctype included), not a part of one.
  const html = await renderer.renderToString(component as never, { props, partial: false });
  return new Response(html, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

export const notFound = () => page(NotFound, {}, 404);
