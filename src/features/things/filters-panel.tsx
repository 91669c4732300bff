/**
 * The Live list's Filters panel (part 1 §2 "Filters panel (apply and clear)"; §4 "Sorting and
 * filtering"): statuses labelled by the responder mix, out of service, feed, type and subtype
 * (subtype options follow the chosen type). Choices stay a draft until Apply hands them to the
 * worker; Clear restores the default filter (the show-offline preference decides offline).
 */
import { useId, useMemo, useState } from 'react';
import { ASSET_STATUS, statusLabel, type AssetStatus, type ResponderMix } from '../../domain/asset-status';
import { LIVE_LIST_TEXT } from '../../domain/labels';
import { subtypesForType } from '../../domain/thing-type';
import type { LiveFilters } from '../../app/live/store';
import { useThingTypeLists } from './use-thing-types';

/** The statuses a user picks (location … offline, in code order); out of service is its own box. */
export const FILTER_STATUSES: readonly AssetStatus[] = [
  ASSET_STATUS.location,
  ASSET_STATUS.active,
  ASSET_STATUS.standby,
  ASSET_STATUS.stationary,
  ASSET_STATUS.pending,
  ASSET_STATUS.offline,
];

/** The part of the filters this panel edits (search and organizations live in the list header). */
export type PanelFilters = Pick<LiveFilters, 'statuses' | 'outOfService' | 'feed' | 'typeNames' | 'subtypeIds'>;

/** The filters as the store's snapshot gives them (read-only arrays). */
export interface PanelFiltersView {
  readonly statuses: readonly AssetStatus[];
  readonly outOfService: boolean;
  readonly feed: boolean;
  readonly typeNames: readonly string[];
  readonly subtypeIds: readonly string[];
}

export interface FiltersPanelProps {
  id: string;
  filters: PanelFiltersView;
  mix: ResponderMix;
  onApply(filters: PanelFilters): void;
  onClear(): void;
}

export function FiltersPanel({ id, filters, mix, onApply, onClear }: FiltersPanelProps) {
  const fieldId = useId();
  const { types, subtypes } = useThingTypeLists();
  const [statuses, setStatuses] = useState<AssetStatus[]>(() => [...filters.statuses]);
  const [outOfService, setOutOfService] = useState(filters.outOfService);
  const [feed, setFeed] = useState(filters.feed);
  const [typeName, setTypeName] = useState(filters.typeNames[0] ?? '');
  const [subtypeId, setSubtypeId] = useState(filters.subtypeIds[0] ?? '');

  const chosenType = types.find((type) => type.name === typeName) ?? null;
  const subtypeOptions = useMemo(() => subtypesForType(subtypes, chosenType?.id), [subtypes, chosenType?.id]);

  const toggleStatus = (status: AssetStatus, on: boolean) => {
    setStatuses((current) =>
      on ? [...current.filter((s) => s !== status), status].sort((a, b) => a - b) : current.filter((s) => s !== status),
    );
  };

  const apply = () => {
    onApply({
      statuses,
      outOfService,
      feed,
      typeNames: typeName ? [typeName] : [],
      subtypeIds: typeName && subtypeId ? [subtypeId] : [],
    });
  };

  return (
    <section id={id} className="filters-panel" aria-label={LIVE_LIST_TEXT.filters}>
      <fieldset className="filters-statuses">
        <legend>{LIVE_LIST_TEXT.status}</legend>
        {FILTER_STATUSES.map((status) => (
          <label key={status} className="filters-check">
            <input type="checkbox" checked={statuses.includes(status)} onChange={(event) => toggleStatus(status, event.target.checked)} />
            <span className="filters-swatch" style={{ background: `var(--status-${status})` }} aria-hidden="true" />
            {statusLabel(status, mix)}
          </label>
        ))}
      </fieldset>
      <div className="filters-flags">
        <label className="filters-check">
          <input type="checkbox" checked={outOfService} onChange={(event) => setOutOfService(event.target.checked)} />
          {LIVE_LIST_TEXT.outOfService}
        </label>
        <label className="filters-check">
          <input type="checkbox" checked={feed} onChange={(event) => setFeed(event.target.checked)} />
          {LIVE_LIST_TEXT.feed}
        </label>
      </div>
      <div className="filters-selects">
        <label htmlFor={`${fieldId}-type`}>{LIVE_LIST_TEXT.type}</label>
        <select
          id={`${fieldId}-type`}
          value={typeName}
          onChange={(event) => {
            // part 1 §5: subtype options depend on the chosen type and reset when it changes.
            setTypeName(event.target.value);
            setSubtypeId('');
          }}
        >
          <option value="">{LIVE_LIST_TEXT.anyType}</option>
          {types.map((type) => (
            <option key={type.id} value={type.name}>
              {type.displayName}
            </option>
          ))}
        </select>
        <label htmlFor={`${fieldId}-subtype`}>{LIVE_LIST_TEXT.subtype}</label>
        <select id={`${fieldId}-subtype`} value={subtypeId} disabled={!chosenType} onChange={(event) => setSubtypeId(event.target.value)}>
          <option value="">{LIVE_LIST_TEXT.anySubtype}</option>
          {subtypeOptions.map((subtype) => (
            <option key={subtype.id} value={subtype.id}>
              {subtype.displayName}
            </option>
          ))}
        </select>
      </div>
      <div className="filters-actions">
        <button type="button" className="button button-secondary" onClick={onClear}>
          {LIVE_LIST_TEXT.clear}
        </button>
        <button type="button" className="button button-primary" onClick={apply}>
          {LIVE_LIST_TEXT.apply}
        </button>
      </div>
    </section>
  );
}
