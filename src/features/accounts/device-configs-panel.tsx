/**
 * Device configuration (part 2 §2 "Device configuration (form in the validation section)", §3
 * Device config, §5 Device config; the designed /organization/device_configs calls): the
 * organization's configurations (file name, platform, type, model), Add and Edit in a dialog,
 * Delete behind a confirmation. The form is the domain's `deviceConfigSchema` (file name,
 * platform, type, model and warning light pin 'Required'; 'Cannot be the same as Warning Light
 * Pin'). The password is write-only: the server never answers it, the form never shows it, and an
 * edit that leaves it empty keeps the stored one.
 *
 * Move to organization: the edit dialog's Organization select lists the organizations the caller
 * administers (own, children, managed: the server's rule for PUT /organization/device_configs/{id},
 * which may change organization_id); a moved configuration leaves this organization's list.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import { ConfirmDialog } from '../../app/section/confirm-dialog';
import { useSubmit } from '../../app/section/use-submit';
import { useServices } from '../../app/services';
import { useApiQuery } from '../../app/use-api-query';
import { Modal } from '../../app/ui/modal';
import { SelectField } from '../../app/ui/select-field';
import { TextField } from '../../app/ui/text-field';
import { toDeviceConfigPayload, type DeviceConfig } from '../../domain/device-config';
import { administeredOrganizations, type OrganizationRef } from '../../domain/organization';
import { DEVICE_CONFIG_TEXT, SECTION_TEXT } from '../../domain/labels';
import { deviceConfigSchema, type DeviceConfigForm } from '../../domain/validation/accounts';
import { AccountsPanel, FormFooter } from './accounts-panel';
import { AccountsTable } from './accounts-table';
import { ACCOUNT_QUERIES, useAccountCalls } from './calls';

/** The form's values: every input's text (the heartbeat interval is read as a number before the domain's rule). */
interface FormInput {
  fileName: string;
  platform: string;
  thingType: string;
  model: string;
  warningLightPin: string;
  indicatorPin: string;
  password: string;
  heartbeatInterval: string;
  locationType: string;
  /** The configuration's organization (edit only); not part of the domain form. */
  organizationId: string;
}

const formSchema = z.preprocess((values) => {
  const form = values as FormInput;
  const interval = form.heartbeatInterval.trim();
  return { ...form, heartbeatInterval: interval === '' ? null : Number(interval) };
}, deviceConfigSchema);

const pinText = (pin: number | null): string => (pin === null ? '' : String(pin));

function formValues(config: DeviceConfig | null): FormInput {
  return {
    fileName: config?.fileName ?? '',
    platform: config?.platform ?? '',
    thingType: config?.thingTypeId ?? '',
    model: config?.model ?? '',
    warningLightPin: pinText(config?.warningLightPin ?? null),
    indicatorPin: pinText(config?.indicatorPin ?? null),
    // Write-only: never filled in.
    password: '',
    heartbeatInterval:
      config?.heartbeatInterval === null || config?.heartbeatInterval === undefined ? '' : String(config.heartbeatInterval),
    locationType: config?.locationType ?? '',
    organizationId: config?.orgId ?? '',
  };
}

export interface DeviceConfigsPanelProps {
  organizationId: string;
  /** The profile's managed organizations (with the organization's own and children: where a configuration may move). */
  managedOrgs: readonly OrganizationRef[];
}

