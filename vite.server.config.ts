import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server bundle: Node 20 cannot run .ts, so `npm start` runs this build. Dependencies other than React stay external.
export default defineConfig({
  plugins: [react()],
  publicDir: false,
  // React is bundled so its production build is chosen here, at build time: left external, it would pick its
  // development build at run time whenever NODE_ENV is unset (as under `npm start`), rendering pages ~3× slower.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: ['react', 'react-dom', 'scheduler'] },
  build: {
    ssr: true,
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: {
      input: {
        main: 'src/server/main.ts',
        // A worker thread's file: SearchService reads a big import's documents on it (DocumentReadThread).
        'search-read-worker': 'src/server/search/documentReadWorker.ts',
        import: 'src/server/cli/importCli.ts',
        bench: 'bench/entries/benchApp.ts',
        report: 'src/server/cli/reportCli.ts',
        reindex: 'src/server/cli/reindexCli.ts',
        'owner-password': 'src/server/cli/ownerPasswordCli.ts',
        owner: 'src/server/cli/ownerCli.ts',
        'seed-bench': 'src/server/cli/seedBenchCli.ts',
        'search-bench': 'bench/entries/searchBenchEntry.ts',
        'live-import-bench': 'bench/entries/liveImportEntry.ts',
        'search-rebuild': 'bench/entries/searchRebuildEntry.ts',
      },
      // The islands' lazy imports (the checkout's billing checks, loaded on first focus) split the browser's bundle;
      // on the server the same module is already imported eagerly, so "ineffective" is expected here, not a defect.
      onwarn(warning, warn) {
        if (warning.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') warn(warning);
      },
      // Keep the bench entries' exports: nothing imports them inside the bundle.
      preserveEntrySignatures: 'exports-only',
      output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
