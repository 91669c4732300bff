/**
 * Fleet telematics integrations (part 2 §2 "API keys and integrations", §6 "Integration
 * configuration permissions: manage, read, create, delete", §9 "Integration providers: two fleet
 * telematics providers"; the designed /organization/integrations calls): the organization's two
 * providers, each configured or not, its settings as the server answers them (credentials masked)
 * and its created date. Configure opens the provider's form in a dialog (every field 'Required *');
 * Test connection asks the server to sign in to the provider with the stored settings and shows
 * the outcome in the row; Delete asks first. An organization has one configuration per provider
 * and the server has no update: new credentials are a Delete, then Configure. What the caller may
 * not do shows disabled with 'Not authorized' (the domain's `integrationAccess`, which the server
 * enforces).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Fragment, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { ConfirmDialog } from '../../app/section/confirm-dialog';
import { useSubmit } from '../../app/section/use-submit';
import { useApiQuery } from '../../app/use-api-query';
import { Modal } from '../../app/ui/modal';
import { TextField } from '../../app/ui/text-field';
import { INTEGRATION_PROVIDERS, type IntegrationProvider } from '../../domain/constants';
import {
  INTEGRATION_FIELDS,
  INTEGRATION_FORM_SCHEMAS,
  INTEGRATION_PROVIDER_NAMES,
  toIntegrationPayload,
  type Integration,
  type IntegrationField,
  type IntegrationSettingsForm,
  type IntegrationTestWire,
} from '../../domain/integration';
import { INTEGRATIONS_TEXT, SECTION_TEXT } from '../../domain/labels';
import { integrationAccess, type PermissionList } from '../../domain/permissions';
import { formatDateTime, parseTime } from '../../domain/time';
import { AccountsPanel, AllowedButton, FormFooter } from './accounts-panel';
import { AccountsTable } from './accounts-table';
import { ACCOUNT_QUERIES, useAccountCalls } from './calls';

interface ProviderRow {
  provider: IntegrationProvider;
  /** The organization's configuration of the provider; none: not configured. */
  integration: Integration | null;
}

function providerRows(integrations: readonly Integration[]): ProviderRow[] {
  return INTEGRATION_PROVIDERS.map((provider) => ({
    provider,
    integration: integrations.find((integration) => integration.provider === provider) ?? null,
  }));
}

/** The stored settings in the provider's field order with their labels, then any other stored names as they are. */
function settingEntries(provider: IntegrationProvider, settings: Readonly<Record<string, string>>): [label: string, value: string][] {
  const fields: readonly IntegrationField[] = INTEGRATION_FIELDS[provider];
  const known = fields.filter((field) => field.key in settings).map((field): [string, string] => [field.label, settings[field.key]!]);
  const others = Object.entries(settings).filter(([key]) => !fields.some((field) => field.key === key));
  return [...known, ...others];
}

export interface IntegrationsPanelProps {
  organizationId: string;
  permissions: PermissionList;
  timeZone: string | null;
}

export function IntegrationsPanel({ organizationId, permissions, timeZone }: IntegrationsPanelProps) {
  const calls = useAccountCalls();
  const access = integrationAccess(permissions);
  const list = useApiQuery({ key: ACCOUNT_QUERIES.integrations(organizationId), load: () => calls.integrations(organizationId) });
  const [configuring, setConfiguring] = useState<{ provider: IntegrationProvider; existing: Integration | null } | null>(null);
  const [deleting, setDeleting] = useState<Integration | null>(null);
  const remove = useSubmit<void>({
    context: 'integrations',
    invalidates: [ACCOUNT_QUERIES.integrations(organizationId)],
    onSuccess: () => setDeleting(null),
  });

  return (
    <AccountsPanel id="integrations" title={INTEGRATIONS_TEXT.title}>
      <AccountsTable
        answer={list}
        rows={providerRows}
        columns={[INTEGRATIONS_TEXT.provider, INTEGRATIONS_TEXT.status, INTEGRATIONS_TEXT.settings, INTEGRATIONS_TEXT.created]}
        renderRow={(row) => (
          <IntegrationRow
            // A new configuration of the provider (or new settings of it) starts without the last test's outcome.
            key={`${row.provider}:${row.integration?.id ?? ''}:${JSON.stringify(row.integration?.settings ?? {})}`}
            row={row}
            canCreate={access.canCreate}
            canTest={access.canTest}
            canDelete={access.canDelete}
            timeZone={timeZone}
            onConfigure={() => setConfiguring({ provider: row.provider, existing: row.integration })}
            onDelete={(integration) => {
              remove.reset();
              setDeleting(integration);
            }}
          />
        )}
      />
      <p className="field-note">{INTEGRATIONS_TEXT.secretNote}</p>
      {configuring && (
        <Modal
          title={INTEGRATIONS_TEXT.configureTitle(INTEGRATION_PROVIDER_NAMES[configuring.provider])}
          onClose={() => setConfiguring(null)}
          actions={null}
        >
          <IntegrationForm
            provider={configuring.provider}
            existing={configuring.existing}
            organizationId={organizationId}
            onDone={() => setConfiguring(null)}
          />
        </Modal>
      )}
      {deleting && (
        <ConfirmDialog
          title={INTEGRATIONS_TEXT.deleteTitle(INTEGRATION_PROVIDER_NAMES[deleting.provider])}
          body={INTEGRATIONS_TEXT.deleteBody}
          confirmLabel={INTEGRATIONS_TEXT.deleteIntegration}
          pending={remove.pending}
          failure={remove.failure}
          onConfirm={() => void remove.submit(() => calls.deleteIntegration(deleting.id))}
          onCancel={() => setDeleting(null)}
        />
      )}
    </AccountsPanel>
  );
}

