/** part 1 §2 Map: the zoom control that replaces the provider's own (+ and −). */
import { MAP_CONTROL_TEXT } from '../../domain/labels';

export interface ZoomControlProps {
  onZoomIn: () => void;
  onZoomOut: () => void;
  canZoomIn?: boolean;
  canZoomOut?: boolean;
}

export function ZoomControl({ onZoomIn, onZoomOut, canZoomIn = true, canZoomOut = true }: ZoomControlProps) {
  return (
    <div className="map-button-group">
      <button
        type="button"
        className="map-button"
        aria-label={MAP_CONTROL_TEXT.zoomIn}
        title={MAP_CONTROL_TEXT.zoomIn}
        disabled={!canZoomIn}
        onClick={onZoomIn}
      >
        <span aria-hidden="true">+</span>
      </button>
      <button
        type="button"
        className="map-button"
        aria-label={MAP_CONTROL_TEXT.zoomOut}
        title={MAP_CONTROL_TEXT.zoomOut}
        disabled={!canZoomOut}
        onClick={onZoomOut}
      >
        <span aria-hidden="true">−</span>
      </button>
    </div>
  );
}
