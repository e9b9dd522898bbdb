import { existsSync, readFileSync } from 'node:fs';
import { projectPath } from '../projectPath';

export interface ClientAssets {
  scripts: string[];
  styles: string[];
  preloads: string[];
}

export const CLIENT_BUILD_DIR = projectPath('dist/client');
export const CLIENT_BASE = '/static/';

/** Reads the client build's manifest for the entry's script, CSS and the chunks to preload. */
export function readClientAssets(dir = CLIENT_BUILD_DIR): ClientAssets {
  const manifestPath = `${dir}/.vite/manifest.json`;
  if (!existsSync(manifestPath)) return { scripts: [], styles: [], preloads: [] };
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<
    string,
    { file: string; css?: string[]; imports?: string[]; isEntry?: boolean }
  >;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) return { scripts: [], styles: [], preloads: [] };
  return {
    scripts: [CLIENT_BASE + entry.file],
    styles: (entry.css ?? []).map((file) => CLIENT_BASE + file),
    preloads: (entry.imports ?? []).map((key) => CLIENT_BASE + (manifest[key]?.file ?? key)),
  };
}
