import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@gatehouse/account-kit/styles.css';
// After the account kit's sheet: it brings Mantine's base component styles again, which would undo the palette's.
import '@mantine/spotlight/styles.css';
import { ConsoleApp } from './console-app';
import { detectPlatform } from './platform';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConsoleApp platform={detectPlatform()} />
  </StrictMode>,
);
