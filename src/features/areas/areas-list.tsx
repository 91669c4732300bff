/**
 * /dashboard/areas (part 2 §2 Areas): the organization's areas beside the map, sorted by name
 * case-insensitively (part 2 §4), with a search box, a type filter, 'Showing (x/total)', rows 75 px
 * high (§9) and the add-new button (with the create permission, part 2 §6). A row click targets the
 * area on the map (its outline and badge in the focus colour, the map fitted to it) and opens it.
 */
import { useState, type CSSProperties } from 'react';
import { useNavigate, useOutletContext } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { focusArea } from '../../app/map/area-focus';
import { useAreasQuery } from '../../app/map/use-areas';
import { itemHref } from '../../app/section/item-href';
import { ListFrame } from '../../app/section/list-frame';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import type { Area } from '../../domain/area';
import { ALL_AREA_TYPES, filterAreas } from '../../domain/area-form';
import { AREA_ROW_HEIGHT } from '../../domain/constants';
import { AREAS_TEXT, SECTION_LABEL } from '../../domain/labels';
import { canAddArea } from '../../domain/permissions';
import { useAreaTypes } from './use-area-types';
import './areas.css';

interface AreaRowProps {
  areas: readonly Area[];
  targetId: string | null;
  onOpen(area: Area): void;
}

function AreaRow({
  index,
  style,
  ariaAttributes,
  areas,
  targetId,
  onOpen,
}: AreaRowProps & {
  index: number;
  style: CSSProperties;
  ariaAttributes: { 'aria-posinset': number; 'aria-setsize': number; role: 'listitem' };
}) {
  const area = areas[index];
  if (!area) return null;
  return (
    <div style={style} {...ariaAttributes} className="area-row-slot">
      <button
        type="button"
        className="area-row"
        data-area-id={area.id}
        aria-current={area.id === targetId || undefined}
        onClick={() => onOpen(area)}
      >
        <span className="area-row-name">{area.displayName}</span>
        <span className="area-row-type">
          {area.ezTypeName}
          {area.isLegacy && <span className="area-row-legacy"> · {AREAS_TEXT.legacy}</span>}
        </span>
        {area.description && <span className="area-row-description">{area.description}</span>}
      </button>
    </div>
  );
}

export function AreasList() {
  const { map, profile, organizationId, mobile } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  const query = useAreasQuery(organizationId);
  const types = useAreaTypes();
  const { target } = useSnapshot(map);
  const [search, setSearch] = useState('');
  const [typeId, setTypeId] = useState(ALL_AREA_TYPES);
  const areas = query.data ?? [];
  const shown = filterAreas(areas, search, typeId);
  const open = (area: Area) => {
    focusArea(map, area);
    navigate(itemHref('areas', area.id));
  };
  // A phone cannot open the new page (part 2 §2): no add button there. Elsewhere a user who may not
  // add sees it disabled, 'Not authorized' (part 2 §6).
  const canAdd = canAddArea(profile.permissions, organizationId, profile.organizationId);
  const targetId = target?.kind === 'area' ? target.id : null;

  let empty: React.ReactNode | undefined;
  if (query.isPending)
    empty = (
      <p className="areas-empty" role="status">
        {AREAS_TEXT.loading}
      </p>
    );
  else if (query.isError)
    empty = (
      <p className="areas-empty" role="alert">
        {query.error.userError.text}
      </p>
    );
  else if (shown.length === 0) empty = <p className="areas-empty">{areas.length === 0 ? AREAS_TEXT.none : AREAS_TEXT.empty}</p>;

  return (
    <ListFrame
      className="areas-list"
      title={SECTION_LABEL.areas}
      addNew={mobile ? null : { href: canAdd ? itemHref('areas', 'new') : null, label: AREAS_TEXT.addNew }}
      search={{ value: search, label: AREAS_TEXT.search, onSearch: setSearch }}
      filters={
        <label className="areas-type-filter">
          <span>{AREAS_TEXT.typeFilter}</span>
          <select value={typeId} onChange={(event) => setTypeId(event.target.value)}>
            <option value={ALL_AREA_TYPES}>{AREAS_TEXT.allTypes}</option>
            {(types.data ?? []).map((type) => (
              <option key={type.id} value={type.id}>
                {type.displayName}
              </option>
            ))}
          </select>
        </label>
      }
      shown={shown.length}
      total={areas.length}
      empty={empty}
      rows={{
        className: 'areas-rows',
        label: SECTION_LABEL.areas,
        role: 'list',
        rowComponent: AreaRow,
        rowCount: shown.length,
        rowHeight: AREA_ROW_HEIGHT,
        rowProps: { areas: shown, targetId, onOpen: open },
      }}
    />
  );
}
