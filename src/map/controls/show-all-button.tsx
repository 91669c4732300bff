/** part 1 §2 Map: the show-all-fit button (the caller fits the listed assets: padding 50, max zoom 17). */
import { MAP_CONTROL_TEXT } from '../../domain/labels';

export function ShowAllButton({ onShowAll, disabled = false }: { onShowAll: () => void; disabled?: boolean }) {
  return (
    <button
      type="button"
      className="map-button"
      aria-label={MAP_CONTROL_TEXT.showAll}
      title={MAP_CONTROL_TEXT.showAll}
      disabled={disabled}
      onClick={onShowAll}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <path d="M3 9V3h6M15 3h6v6M21 15v6h-6M9 21H3v-6" fill="none" stroke="currentColor" strokeWidth="2" />
      </svg>
    </button>
  );
}
