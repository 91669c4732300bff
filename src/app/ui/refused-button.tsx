/**
 * part 2 §6 "Tooltip when not allowed: 'Not authorized'": a control the user may not use, shown
 * disabled with that tooltip rather than left out (the section kit's add, Edit and Delete; Create New).
 */
import type { ReactNode } from 'react';
import { TOOLTIP } from '../../domain/labels';

export function RefusedButton({ className, children }: { className: string; children: ReactNode }) {
  return (
    <button type="button" className={className} disabled title={TOOLTIP.notAuthorized}>
      {children}
    </button>
  );
}
