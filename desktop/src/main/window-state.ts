// The window's size and position, remembered between runs; a saved position on a screen that is gone is dropped.
import type { FilesLike, Rectangle } from './ports';

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_WINDOW = { width: 1280, height: 840 };
export const MIN_WINDOW = { width: 1024, height: 640 };

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

function overlaps(a: Rectangle, b: Rectangle): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The state to open with: the saved one, sizes kept within the minimum, the position only if still on a display. */
export function restoreWindowState(files: FilesLike, displays: Rectangle[]): WindowState {
  const fallback: WindowState = { ...DEFAULT_WINDOW, maximized: false };
  const raw = files.read(WINDOW_STATE_FILE);
  if (!raw) return fallback;
  let saved: any;
  try {
    saved = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    return fallback;
  }
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : undefined);
  const width = Math.max(MIN_WINDOW.width, num(saved?.width) ?? DEFAULT_WINDOW.width);
  const height = Math.max(MIN_WINDOW.height, num(saved?.height) ?? DEFAULT_WINDOW.height);
  const state: WindowState = { width, height, maximized: saved?.maximized === true };
  const x = num(saved?.x);
  const y = num(saved?.y);
  if (x !== undefined && y !== undefined && displays.some((d) => overlaps({ x, y, width, height }, d))) {
    state.x = x;
    state.y = y;
  }
  return state;
}

export function saveWindowState(files: FilesLike, bounds: Rectangle, maximized: boolean): void {
  files.write(WINDOW_STATE_FILE, JSON.stringify({ ...bounds, maximized }));
}
