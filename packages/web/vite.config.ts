import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { markdownTree } from './build/markdown.ts';
import { precompress } from './build/precompress.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig(({ mode }) => {
  // The API server (packages/server) listens on 3000 in development; RATELENS_API_URL points the
  // proxy elsewhere (a second server on another port, say).
  const apiServer = loadEnv(mode, root, '').RATELENS_API_URL || 'http://localhost:3000';
  const proxy = {
    '/api': { target: apiServer },
    '/dev': { target: apiServer },
  };

  return {
    root,
    plugins: [react(), markdownTree(), precompress()],
    build: {
      outDir: fileURLToPath(new URL('./dist', import.meta.url)),
      emptyOutDir: true,
    },
    server: { proxy },
    preview: { proxy },
  };
});
