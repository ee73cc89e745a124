// Vite's configuration for the operator console (scripts/build-console.js runs it; `npm run build` builds it).
// Served by the server at /app/ (apps/api/src/console/): asset URLs start there, and assets/ holds only hashed
// file names, which the server answers with a year-long immutable cache.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/app/',
  // No public/ folder: everything the page loads is built and hashed.
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../../dist/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // Inline assets would need data: URLs in the CSP; everything is a file of its own.
    assetsInlineLimit: 0,
    // No <link rel=modulepreload> polyfill: it is an inline script, which the console's CSP refuses.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // React Query marks its modules "use client" (for React Server Components): meaningless in a browser bundle.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
});
