import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { GatehouseClientApp } from '@gatehouse/shared/client';
import { GatehouseProvider } from '@gatehouse/account-kit';
import '@gatehouse/account-kit/styles.css';
import { loadDemoConfig } from './config';
import { DemoApp } from './demo-app';
import { ConnectProject } from './connect-project';

const config = loadDemoConfig();
const root = createRoot(document.getElementById('root')!);

if (!config.publishableClientKey) {
  root.render(<StrictMode><ConnectProject /></StrictMode>);
} else {
  const app = new GatehouseClientApp({
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    baseUrl: window.location.origin,
    tokenStore: 'cookie',
    redirectMethod: 'window',
  });
  root.render(
    <StrictMode>
      <GatehouseProvider app={app} lang={config.lang}>
        <DemoApp />
      </GatehouseProvider>
    </StrictMode>,
  );
}
