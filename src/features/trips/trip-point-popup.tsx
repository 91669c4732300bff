/**
 * A run point's popup (part 2 §3 Trip points: lat, lng, course, speed, timestamp): the asset, the
 * time, the course (degrees and compass point, part 2 §9 headings) and the speed, pinned over the
 * point while it is in view.
 */
import type { MapState } from '../../app/map/map-state';
import { Fact, PinnedPopupAnchor, PopupFrame } from '../../app/map/overlay-popup';
import { courseToCompass } from '../../domain/heading';
import { TRIPS_TEXT } from '../../domain/labels';
import { formatDateTime } from '../../domain/time';
import type { TripPointMarker } from '../../map/layers/trips-layer';

export interface TripPointPopupProps {
  map: MapState;
  marker: TripPointMarker;
  name: string;
  timeZone: string | null;
  onClose(): void;
}

export function TripPointPopup({ map, marker, name, timeZone, onClose }: TripPointPopupProps) {
  const { point } = marker;
  const compass = courseToCompass(point.course);
  return (
    <PinnedPopupAnchor map={map} lng={point.lng} lat={point.lat}>
      <PopupFrame title={name} onClose={onClose} testId="trip-point-popup">
        <Fact label={TRIPS_TEXT.pointTime}>{formatDateTime(point.timestamp, timeZone)}</Fact>
        <Fact label={TRIPS_TEXT.pointCourse}>{compass ? `${Math.round(point.course)}° ${compass}` : `${Math.round(point.course)}°`}</Fact>
        <Fact label={TRIPS_TEXT.pointSpeed}>{`${Math.round(point.speed)} mph`}</Fact>
      </PopupFrame>
    </PinnedPopupAnchor>
  );
}
