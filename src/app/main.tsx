import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createLiveBridge } from './live/bridge';
import { createAppServices } from './services';
import { hasWebGL } from './shell/notices';
import './app.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const services = createAppServices({
  createBridge: (onUnauthorized) => createLiveBridge({ onUnauthorized }),
  hasWebGL,
});
services.session.start();
createRoot(container).render(
  <StrictMode>
    <App services={services} />
  </StrictMode>,
);
