/**
 * The closures on the dashboard map from any section, by the layers control (docs/map.md
 * "Layers"): those in effect and those scheduled (`closureMapGroup`), with the section's layers
 * (paths coloured by status, start and end markers, arrows), read from the live worker's one copy
 * (`useClosures`). Hovering a closure shows its summary; a click pins it (map state `popup`: a
 * click on empty map or Escape closes it) with a link to the closure's page.
 */
import { useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { LAYER_OVERLAY_KEYS, type ClosuresMapLayerProps } from '../../app/map/layer-overlays';
import { Fact, PinnedPopupAnchor, PopupFrame } from '../../app/map/overlay-popup';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import { itemHref } from '../../app/section/item-href';
import { closureSecondaryLabel, type Closure } from '../../domain/closure';
import { CLOSURE_TEXT, MAP_LAYERS_TEXT } from '../../domain/labels';
import { closureMapGroup } from '../../domain/map-layers';
import { formatDateTime } from '../../domain/time';
import { closuresLayers } from '../../map/layers/closures-layer';
import { useClosures } from './use-closures';

interface Hover {
  id: string;
  x: number;
  y: number;
}

/** A closure's summary (status, type, streets, times) with a link to its page. */
export function ClosurePopup({ closure, timeZone, onClose }: { closure: Closure; timeZone: string | null; onClose?: () => void }) {
  return (
    <PopupFrame
      title={closure.description || CLOSURE_TEXT.singular}
      onClose={onClose}
      testId="closure-popup"
      link={{ href: itemHref('closures', closure.id), label: MAP_LAYERS_TEXT.openClosure }}
    >
      <Fact label={CLOSURE_TEXT.status}>{CLOSURE_TEXT.statuses[closure.status]}</Fact>
      <Fact label={CLOSURE_TEXT.closureType}>{closureSecondaryLabel(closure)}</Fact>
      {closure.streetStart ? <Fact label={CLOSURE_TEXT.streetStart}>{closure.streetStart}</Fact> : null}
      {closure.streetEnd ? <Fact label={CLOSURE_TEXT.streetEnd}>{closure.streetEnd}</Fact> : null}
      {closure.startTime !== null ? <Fact label={CLOSURE_TEXT.startTime}>{formatDateTime(closure.startTime, timeZone)}</Fact> : null}
      {closure.endTime !== null ? <Fact label={CLOSURE_TEXT.endTime}>{formatDateTime(closure.endTime, timeZone)}</Fact> : null}
    </PopupFrame>
  );
}

/** Where a pinned closure popup stands: the middle point of its path. */
function closureAnchor(closure: Closure): { lng: number; lat: number } | null {
  return closure.routePath[Math.floor(closure.routePath.length / 2)] ?? null;
}

export function ClosuresMapLayer({ map, active, scheduled, timeZone }: ClosuresMapLayerProps) {
  const { closures } = useClosures();
  const popup = useSnapshot(map).popup;
  const [hover, setHover] = useState<Hover | null>(null);
  const shown = useMemo(() => {
    const now = Date.now();
    return closures.filter((closure) => {
      const group = closureMapGroup(closure, now);
      return (group === 'active' && active) || (group === 'scheduled' && scheduled);
    });
  }, [closures, active, scheduled]);
  const pinned = popup?.kind === 'closure' ? (shown.find((closure) => closure.id === popup.id) ?? null) : null;
  const hovered = hover && hover.id !== pinned?.id ? (shown.find((closure) => closure.id === hover.id) ?? null) : null;
  const layers = useMemo(
    () =>
      closuresLayers({
        closures: shown,
        targetId: null,
        onHover: setHover,
        onClick: (id) => {
          const closure = shown.find((candidate) => candidate.id === id);
          const at = closure ? closureAnchor(closure) : null;
          if (!at) return false;
          setHover(null);
          map.popup = { kind: 'closure', id, longitude: at.lng, latitude: at.lat };
          return true;
        },
      }),
    [shown, map],
  );
  const overlay = useMemo(
    () => ({
      ...layers,
      children: (
        <>
          {hovered && hover ? (
            <div className="overlay-popup-anchor" style={{ left: hover.x, top: hover.y }}>
              <ClosurePopup closure={hovered} timeZone={timeZone} />
            </div>
          ) : null}
          {pinned && popup ? (
            <PinnedPopupAnchor map={map} lng={popup.longitude} lat={popup.latitude}>
              <ClosurePopup
                closure={pinned}
                timeZone={timeZone}
                onClose={() => {
                  map.popup = null;
                }}
              />
            </PinnedPopupAnchor>
          ) : null}
        </>
      ),
    }),
    [layers, hovered, hover, pinned, popup, map, timeZone],
  );
  useMapOverlay(map, LAYER_OVERLAY_KEYS.closures, overlay);
  return null;
}
