// One console at a time: a second start focuses the running window and quits.
export interface AppLike {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: 'second-instance', listener: () => void): void;
}

export interface FocusableWindow {
  isMinimized(): boolean;
  restore(): void;
  focus(): void;
}

/** True when this process is the one to run; otherwise it has asked to quit. */
export function claimSingleInstance(app: AppLike, currentWindow: () => FocusableWindow | null): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => {
    const win = currentWindow();
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  return true;
}
