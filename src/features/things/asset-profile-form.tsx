/**
 * The asset edit's Profile tab (part 1 §3 "Thing form", §5 rules, §7 PUT /things/{id}, §8 asset
 * save errors): nickname (required, max 50), VIN (letters and digits), license plate and vehicle
 * id (max 50), type (options of the asset's emergency kind) and subtype (options of the chosen
 * type, reset when it changes), in service, alerting, and up to 2 integrations (provider + id,
 * no provider twice). Save is disabled until the form changed and while it submits; the server's
 * error shows under the form.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useFieldArray, useForm, useWatch, type Control, type UseFormRegisterReturn } from 'react-hook-form';
import type { z } from 'zod';
import { useAssetSave } from './use-asset-save';
import { SelectField, type SelectOption } from '../../app/ui/select-field';
import { TextField } from '../../app/ui/text-field';
import { assetToForm, toThingPayload, type AssetForm } from '../../domain/asset';
import { ASSET_TEXT, FORM_LABEL } from '../../domain/labels';
import { subtypesForType, typeOptionsFor } from '../../domain/thing-type';
import { assetFormSchema, availableProviders, canAddIntegration } from '../../domain/validation/asset';
import type { AssetDetails } from '../../domain/live-diff';
import { PROFILE_FIELD } from './asset-profile-section';
import { AssetFormFooter } from './asset-form-footer';
import { useThingTypeLists } from './use-thing-types';
import { useThingCalls } from './calls';

type FormInput = z.input<typeof assetFormSchema>;
type FormOutput = z.output<typeof assetFormSchema>;

export const EDIT_FIELD = {
  plate: 'License Plate',
  registry: 'Vehicle ID',
  provider: 'Provider',
  integrationId: 'Integration ID',
  addIntegration: '+ Add Integration',
  removeIntegration: 'Remove',
  cancel: 'Cancel',
} as const;

/** A provider's name as shown ('samsara' → 'Samsara'). */
export function providerLabel(provider: string): string {
  return provider ? provider.charAt(0).toUpperCase() + provider.slice(1) : provider;
}

function formValues(form: AssetForm): FormInput {
  const { id: _id, ...values } = form;
  return { ...values, integrations: values.integrations.map((row) => ({ ...row })) };
}

/** The validated values back as the domain form (its payload mapper trims and blanks). */
function domainForm(id: string, values: FormOutput): AssetForm {
  return {
    id,
    inService: values.inService,
    isPubliclyReporting: values.isPubliclyReporting,
    nickname: values.nickname,
    thingType: String(values.thingType),
    thingSubtype: values.thingSubtype === null || values.thingSubtype === undefined ? '' : String(values.thingSubtype),
    vinNumber: values.vinNumber ?? '',
    plateNumber: values.plateNumber ?? '',
    registryNumber: values.registryNumber ?? '',
    integrations: values.integrations.map((row) => ({ provider: row.provider, id: row.id })),
  };
}

function Checkbox({ registration, label }: { registration: UseFormRegisterReturn; label: string }) {
  return (
    <label className="checkbox-field">
      <input type="checkbox" {...registration} />
      {label}
    </label>
  );
}

function Integrations({ control, listError }: { control: Control<FormInput>; listError: string | undefined }) {
  const { fields, append, remove } = useFieldArray({ control, name: 'integrations' });
  const rows = useWatch({ control, name: 'integrations' });
  const adding = canAddIntegration(rows ?? []);
  return (
    <fieldset className="form">
      <legend className="field-legend">{PROFILE_FIELD.integrations}</legend>
      {fields.map((field, index) => {
        const options: SelectOption[] = availableProviders(rows ?? [], index).map((provider) => ({
          value: provider,
          label: providerLabel(provider),
        }));
        return (
          <div className="integration-row" key={field.id}>
            <SelectField control={control} name={`integrations.${index}.provider`} label={EDIT_FIELD.provider} options={options} required />
            <TextField control={control} name={`integrations.${index}.id`} label={EDIT_FIELD.integrationId} required />
            <button
              type="button"
              className="button button-secondary"
              onClick={() => remove(index)}
              aria-label={`${EDIT_FIELD.removeIntegration} integration ${index + 1}`}
            >
              {EDIT_FIELD.removeIntegration}
            </button>
          </div>
        );
      })}
      {listError && (
        <p className="field-error" role="alert">
          {listError}
        </p>
      )}
      <button type="button" className="button button-secondary" disabled={!adding.allowed} onClick={() => append({ provider: '', id: '' })}>
        {EDIT_FIELD.addIntegration}
      </button>
      {adding.message && <p className="field-note">{adding.message}</p>}
    </fieldset>
  );
}

export function AssetProfileForm({ asset }: { asset: AssetDetails }) {
  const calls = useThingCalls();
  // The form starts from the asset as it was when the page opened; live changes do not reset it.
  const [initial] = useState(() => assetToForm({ ...asset, searchText: '' }));
  // …and a save from it is refused once someone saved the asset's profile since (412, lost updates).
  const [openedVersion] = useState(() => asset.version ?? null);
  const { failure, save } = useAssetSave(asset.id);
  const { types, subtypes } = useThingTypeLists();
  const { control, handleSubmit, formState, setValue, register } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(assetFormSchema),
    defaultValues: formValues(initial),
    mode: 'onTouched',
  });
  const typeId = useWatch({ control, name: 'thingType' });
  const alerting = useWatch({ control, name: 'isPubliclyReporting' });
  const typeOptions = useMemo<SelectOption[]>(
    () => typeOptionsFor(asset, types).map((type) => ({ value: type.id, label: type.displayName })),
    [asset, types],
  );
  const subtypeOptions = useMemo<SelectOption[]>(
    () =>
      subtypesForType(subtypes, typeId === undefined || typeId === null ? null : String(typeId)).map((s) => ({
        value: s.id,
        label: s.displayName,
      })),
    [subtypes, typeId],
  );

  const submit = handleSubmit((values) =>
    save(() => calls.saveProfile(asset.id, toThingPayload(domainForm(asset.id, values), initial), openedVersion)),
  );

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)} aria-label={ASSET_TEXT.profile}>
      <TextField control={control} name="nickname" label={FORM_LABEL.nickname} required autoComplete="off" />
      <TextField control={control} name="vinNumber" label={PROFILE_FIELD.vin} autoComplete="off" />
      <TextField control={control} name="plateNumber" label={EDIT_FIELD.plate} autoComplete="off" />
      <TextField control={control} name="registryNumber" label={EDIT_FIELD.registry} autoComplete="off" />
      <SelectField
        control={control}
        name="thingType"
        label={PROFILE_FIELD.type}
        required
        options={typeOptions}
        // part 1 §5: the subtype resets when the type changes.
        onValueChange={() => setValue('thingSubtype', '', { shouldDirty: true })}
      />
      <SelectField control={control} name="thingSubtype" label={PROFILE_FIELD.subtype} options={subtypeOptions} />
      <Checkbox registration={register('inService')} label={PROFILE_FIELD.inService} />
      <Checkbox registration={register('isPubliclyReporting')} label={PROFILE_FIELD.alerting} />
      {alerting === false && (
        <p className="detail-info" role="note">
          {ASSET_TEXT.alertingOffInfo}
        </p>
      )}
      <Integrations control={control} listError={formState.errors.integrations?.root?.message ?? formState.errors.integrations?.message} />
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
