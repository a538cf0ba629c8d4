import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@gatehouse/account-kit/styles.css';
import { ConsoleApp } from './console-app';
import { detectPlatform } from './platform';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConsoleApp platform={detectPlatform()} />
  </StrictMode>,
);