interface IntegrationRowProps {
  row: ProviderRow;
  canCreate: boolean;
  canTest: boolean;
  canDelete: boolean;
  timeZone: string | null;
  onConfigure(): void;
  onDelete(integration: Integration): void;
}

/** One provider: its state, settings and date, the last test's outcome, and its actions. */
function IntegrationRow({ row, canCreate, canTest, canDelete, timeZone, onConfigure, onDelete }: IntegrationRowProps) {
  const calls = useAccountCalls();
  const { provider, integration } = row;
  const name = INTEGRATION_PROVIDER_NAMES[provider];
  const [outcome, setOutcome] = useState<IntegrationTestWire | null>(null);
  const test = useSubmit<IntegrationTestWire>({ context: 'integrations', onSuccess: setOutcome });
  const runTest = (id: string) => {
    setOutcome(null);
    void test.submit(() => calls.testIntegration(id));
  };
  const outcomeText = test.pending
    ? INTEGRATIONS_TEXT.testing
    : test.failure
      ? INTEGRATIONS_TEXT.testFailed(test.failure.text)
      : outcome?.ok
        ? INTEGRATIONS_TEXT.testPassed(formatDateTime(parseTime(outcome.checked_at) ?? 0, timeZone))
        : outcome
          ? INTEGRATIONS_TEXT.testFailed(outcome.reason)
          : '';
  const failed = Boolean(test.failure) || outcome?.ok === false;
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>
        {integration ? INTEGRATIONS_TEXT.configured : INTEGRATIONS_TEXT.notConfigured}
        {integration && (
          <p role="status" className={`accounts-test-outcome${failed ? ' accounts-test-failed' : ''}`}>
            {outcomeText}
          </p>
        )}
      </td>
      <td>
        {integration && (
          <dl className="accounts-facts accounts-settings" aria-label={`${name} ${INTEGRATIONS_TEXT.settings}`}>
            {settingEntries(provider, integration.settings).map(([label, value], index) => (
              <Fragment key={`${index}:${label}`}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
        )}
      </td>
      <td>{integration ? formatDateTime(integration.createdAt, timeZone) : ''}</td>
      <td className="accounts-row-actions">
        <AllowedButton allowed={canCreate} aria-label={`${INTEGRATIONS_TEXT.configure} ${name}`} onClick={onConfigure}>
          {INTEGRATIONS_TEXT.configure}
        </AllowedButton>
        <AllowedButton
          allowed={canTest}
          disabled={integration === null || test.pending}
          aria-label={`${INTEGRATIONS_TEXT.testConnection} ${name}`}
          onClick={() => integration && runTest(integration.id)}
        >
          {INTEGRATIONS_TEXT.testConnection}
        </AllowedButton>
        <AllowedButton
          allowed={canDelete}
          disabled={integration === null}
          aria-label={`${INTEGRATIONS_TEXT.deleteIntegration} ${name}`}
          onClick={() => integration && onDelete(integration)}
        >
          {SECTION_TEXT.delete}
        </AllowedButton>
      </td>
    </tr>
  );
}

/**
 * The provider's settings, each 'Required *' (the domain's `INTEGRATION_FORM_SCHEMAS`); credentials
 * typed into password inputs. A configured provider opens with its settings (credentials blank:
 * the server answers them masked) and Save replaces them (PUT): a wrong or missing token is
 * mended without deleting the configuration.
 */
function IntegrationForm({
  provider,
  existing,
  organizationId,
  onDone,
}: {
  provider: IntegrationProvider;
  existing: Integration | null;
  organizationId: string;
  onDone(): void;
}) {
  const calls = useAccountCalls();
  const fields = INTEGRATION_FIELDS[provider];
  const { control, handleSubmit, formState } = useForm<IntegrationSettingsForm>({
    resolver: zodResolver(INTEGRATION_FORM_SCHEMAS[provider]) as unknown as Resolver<IntegrationSettingsForm>,
    defaultValues: Object.fromEntries(fields.map((field) => [field.key, field.secret ? '' : (existing?.settings[field.key] ?? '')])),
    mode: 'onTouched',
  });
  const save = useSubmit<Integration>({
    context: 'integrations',
    invalidates: [ACCOUNT_QUERIES.integrations(organizationId)],
    onSuccess: onDone,
  });
  const submit = handleSubmit((values) => {
    const payload = toIntegrationPayload(provider, values, organizationId);
    return save.submit(() => (existing ? calls.updateIntegration(existing.id, payload.settings) : calls.createIntegration(payload)));
  });
  const title = INTEGRATIONS_TEXT.configureTitle(INTEGRATION_PROVIDER_NAMES[provider]);
  return (
    <form className="form accounts-form" noValidate aria-label={title} onSubmit={(event) => void submit(event)}>
      <div className="accounts-grid">
        {fields.map((field) => (
          <TextField
            key={field.key}
            control={control}
            name={field.key}
            label={field.label}
            required
            type={field.secret ? 'password' : 'text'}
            autoComplete={field.secret ? 'new-password' : 'off'}
          />
        ))}
      </div>
      <FormFooter write={save} dirty={formState.isDirty} onCancel={onDone} />
    </form>
  );
}
