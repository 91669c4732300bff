/**
 * /dashboard/areas/{areaId} (part 2 §2 Areas): name, description, type, lat, lon, country,
 * address 1 and 2, city, state and postal code (labelled by country), owner; Edit and Delete Area
 * (a confirmation; a 404 means it was deleted already, part 2 §4). After the delete the targeted
 * area is cleared (part 2 §4) and the list opens.
 */
import { useNavigate, useOutletContext, useParams } from 'react-router-dom';
import { focusArea } from '../../app/map/area-focus';
import { setTarget } from '../../app/map/map-state';
import { areasKey } from '../../app/map/use-areas';
import { DetailHeader } from '../../app/section/detail-header';
import { useFocusOnOpen } from '../../app/section/focus-on';
import { itemHref } from '../../app/section/item-href';
import { ItemState } from '../../app/section/item-state';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import type { Area } from '../../domain/area';
import { AREAS_TEXT } from '../../domain/labels';
import { canDeleteArea, canEditArea } from '../../domain/permissions';
import { addressLabels } from '../../domain/postal-code';
import { useAreaCalls } from './calls';
import { useArea } from './use-area';
import './areas.css';

function coordinate(value: number | null): string {
  return value === null ? '' : String(value);
}

function AreaFields({ area }: { area: Area }) {
  const labels = addressLabels(area.countryCode);
  const rows: [string, string][] = [
    [AREAS_TEXT.name, area.displayName],
    [AREAS_TEXT.description, area.description],
    [AREAS_TEXT.type, area.ezTypeName],
    [AREAS_TEXT.lat, coordinate(area.lat)],
    [AREAS_TEXT.lon, coordinate(area.lng)],
    [AREAS_TEXT.country, area.countryCode],
    [AREAS_TEXT.address1, area.address1],
    [AREAS_TEXT.address2, area.address2],
    [AREAS_TEXT.city, area.city],
    [labels.state, area.state],
    [labels.postalCode, area.postalCode],
    [AREAS_TEXT.owner, area.orgName],
  ];
  return (
    <dl className="area-fields">
      {rows.map(([label, value]) => (
        <div key={label} className="area-field">
          <dt>{label}</dt>
          <dd>{value || '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

export function AreaDetail() {
  const { areaId = '' } = useParams();
  const { map, profile, organizationId } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  const calls = useAreaCalls();
  const lookup = useArea(organizationId, areaId);
  const back = () => {
    setTarget(map, null);
    navigate(itemHref('areas'));
  };

  // A deep link (or a reload) targets the area and fits the map to it as a row click does.
  useFocusOnOpen(map, { kind: 'area', id: areaId }, lookup.state === 'found' ? lookup.area : null, focusArea);

  if (lookup.state !== 'found') {
    return (
      <ItemState
        className="area-detail"
        state={lookup.state}
        failure={lookup.state === 'failed' ? lookup.failure : null}
        texts={{ notFound: AREAS_TEXT.notFound }}
        header={<DetailHeader title={AREAS_TEXT.area} onBack={back} />}
      />
    );
  }
  const { area } = lookup;
  const ownership = { orgId: area.orgId, isAvType: area.isAvType };
  const canEdit = canEditArea(profile.permissions, ownership, profile.organizationId);
  const canDelete = canDeleteArea(profile.permissions, ownership, profile.organizationId);
  return (
    <section className="area-detail" aria-labelledby="section-title">
      <DetailHeader
        title={area.displayName}
        subtitle={area.ezTypeName}
        onBack={back}
        editHref={canEdit ? itemHref('areas', area.id, { page: 'edit' }) : null}
        editLabel={AREAS_TEXT.edit}
        refused={{ edit: !canEdit, deleteLabel: canDelete ? null : AREAS_TEXT.deleteArea }}
        remove={
          canDelete
            ? {
                label: AREAS_TEXT.deleteArea,
                itemName: area.displayName,
                send: () => calls.remove(area.id),
                context: 'areaDelete',
                invalidates: [areasKey(organizationId)],
                onDeleted: back,
              }
            : null
        }
      />
      {area.isLegacy && (
        <p className="area-note" role="note">
          {AREAS_TEXT.legacyDetailNote}
        </p>
      )}
      <AreaFields area={area} />
    </section>
  );
}
