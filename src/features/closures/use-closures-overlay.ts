/**
 * The closures on the dashboard map while a closures page is open (part 2 §2): paths coloured by
 * status, start and end markers, direction arrows; a click opens the closure's detail. The closure
 * the page targets (map state `target`) is outlined. A closure being edited is left off (the form
 * draws its own path).
 */
import { useMemo } from 'react';
import { useMatch, useNavigate, useOutletContext } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import { itemHref } from '../../app/section/item-href';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { closuresLayers } from '../../map/layers/closures-layer';
import { useClosuresData } from './closures-context';

export function useClosuresOverlay(): void {
  const { map } = useOutletContext<ShellContext>();
  const { closures } = useClosuresData();
  const navigate = useNavigate();
  const editing = useMatch('/dashboard/closures/:closureId/edit')?.params.closureId ?? null;
  const target = useSnapshot(map).target;
  const targetId = target?.kind === 'closure' ? target.id : null;
  const overlay = useMemo(() => {
    const shown = editing ? closures.filter((c) => c.id !== editing) : closures;
    return closuresLayers({
      closures: shown,
      targetId,
      onClick: (id) => {
        navigate(itemHref('closures', id));
        return true;
      },
    });
  }, [closures, editing, targetId, navigate]);
  useMapOverlay(map, 'closures', overlay);
}
