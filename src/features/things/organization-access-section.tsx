/**
 * The detail's Organization Access section (part 1 §2, §5, §6): the organizations related to the
 * asset with a MANAGER or ACCESS badge; the edit link shows only with edit permission and at
 * least one asset relation or subscribed-organization relation (`showsOrganizationAccessEdit`).
 */
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { ASSET_TEXT } from '../../domain/labels';
import { showsOrganizationAccessEdit, type PermissionList } from '../../domain/permissions';
import type { Profile } from '../../domain/profile';
import type { AssetDetails } from '../../domain/live-diff';
import { thingEditHref } from './thing-paths';

export function OrganizationAccessSection({ asset, profile }: { asset: AssetDetails; profile: Profile }) {
  const titleId = useId();
  const relations = asset.organizationRelationships;
  // Not in the fleet snapshot: neither shown nor edited until the asset's page comes.
  const pending = asset.detailsPending === true;
  const editable =
    !pending &&
    showsOrganizationAccessEdit(profile.permissions as PermissionList, {
      assetRelations: relations.length,
      subscribedOrgRelations: profile.managedOrgs.length + profile.accessedOrgs.length,
    });
  return (
    <section className="detail-section" aria-labelledby={titleId}>
      <div className="detail-section-head">
        <h2 id={titleId}>{ASSET_TEXT.organizationAccess}</h2>
        {editable && (
          <Link
            className="detail-link"
            to={thingEditHref(asset.id, 'associations')}
            aria-label={`${ASSET_TEXT.edit} ${ASSET_TEXT.organizationAccess}`}
          >
            {ASSET_TEXT.edit}
          </Link>
        )}
      </div>
      {pending ? (
        <p className="detail-muted">{ASSET_TEXT.detailsLoading}</p>
      ) : relations.length === 0 ? (
        <p className="detail-muted">{ASSET_TEXT.noOrganizationAccess}</p>
      ) : (
        <ul className="access-list">
          {relations.map((relation) => (
            <li key={relation.organizationUuid}>
              <span>{relation.organizationName}</span>
              <span className={`badge badge-${relation.relationshipType}`}>
                {relation.relationshipType === 'manager' ? ASSET_TEXT.managerBadge : ASSET_TEXT.accessBadge}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
