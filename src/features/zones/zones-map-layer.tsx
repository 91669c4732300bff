/**
 * The alerting zones on the dashboard map from any section, by the layers control (docs/map.md
 * "Layers"): every zone of the organization shown, outlined in its status colour (active or
 * standby), from the section's query (`useZonesQuery`, asked again every ZONES_POLL_MS). Hovering
 * a zone shows the section's popup; a click pins it (map state `popup`: a click on empty map or
 * Escape closes it), with a link to the zones page.
 */
import { useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { LAYER_OVERLAY_KEYS, type MapLayerProps } from '../../app/map/layer-overlays';
import { PinnedPopupAnchor } from '../../app/map/overlay-popup';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import type { AlertingZone } from '../../domain/alerting-zone';
import { MAP_LAYERS_TEXT } from '../../domain/labels';
import { sectionHref } from '../../domain/permissions';
import { zonesLayers, type ZonePick } from '../../map/layers/zones-layer';
import { useZonesQuery } from './calls';
import { ZonePopup } from './zones-page';

const NO_ZONES: AlertingZone[] = [];
const ZONES_LINK = { href: sectionHref('zones'), label: MAP_LAYERS_TEXT.openZones };

export function ZonesMapLayer({ map, organizationId }: MapLayerProps) {
  const zones = useZonesQuery(organizationId).data ?? NO_ZONES;
  const popup = useSnapshot(map).popup;
  const [hover, setHover] = useState<ZonePick | null>(null);
  const layers = useMemo(
    () =>
      zonesLayers({
        zones,
        onHover: setHover,
        onClick: (pick) => {
          setHover(null);
          map.popup = { kind: 'zone', id: pick.id, longitude: pick.lng, latitude: pick.lat };
        },
      }),
    [zones, map],
  );
  const pinned = popup?.kind === 'zone' ? (zones.find((zone) => zone.id === popup.id) ?? null) : null;
  const hovered = hover && hover.id !== pinned?.id ? (zones.find((zone) => zone.id === hover.id) ?? null) : null;
  const overlay = useMemo(
    () => ({
      under: layers,
      children: (
        <>
          {hovered && hover ? (
            <div className="overlay-popup-anchor" style={{ left: hover.x, top: hover.y }}>
              <ZonePopup zone={hovered} link={ZONES_LINK} />
            </div>
          ) : null}
          {pinned && popup ? (
            <PinnedPopupAnchor map={map} lng={popup.longitude} lat={popup.latitude}>
              <ZonePopup
                zone={pinned}
                link={ZONES_LINK}
                onClose={() => {
                  map.popup = null;
                }}
              />
            </PinnedPopupAnchor>
          ) : null}
        </>
      ),
    }),
    [layers, hovered, hover, pinned, popup, map],
  );
  useMapOverlay(map, LAYER_OVERLAY_KEYS.zones, overlay);
  return null;
}
