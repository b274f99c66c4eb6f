import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Adds `client:interaction`: hydrate an island on its first use (see src/client/hydrate-on-interaction.ts). */
export default function interactionDirective(): AstroIntegration {
  return {
    name: 'client-interaction-directive',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) =>
        addClientDirective({
          name: 'interaction',
          entrypoint: fileURLToPath(
            new URL('../client/hydrate-on-interaction.ts', import.meta.url),
          ),
        }),
    },
  };
}
