/**
 * The detail's Profile section (part 1 §2, §3): names, VIN, plate, registry number, type and
 * subtype, system id, integrations, alerting (with the part 1 §4 note that alerting switched off
 * turns back on after 60 minutes) and in service.
 */
import { useId } from 'react';
import { ASSET_TEXT } from '../../domain/labels';
import type { AssetDetails } from '../../domain/live-diff';
import { thingSubtypeLabel, thingTypeLabel } from '../../domain/thing-type';
import { STATUS_FIELD } from './asset-status-section';
import { useThingTypeLists } from './use-thing-types';

export const PROFILE_FIELD = {
  name: 'Name',
  nickname: 'Nickname',
  vin: 'VIN',
  plate: 'License Plate',
  registry: 'Vehicle ID',
  type: 'Type',
  subtype: 'Subtype',
  systemId: 'System ID',
  integrations: 'Integrations',
  alerting: 'Alerting',
  inService: 'In Service',
  on: 'On',
  off: 'Off',
  yes: 'Yes',
  no: 'No',
} as const;

export function AssetProfileSection({ asset }: { asset: AssetDetails }) {
  const titleId = useId();
  // Types and subtypes by their display names (GET /thing_types, /thing_subtypes), not their codes.
  const { types, subtypes } = useThingTypeLists();
  const text = (value: string | null | undefined) => (value ? value : STATUS_FIELD.none);
  // Integrations: the asset's ids in its providers (provider: id), the values its edit form
  // edits. The wire's `integrations` are the owner organization's integration configurations:
  // their ids mean nothing to a dispatcher and do not change when the asset is edited.
  const integrations = asset.externalIdentifiers.map((e) => `${e.systemName}: ${e.identifierId}`);
  const rows: [string, string][] = [
    [PROFILE_FIELD.name, asset.name.toUpperCase()],
    [PROFILE_FIELD.nickname, text(asset.nickname)],
    [PROFILE_FIELD.vin, text(asset.vinNumber)],
    [PROFILE_FIELD.plate, text(asset.plateNumber)],
    [PROFILE_FIELD.registry, text(asset.registryNumber)],
    [PROFILE_FIELD.type, asset.thingType ? thingTypeLabel(asset.thingType, types) : STATUS_FIELD.none],
    [
      PROFILE_FIELD.subtype,
      asset.thingSubtype ? thingSubtypeLabel({ id: asset.thingSubtypeUUID, name: asset.thingSubtype }, subtypes) : STATUS_FIELD.none,
    ],
    [PROFILE_FIELD.systemId, text(asset.systemId)],
    [
      PROFILE_FIELD.integrations,
      // Not in the fleet snapshot: until the asset's page comes, "none" would not be true.
      asset.detailsPending ? ASSET_TEXT.detailsLoading : integrations.length > 0 ? integrations.join(', ') : STATUS_FIELD.none,
    ],
    [PROFILE_FIELD.alerting, asset.isPubliclyReporting ? PROFILE_FIELD.on : PROFILE_FIELD.off],
    [PROFILE_FIELD.inService, asset.inService ? PROFILE_FIELD.yes : PROFILE_FIELD.no],
  ];
  return (
    <section className="detail-section" aria-labelledby={titleId}>
      <h2 id={titleId}>{ASSET_TEXT.profile}</h2>
      <dl className="detail-list">
        {rows.map(([term, value]) => (
          <div className="detail-row" key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {!asset.isPubliclyReporting && (
        <p className="detail-info" role="note">
          {ASSET_TEXT.alertingOffInfo}
        </p>
      )}
    </section>
  );
}
