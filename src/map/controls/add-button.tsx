/**
 * part 1 §2: "Add buttons read '+ Add' when zoomed in enough, else 'Zoom to Add'" (§9 thresholds:
 * areas and closures 15.5, trip points 17, default 16.25).
 */
import { MAP_TEXT } from '../../domain/labels';

export type AddMode = 'add' | 'zoomToAdd';

export function addMode(zoom: number, addZoom: number): AddMode {
  return zoom >= addZoom ? 'add' : 'zoomToAdd';
}

export interface AddButtonProps {
  zoom: number;
  addZoom: number;
  onAdd: () => void;
  onZoomToAdd: () => void;
}

export function AddButton({ zoom, addZoom, onAdd, onZoomToAdd }: AddButtonProps) {
  const mode = addMode(zoom, addZoom);
  return (
    <button type="button" className={mode === 'add' ? 'map-add map-add-ready' : 'map-add'} onClick={mode === 'add' ? onAdd : onZoomToAdd}>
      {mode === 'add' ? MAP_TEXT.add : MAP_TEXT.zoomToAdd}
    </button>
  );
}
