import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { getPanelApi } from './window/panel-api.ts';
import { applyTheme } from './window/theme.ts';

// The system's colours from the first frame; the operator's choice follows with the settings.
applyTheme('system');
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root, {
  // React would print each error a boundary caught, message and all; its name is enough to find it.
  onCaughtError: (error) => console.error(`A view failed to render: ${error instanceof Error ? error.name : typeof error}`),
}).render(
  <StrictMode>
    <App api={getPanelApi()} />
  </StrictMode>,
);
