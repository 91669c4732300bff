/**
 * The contents of the map's event and area popups (part 1 §2
 * Map). An event popup: name, street, start time, active and inactive vehicle counts, Active or
 * Ended. An area popup: name, type and the number of assets inside. Pinned popups have a close button.
 * The frame, its facts, its link and the pinned anchor serve the sections' popups too (a trip point,
 * a hazard, the layers control's closures and zones).
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { Area } from '../../domain/area';
import { MAP_POPUP_TEXT } from '../../domain/labels';
import type { Location } from '../../domain/location';
import { formatDateTime } from '../../domain/time';
import type { MapState } from './map-state';
import { popupAnchor } from './popup-anchor';
import './overlay-popups.css';

interface PopupFrameProps {
  title: string;
  /** Pinned popups are dialogs with a close button; hover popups are tooltips. */
  onClose?: (() => void) | undefined;
  testId: string;
  children: ReactNode;
  /** A link to the item's page under its facts (the layers control's popups, docs/map.md "Layers"). */
  link?: PopupLink | undefined;
}

export interface PopupLink {
  href: string;
  label: string;
}

export function PopupFrame({ title, onClose, testId, children, link }: PopupFrameProps) {
  return (
    <div className="overlay-popup" role={onClose ? 'dialog' : 'tooltip'} aria-label={title} data-testid={testId}>
      <div className="overlay-popup-head">
        <strong className="overlay-popup-title">{title}</strong>
        {onClose ? (
          <button type="button" className="overlay-popup-close" aria-label={MAP_POPUP_TEXT.close} onClick={onClose}>
            ×
          </button>
        ) : null}
      </div>
      <dl className="overlay-popup-facts">{children}</dl>
      {link ? (
        <Link className="overlay-popup-link" to={link.href}>
          {link.label}
        </Link>
      ) : null}
    </div>
  );
}

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="overlay-popup-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A pinned popup over a place of the map, drawn while the place is in view. */
export function PinnedPopupAnchor({ map, lng, lat, children }: { map: MapState; lng: number; lat: number; children: ReactNode }) {
  const bounds = useSnapshot(map.view).bounds as MapState['view']['bounds'];
  const anchor = popupAnchor(bounds, lng, lat);
  if (!anchor) return null;
  return (
    <div className="overlay-popup-anchor overlay-popup-anchor-pinned" style={{ left: `${anchor.x * 100}%`, top: `${anchor.y * 100}%` }}>
      {children}
    </div>
  );
}

export interface EventPopupProps {
  event: Location;
  /** IANA zone the times are written in (the runtime's when absent). */
  timeZone?: string | undefined;
  onClose?: (() => void) | undefined;
}

export function EventPopup({ event, timeZone, onClose }: EventPopupProps) {
  const state = event.isActive ? MAP_POPUP_TEXT.eventActive : MAP_POPUP_TEXT.eventEnded;
  return (
    <PopupFrame title={event.displayName} onClose={onClose} testId="event-popup">
      <p className={event.isActive ? 'overlay-popup-state overlay-popup-state-active' : 'overlay-popup-state'}>{state}</p>
      {event.street ? <Fact label={MAP_POPUP_TEXT.street}>{event.street}</Fact> : null}
      {event.startTime !== null ? <Fact label={MAP_POPUP_TEXT.start}>{formatDateTime(event.startTime, timeZone)}</Fact> : null}
      <Fact label={MAP_POPUP_TEXT.activeVehicles}>{event.thingsActive.length}</Fact>
      <Fact label={MAP_POPUP_TEXT.inactiveVehicles}>{event.thingsInactive.length}</Fact>
    </PopupFrame>
  );
}

export interface AreaPopupProps {
  area: Area;
  /** Assets inside, null before the first count. */
  count: number | null;
  onClose?: (() => void) | undefined;
}

export function AreaPopup({ area, count, onClose }: AreaPopupProps) {
  return (
    <PopupFrame title={area.displayName} onClose={onClose} testId="area-popup">
      <Fact label={MAP_POPUP_TEXT.areaType}>{area.ezTypeName}</Fact>
      <Fact label={MAP_POPUP_TEXT.areaAssets}>{count === null ? MAP_POPUP_TEXT.counting : count}</Fact>
    </PopupFrame>
  );
}
