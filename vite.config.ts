import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The browser bundle: one small entry that hydrates the islands present on a page, each island its own chunk.
export default defineConfig({
  plugins: [react()],
  base: '/static/',
  publicDir: false,
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    rollupOptions: { input: 'src/client/entry.tsx' },
  },
});
