import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { ServicesContext, type AppServices } from './services';
import { appRoutes } from './router';

/** The app's root: the services (made once), their query client and the browser router. */
export function App({ services }: { services: AppServices }) {
  const [router] = useState(() => createBrowserRouter(appRoutes));
  return (
    <ServicesContext.Provider value={services}>
      <QueryClientProvider client={services.queries}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ServicesContext.Provider>
  );
}
