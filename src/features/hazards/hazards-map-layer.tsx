/**
 * The recent hazards on the dashboard map from any section, by the layers control (docs/map.md
 * "Layers"): the hazard report's call for every type and severity over the last
 * MAP_HAZARDS_RANGE_MS, asked again every MAP_HAZARDS_POLL_MS, drawn as the section draws them
 * (dots coloured by severity, a heatmap zoomed out). A click on a hazard pins the section's popup
 * (map state `popup`: a click on empty map or Escape closes it), with a link to the hazard report.
 */
import { useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { LAYER_OVERLAY_KEYS, type MapLayerProps } from '../../app/map/layer-overlays';
import { useMapOverlay } from '../../app/map/use-map-overlay';
import { queryKey } from '../../app/query-cache';
import { organizationChoice } from '../../app/shell/shell-model';
import { useApiQuery } from '../../app/use-api-query';
import { HAZARD_SEVERITIES } from '../../domain/constants';
import type { HazardWire } from '../../domain/hazard';
import { MAP_LAYERS_TEXT } from '../../domain/labels';
import { MAP_HAZARDS_RANGE_MS } from '../../domain/map-layers';
import { sectionHref } from '../../domain/permissions';
import { floorToMinute } from '../../domain/time';
import { hazardLayers, hazardsAsHeatmap } from '../../map/layers/hazards-layer';
import { useHazardCalls } from './calls';
import { HazardPopup } from './hazards-page';

/** chosen: how often the map asks for the recent hazards again while their layer is on. */
export const MAP_HAZARDS_POLL_MS = 60_000;

const NO_HAZARDS: HazardWire[] = [];
const HAZARDS_LINK = { href: sectionHref('hazards'), label: MAP_LAYERS_TEXT.openHazards };

export function HazardsMapLayer({ map, organizationId, ownOrganizationId, timeZone }: MapLayerProps) {
  const calls = useHazardCalls();
  const answer = useApiQuery({
    key: queryKey('hazards', organizationId, 'map'),
    load: () => {
      const endTime = floorToMinute(Date.now());
      return calls.report({
        orgIds: organizationChoice(organizationId!, ownOrganizationId).orgIds,
        allTypes: true,
        types: [],
        severities: [...HAZARD_SEVERITIES],
        startTime: endTime - MAP_HAZARDS_RANGE_MS,
        endTime,
      });
    },
    enabled: organizationId !== null,
    pollMs: MAP_HAZARDS_POLL_MS,
  });
  const hazards = answer.data?.hazards ?? NO_HAZARDS;
  const popup = useSnapshot(map).popup;
  // The layers change only when the zoom crosses the heatmap's threshold (as on the hazards page).
  const heatmap = hazardsAsHeatmap(useSnapshot(map.view).zoom);
  const layers = useMemo(
    () =>
      hazardLayers(hazards, heatmap, (hazard) => {
        map.popup = { kind: 'hazard', id: hazard.id, longitude: hazard.lng, latitude: hazard.lat };
      }),
    [hazards, heatmap, map],
  );
  const pinned = popup?.kind === 'hazard' ? (hazards.find((hazard) => hazard.id === popup.id) ?? null) : null;
  const overlay = useMemo(
    () => ({
      under: layers,
      children: pinned ? (
        <HazardPopup
          map={map}
          hazard={pinned}
          timeZone={timeZone}
          link={HAZARDS_LINK}
          onClose={() => {
            map.popup = null;
          }}
        />
      ) : null,
    }),
    [layers, pinned, map, timeZone],
  );
  useMapOverlay(map, LAYER_OVERLAY_KEYS.hazards, overlay);
  return null;
}
