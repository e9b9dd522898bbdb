import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server bundle: Node 20 cannot run .ts, so `npm start` runs this build. Dependencies stay external.
export default defineConfig({
  plugins: [react()],
  publicDir: false,
  build: {
    ssr: true,
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: {
      input: {
        main: 'src/server/main.ts',
        import: 'src/server/cli/importCli.ts',
        report: 'src/server/cli/reportCli.ts',
        bench: 'src/server/benchApp.ts',
      },
      // Keep the bench entry's exports: nothing imports it inside the bundle.
      preserveEntrySignatures: 'exports-only',
      output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
