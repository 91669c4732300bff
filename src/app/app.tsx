import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { useState } from 'react';
import { ServicesContext, type AppServices } from './services';
import { appRoutes } from './router';

/** The app's root: the services (made once) and the browser router. */
export function App({ services }: { services: AppServices }) {
  const [router] = useState(() => createBrowserRouter(appRoutes));
  return (
    <ServicesContext.Provider value={services}>
      <RouterProvider router={router} />
    </ServicesContext.Provider>
  );
}
