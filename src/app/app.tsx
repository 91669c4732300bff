import { useEffect, useState } from 'react';
import { PRODUCT_NAME } from '../domain/constants';

/** The app's root. The shell, sign-in and sections arrive with their issues; this page proves the build. */
export function App() {
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetch('/version')
      .then((response) => (response.ok ? (response.json() as Promise<{ version: string }>) : null))
      .then((body) => {
        if (live && body) setVersion(body.version);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 32 }}>
      <h1>{PRODUCT_NAME}</h1>
      <p>Live map dashboard for fleets with alerting lights.</p>
      {version && <p data-testid="server-version">Server version {version}</p>}
    </main>
  );
}
