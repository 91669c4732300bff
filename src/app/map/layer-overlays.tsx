/**
 * The layers control's overlays on the dashboard map, from any section (docs/map.md "Layers"):
 * the closures in effect and the scheduled ones (part 2 §2 Closures), the alerting zones (part 2
 * §2 Alerting zones, active or standby) and the hazards of the last 24 hours (part 2 §2 Hazards,
 * by severity). Each section draws its own items, with its own data hook, layers and popup: its
 * feature module's map layer (`MapLayerContent`), which the router hands the map (the one module of
 * src/app that imports features, as it does the section pages, docs/architecture.md "Layers").
 * A map layer shows on the map the sections' way (`useMapOverlay`, under its LAYER_OVERLAY_KEYS
 * key, its layer ids its section's own).
 *
 * A layer is mounted — and so fetched — only while it is on and the user may open its section
 * (`allowedMapLayers`); while that section's page draws its own (map state `sections`), the
 * control's copy is taken off, so nothing is drawn twice.
 */
import { createContext, Suspense, useContext, type ComponentType } from 'react';
import { useSnapshot } from 'valtio';
import { allowedMapLayers } from '../../domain/map-layers';
import { useLiveValue } from '../live/hooks';
import { useServices } from '../services';
import type { DashboardMapProps } from './dashboard-map-props';
import type { MapState } from './map-state';

/** The keys the control's overlays are shown under (`showOnMap`), apart from their sections' own. */
export const LAYER_OVERLAY_KEYS = { closures: 'layers-closures', zones: 'layers-zones', hazards: 'layers-hazards' } as const;

/** What every map layer is given. */
export interface MapLayerProps {
  map: MapState;
  /** The organization shown (the live store's); null before the live session starts. */
  organizationId: string | null;
  /** The signed-in user's own organization. */
  ownOrganizationId: string;
  /** The user's time zone (the profile's), for the popups' times. */
  timeZone: string | null;
}

export interface ClosuresMapLayerProps extends MapLayerProps {
  /** Draw the closures in effect. */
  active: boolean;
  /** Draw the closures whose scheduled start is ahead. */
  scheduled: boolean;
}

/** The sections' map layers; a missing one is never drawn. */
export interface MapLayerContent {
  closures?: ComponentType<ClosuresMapLayerProps>;
  zones?: ComponentType<MapLayerProps>;
  hazards?: ComponentType<MapLayerProps>;
}

export const MapLayerContentContext = createContext<MapLayerContent>({});

/** The overlays the layers control has on, that the user may see, and whose section's page does not draw them now. */
export function LayerOverlays({ map }: DashboardMapProps) {
  const content = useContext(MapLayerContentContext);
  const { display, sections } = useSnapshot(map);
  const { profile } = useSnapshot(useServices().session.state);
  const organizationId = useLiveValue((store) => store.organizationId);
  if (!profile) return null;
  const shown = allowedMapLayers(display, profile.permissions);
  const common: MapLayerProps = { map, organizationId, ownOrganizationId: profile.organizationId, timeZone: profile.timezone };
  const sectionDraws = (key: string) => key in sections;
  const { closures: Closures, zones: Zones, hazards: Hazards } = content;
  return (
    <>
      {Closures && (shown.closuresActive || shown.closuresScheduled) && !sectionDraws('closures') ? (
        <Suspense fallback={null}>
          <Closures {...common} active={shown.closuresActive} scheduled={shown.closuresScheduled} />
        </Suspense>
      ) : null}
      {Zones && shown.zones && !sectionDraws('zones') ? (
        <Suspense fallback={null}>
          <Zones {...common} />
        </Suspense>
      ) : null}
      {Hazards && shown.hazards && !sectionDraws('hazards') ? (
        <Suspense fallback={null}>
          <Hazards {...common} />
        </Suspense>
      ) : null}
    </>
  );
}
