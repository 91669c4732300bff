/**
 * part 2 §2 "Unavailable on mobile: areas new/edit, zones, trips, R2R, hazards, exports and
 * accounts. The message is 'This page isn't available on mobile devices.'": a route whose page a
 * phone may not open wraps its element in DesktopOnly (a whole section says so in SECTIONS'
 * `onMobile`, which the shell checks).
 */
import type { ReactNode } from 'react';
import { MobileUnavailablePage } from '../pages/status-pages';
import { useIsMobile } from '../shell/use-media';

export function DesktopOnly({ children }: { children: ReactNode }) {
  return useIsMobile() ? <MobileUnavailablePage /> : <>{children}</>;
}
