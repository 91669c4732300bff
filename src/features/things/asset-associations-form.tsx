/**
 * The asset edit's Associations tab, the organization access edit (part 1 §5, §7): each related
 * organization is manager, accessor or delete; organizations to add come from
 * GET /organization/assignable; Save sends PUT /things/{thingId}/associations with the relations
 * kept (`toAssociationsPayload`). Save is disabled until the list changed.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useOutletContext } from 'react-router-dom';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { useApiQuery } from '../../app/use-api-query';
import { useAssetSave } from './use-asset-save';
import { SelectField, type SelectOption } from '../../app/ui/select-field';
import { toAssociationsPayload } from '../../domain/asset';
import { ASSET_TEXT } from '../../domain/labels';
import { organizationAccessSchema, type OrganizationAccessForm } from '../../domain/validation/asset';
import type { AssetDetails } from '../../domain/live-diff';
import { EDIT_FIELD } from './asset-profile-form';
import { AssetFormFooter } from './asset-form-footer';
import { THING_QUERIES, useThingCalls } from './calls';

/** The words of the three choices (part 1 §5 "manager, accessor or delete"; §6 badges). */
export const RELATION_OPTIONS: readonly SelectOption[] = [
  { value: 'manager', label: 'Manager' },
  { value: 'accessor', label: 'Access' },
  { value: 'delete', label: 'Delete' },
];

export const ASSOCIATION_TEXT = {
  addOrganization: 'Add organization',
  add: 'Add',
  relationFor: (name: string) => `Relation of ${name}`,
} as const;

export function AssetAssociationsForm({ asset }: { asset: AssetDetails }) {
  const calls = useThingCalls();
  const { organizationId } = useOutletContext<ShellContext>();
  const { failure, save } = useAssetSave(asset.id);
  const assignableQuery = useApiQuery({ key: THING_QUERIES.assignable(organizationId), load: calls.assignableOrganizations });
  const assignable = useMemo(() => assignableQuery.data ?? [], [assignableQuery.data]);
  const [initial] = useState<OrganizationAccessForm>(() => ({
    relations: asset.organizationRelationships.map((r) => ({
      organizationUuid: r.organizationUuid,
      organizationName: r.organizationName,
      relationshipType: r.relationshipType,
    })),
  }));
  const { control, handleSubmit, formState } = useForm<OrganizationAccessForm>({
    resolver: zodResolver(organizationAccessSchema),
    defaultValues: initial,
  });
  const { fields, append } = useFieldArray({ control, name: 'relations' });
  const relations = useWatch({ control, name: 'relations' });
  // The organization picker is its own little form (it is not part of what is saved).
  const picker = useForm<{ organization: string }>({ defaultValues: { organization: '' } });
  const picked = useWatch({ control: picker.control, name: 'organization' });

  const listed = useMemo(() => new Set((relations ?? []).map((r) => r.organizationUuid)), [relations]);
  const addable = useMemo<SelectOption[]>(
    () =>
      assignable
        .filter((org) => !listed.has(org.id) && org.id !== asset.organization?.id)
        .map((org) => ({ value: org.id, label: org.name })),
    [assignable, listed, asset.organization?.id],
  );
  const add = () => {
    const org = assignable.find((candidate) => candidate.id === picked);
    if (!org) return;
    append({ organizationUuid: org.id, organizationName: org.name, relationshipType: 'accessor' });
    picker.reset({ organization: '' });
  };

  const submit = handleSubmit((values) => save(() => calls.saveAssociations(asset.id, toAssociationsPayload(values.relations))));

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)} aria-label={ASSET_TEXT.associations}>
      {fields.length === 0 && <p className="detail-muted">{ASSET_TEXT.noOrganizationAccess}</p>}
      {fields.map((field, index) => (
        <SelectField
          key={field.id}
          control={control}
          name={`relations.${index}.relationshipType`}
          label={ASSOCIATION_TEXT.relationFor(field.organizationName || field.organizationUuid)}
          options={RELATION_OPTIONS}
        />
      ))}
      <div className="relation-add">
        <SelectField control={picker.control} name="organization" label={ASSOCIATION_TEXT.addOrganization} options={addable} />
        <button type="button" className="button button-secondary" disabled={!picked} onClick={add}>
          {ASSOCIATION_TEXT.add}
        </button>
      </div>
      <AssetFormFooter
        assetId={asset.id}
        dirty={formState.isDirty}
        submitting={formState.isSubmitting}
        failure={failure}
        cancelLabel={EDIT_FIELD.cancel}
      />
    </form>
  );
}
