import type { InteractionOptions } from './client/hydrate-on-interaction';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the first pointer, touch, focus or key event on the island (or on `triggers`). */
    'client:interaction'?: boolean | InteractionOptions;
  }
}

declare global {
  /** RECAPTCHA_SITE_KEY at build time, or '' (astro.config.mjs). */
  const __RECAPTCHA_SITE_KEY__: string;
  /** Whether pages measure and send field data: false when built with VITALS=off (astro.config.mjs). */
  const __VITALS__: boolean;

  namespace App {
    interface Locals {
      /** A POST as the gate (src/middleware.ts) let it through, or its refusal. */
      post?: import('./server/requests/post-gate').PostVerdict;
      /** The server's services (src/server/app.ts), which the middleware hands every on-demand route. */
      app: import('./server/app').App;
      /** A refusal of a member's, for src/pages/staff/refused.astro to show (src/server/staff/refused.ts). */
      refused?: import('./server/staff/refused').RefusedPage;
    }
  }
}
