/**
 * The closures section (part 2 §2 Closures): /dashboard/closures (the list), /new, /{closureId}
 * and /{closureId}/edit, beside the map; /wzdx-feeds, the WZDx feed subscriptions (beyond the spec). The section reads the live worker's closures once and
 * shares them with its pages (closures-context.ts), and draws them on the map while any of its
 * pages is open. New and edit are available on a phone (part 2 §2 "Closures new/edit are available
 * on mobile and use separate mobile permissions").
 */
import { Route, Routes } from 'react-router-dom';
import { ClosureDetail } from './closure-detail';
import { ClosureEdit, ClosureNew } from './closure-edit';
import { ClosuresProvider } from './closures-context';
import { ClosuresList } from './closures-list';
import { useClosuresOverlay } from './use-closures-overlay';
import { WzdxFeedsPage } from './wzdx-feeds-page';
import './closures.css';

function ClosuresMap() {
  useClosuresOverlay();
  return null;
}

export function ClosuresSection() {
  return (
    <ClosuresProvider>
      <ClosuresMap />
      <Routes>
        <Route index element={<ClosuresList />} />
        <Route path="new" element={<ClosureNew />} />
        <Route path="wzdx-feeds" element={<WzdxFeedsPage />} />
        <Route path=":closureId" element={<ClosureDetail />} />
        <Route path=":closureId/edit" element={<ClosureEdit />} />
      </Routes>
    </ClosuresProvider>
  );
}