export function DeviceConfigsPanel({ organizationId, managedOrgs }: DeviceConfigsPanelProps) {
  const calls = useAccountCalls();
  const configs = useApiQuery({ key: ACCOUNT_QUERIES.deviceConfigs(organizationId), load: () => calls.deviceConfigs(organizationId) });
  const types = useApiQuery({ key: ACCOUNT_QUERIES.thingTypes, load: () => calls.thingTypes() });
  const organization = useApiQuery({ key: ACCOUNT_QUERIES.organization(organizationId), load: () => calls.organization(organizationId) });
  const organizationOptions = useMemo(
    () =>
      organization.data ? administeredOrganizations(organization.data, managedOrgs).map((org) => ({ value: org.id, label: org.name })) : [],
    [organization.data, managedOrgs],
  );
  const typeNames = useMemo(() => new Map((types.data ?? []).map((type) => [type.id, type.displayName])), [types.data]);
  const [editing, setEditing] = useState<{ config: DeviceConfig | null } | null>(null);
  const [deleting, setDeleting] = useState<DeviceConfig | null>(null);
  const remove = useSubmit<void>({
    context: 'deviceConfigs',
    invalidates: [ACCOUNT_QUERIES.deviceConfigs(organizationId)],
    onSuccess: () => setDeleting(null),
  });
  const close = () => setEditing(null);

  return (
    <AccountsPanel
      id="device-configs"
      title={DEVICE_CONFIG_TEXT.title}
      action={
        <button type="button" className="button button-primary" onClick={() => setEditing({ config: null })}>
          {DEVICE_CONFIG_TEXT.add}
        </button>
      }
    >
      <AccountsTable
        answer={configs}
        rows={(data) => data}
        columns={[DEVICE_CONFIG_TEXT.fileName, DEVICE_CONFIG_TEXT.platform, DEVICE_CONFIG_TEXT.type, DEVICE_CONFIG_TEXT.model]}
        empty={DEVICE_CONFIG_TEXT.none}
        renderRow={(config) => (
          <tr key={config.id}>
            <th scope="row">{config.fileName}</th>
            <td>{config.platform}</td>
            <td>{config.thingTypeId === null ? '' : (typeNames.get(config.thingTypeId) ?? '')}</td>
            <td>{config.model}</td>
            <td className="accounts-row-actions">
              <button
                type="button"
                className="button button-secondary"
                aria-label={`${SECTION_TEXT.edit} ${config.fileName}`}
                onClick={() => setEditing({ config })}
              >
                {SECTION_TEXT.edit}
              </button>
              <button
                type="button"
                className="button button-secondary"
                aria-label={`${SECTION_TEXT.delete} ${config.fileName}`}
                onClick={() => {
                  remove.reset();
                  setDeleting(config);
                }}
              >
                {SECTION_TEXT.delete}
              </button>
            </td>
          </tr>
        )}
      />
      {editing && (
        <Modal title={editing.config ? DEVICE_CONFIG_TEXT.editTitle : DEVICE_CONFIG_TEXT.addTitle} onClose={close} actions={null}>
          <DeviceConfigForm
            organizationId={organizationId}
            config={editing.config}
            typeOptions={(types.data ?? []).map((type) => ({ value: type.id, label: type.displayName }))}
            organizationOptions={organizationOptions}
            onDone={close}
          />
        </Modal>
      )}
      {deleting && (
        <ConfirmDialog
          title={SECTION_TEXT.confirmDeleteTitle(deleting.fileName)}
          body={SECTION_TEXT.confirmDeleteBody}
          confirmLabel={DEVICE_CONFIG_TEXT.deleteConfig}
          pending={remove.pending}
          failure={remove.failure}
          onConfirm={() => void remove.submit(() => calls.deleteDeviceConfig(deleting.id))}
          onCancel={() => setDeleting(null)}
        />
      )}
    </AccountsPanel>
  );
}

interface DeviceConfigFormProps {
  organizationId: string;
  /** null: a new configuration. */
  config: DeviceConfig | null;
  typeOptions: readonly { value: string; label: string }[];
  /** Where an edited configuration may move; none known: the select is left out. */
  organizationOptions: readonly { value: string; label: string }[];
  onDone(): void;
}

