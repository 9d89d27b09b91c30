import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { stripBlueprintIconFont } from './strip-icon-font.ts';

const apiServer = 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // One React for every package (the root package.json also overrides Blueprint's dependencies'
    // React 18 ranges to 19): two copies would break hooks across them.
    dedupe: ['react', 'react-dom'],
  },
  css: { postcss: { plugins: [stripBlueprintIconFont] } },
  server: {
    proxy: {
      '/api': apiServer,
      '/health': apiServer,
    },
  },
  preview: {
    proxy: {
      '/api': apiServer,
      '/health': apiServer,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The entry chunk (React, Blueprint, router, react-query, zod) is about 550 KB raw, 175 KB
    // gzipped, inside the 350 KB gzipped budget of DESIGN §8; pages are split off with React.lazy.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The building blocks pages share (tables, cells, lists, Blueprint's components): one
            // chunk fetched with the first page instead of a dozen small ones one round trip later.
            {
              name: 'shared',
              test: /[\\/]web[\\/]src[\\/](ui|merchants|forms)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
