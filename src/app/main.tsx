import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { preloadSectionOf } from './router';
import { createLiveBridge } from './live/bridge';
import { createAppServices } from './services';
import { hasWebGL } from './shell/notices';
import './app.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const services = createAppServices({
  createBridge: (onUnauthorized) => {
    const bridge = createLiveBridge({ onUnauthorized });
    // The application bench reads the dashboard through it (bench/README.md "Application bench").
    window.lightbarMeasure = bridge.measures;
    return bridge;
  },
  hasWebGL,
});
services.session.start();
// A page load of a dashboard URL while signed in: the live worker and the section's chunk load
// beside the profile, not after it (the drawer and the map wait for both).
if (services.session.state.status === 'signedIn') {
  services.live.prepare();
  preloadSectionOf(location.pathname);
}
createRoot(container).render(
  <StrictMode>
    <App services={services} />
  </StrictMode>,
);