function DeviceConfigForm({ organizationId, config, typeOptions, organizationOptions, onDone }: DeviceConfigFormProps) {
  const calls = useAccountCalls();
  const { queries } = useServices();
  const { control, handleSubmit, formState, getValues } = useForm<FormInput>({
    // The inputs' texts in; the resolver hands on the domain's form (trimmed, the heartbeat interval a number).
    resolver: zodResolver(formSchema as unknown as z.ZodType<FormInput, FormInput>) as unknown as Resolver<FormInput>,
    defaultValues: formValues(config),
    mode: 'onTouched',
  });
  // The stored organization is always offered, even when the list of administered ones lacks it.
  const movable =
    config !== null && organizationOptions.length > 0
      ? organizationOptions.some((option) => option.value === config.orgId)
        ? organizationOptions
        : [{ value: config.orgId, label: config.orgId }, ...organizationOptions]
      : [];
  const save = useSubmit<DeviceConfig>({
    context: 'deviceConfigs',
    invalidates: [ACCOUNT_QUERIES.deviceConfigs(organizationId)],
    onSuccess: (saved) => {
      // A move changes the other organization's list too.
      if (saved.orgId !== organizationId) void queries.invalidateQueries({ queryKey: ACCOUNT_QUERIES.deviceConfigs(saved.orgId) });
      onDone();
    },
  });
  const submit = handleSubmit((values) => {
    const form = values as unknown as DeviceConfigForm;
    // The domain form leaves the organization out; the input holds it.
    const orgId = getValues('organizationId') || config?.orgId || organizationId;
    return save.submit(() =>
      calls.saveDeviceConfig(
        toDeviceConfigPayload({
          id: config?.id ?? '',
          orgId,
          userId: config?.userId ?? null,
          thingTypeId: String(form.thingType),
          fileName: form.fileName,
          platform: form.platform,
          model: form.model,
          // Empty: none on a new configuration, the stored one kept on an edit (the server's rule).
          password: form.password ?? '',
          heartbeatInterval: form.heartbeatInterval ?? null,
          warningLightPin: Number(form.warningLightPin),
          indicatorPin: form.indicatorPin ? Number(form.indicatorPin) : null,
          locationType: form.locationType ?? '',
        }),
      ),
    );
  });
  const title = config ? DEVICE_CONFIG_TEXT.editTitle : DEVICE_CONFIG_TEXT.addTitle;
  return (
    <form className="form accounts-form" noValidate aria-label={title} onSubmit={(event) => void submit(event)}>
      <div className="accounts-grid">
        <TextField control={control} name="fileName" label={DEVICE_CONFIG_TEXT.fileName} required autoComplete="off" />
        <TextField control={control} name="platform" label={DEVICE_CONFIG_TEXT.platform} required autoComplete="off" />
        <SelectField control={control} name="thingType" label={DEVICE_CONFIG_TEXT.type} required options={typeOptions} />
        <TextField control={control} name="model" label={DEVICE_CONFIG_TEXT.model} required autoComplete="off" />
        <TextField control={control} name="warningLightPin" label={DEVICE_CONFIG_TEXT.warningLightPin} required inputMode="numeric" />
        <TextField control={control} name="indicatorPin" label={DEVICE_CONFIG_TEXT.indicatorPin} inputMode="numeric" />
        <TextField control={control} name="heartbeatInterval" label={DEVICE_CONFIG_TEXT.heartbeatInterval} inputMode="numeric" />
        <TextField control={control} name="locationType" label={DEVICE_CONFIG_TEXT.locationType} autoComplete="off" />
        <TextField control={control} name="password" label={DEVICE_CONFIG_TEXT.password} type="password" autoComplete="new-password" />
        {movable.length > 0 && (
          <SelectField control={control} name="organizationId" label={DEVICE_CONFIG_TEXT.organization} required options={movable} />
        )}
      </div>
      {config && <p className="field-note">{DEVICE_CONFIG_TEXT.passwordKeep}</p>}
      <FormFooter write={save} dirty={formState.isDirty} onCancel={onDone} />
    </form>
  );
}
