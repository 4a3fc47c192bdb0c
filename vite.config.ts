import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web app lives in src/web and builds to dist/web, which the server serves.
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    port: Number(process.env.PORT ?? 5000),
    strictPort: true,
    proxy: {
      '/api': `http://127.0.0.1:${process.env.API_PORT ?? 5001}`,
      '/uploads': `http://127.0.0.1:${process.env.API_PORT ?? 5001}`,
      '/ws': { target: `ws://127.0.0.1:${process.env.API_PORT ?? 5001}`, ws: true },
    },
  },
});
