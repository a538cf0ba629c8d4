// Preload (sandboxed, CommonJS): exposes only the console bridge to the page, never ipcRenderer itself.
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge';

contextBridge.exposeInMainWorld('gatehouseConsole', createBridge(
  (channel, ...args) => ipcRenderer.invoke(channel, ...args),
  (event, listener) => {
    const onEvent = (_event: unknown, ...args: unknown[]) => listener(...args);
    ipcRenderer.on(event, onEvent);
    return () => void ipcRenderer.removeListener(event, onEvent);
  },
));
