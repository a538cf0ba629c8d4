// Preload (sandboxed, CommonJS): exposes only the console bridge to the page, never ipcRenderer itself.
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge';

contextBridge.exposeInMainWorld('gatehouseConsole', createBridge((channel, ...args) => ipcRenderer.invoke(channel, ...args)));
