/**
 * The caller's API keys (part 2 §2 "API keys and integrations", §3 API key, §8 'Your User has
 * reached the API Key limit'; the designed GET/POST/DELETE /api_keys): description, the created
 * date in the user's time zone and the key as the server lists it (masked); Create asks for a
 * description and shows the new key once, with Copy; Revoke asks first. What the caller may not do
 * shows disabled with 'Not authorized' (§6, the domain's `apiKeyAccess`, which the server enforces).
 * An organization's administrators see every key of the organization with its owner, and may
 * revoke any of them (`organizationApiKeyAccess`).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '../../app/section/confirm-dialog';
import { useSubmit } from '../../app/section/use-submit';
import { useApiQuery } from '../../app/use-api-query';
import { Modal } from '../../app/ui/modal';
import { TextField } from '../../app/ui/text-field';
import type { ApiKey } from '../../domain/api-key';
import { API_KEYS_TEXT } from '../../domain/labels';
import { apiKeyAccess, organizationApiKeyAccess, type PermissionList } from '../../domain/permissions';
import { formatDateTime } from '../../domain/time';
import { apiKeyFormSchema, type ApiKeyForm } from '../../domain/validation/accounts';
import { AccountsPanel, AllowedButton, FormFooter } from './accounts-panel';
import { AccountsTable } from './accounts-table';
import { ACCOUNT_QUERIES, useAccountCalls } from './calls';

export function ApiKeysPanel({ permissions, timeZone }: { permissions: PermissionList; timeZone: string | null }) {
  const calls = useAccountCalls();
  const access = apiKeyAccess(permissions);
  const organizationWide = organizationApiKeyAccess(permissions);
  const keys = useApiQuery({ key: ACCOUNT_QUERIES.apiKeys, load: () => calls.apiKeys() });
  const [creating, setCreating] = useState(false);
  /** The key just made: the only time its whole token is known. */
  const [created, setCreated] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useSubmit<void>({
    context: 'apiKeys',
    invalidates: [ACCOUNT_QUERIES.apiKeys],
    onSuccess: () => setRevoking(null),
  });

  return (
    <AccountsPanel
      id="api-keys"
      title={API_KEYS_TEXT.title}
      action={
        <AllowedButton allowed={access.canCreate} className="button button-primary" onClick={() => setCreating(true)}>
          {API_KEYS_TEXT.create}
        </AllowedButton>
      }
    >
      <AccountsTable
        answer={keys}
        rows={(data) => data}
        columns={[
          API_KEYS_TEXT.description,
          ...(organizationWide.canRead ? [API_KEYS_TEXT.owner] : []),
          API_KEYS_TEXT.created,
          API_KEYS_TEXT.key,
        ]}
        empty={API_KEYS_TEXT.none}
        renderRow={(key) => (
          <tr key={key.id}>
            <th scope="row">{key.description}</th>
            {organizationWide.canRead && <td title={key.owner?.email}>{key.owner?.name ?? ''}</td>}
            <td>{formatDateTime(key.createdDate, timeZone)}</td>
            <td>
              <code className="accounts-token">{key.token}</code>
            </td>
            <td className="accounts-row-actions">
              <AllowedButton
                allowed={access.canDelete || organizationWide.canDelete}
                aria-label={`${API_KEYS_TEXT.revoke} ${key.description}`}
                onClick={() => {
                  revoke.reset();
                  setRevoking(key);
                }}
              >
                {API_KEYS_TEXT.revoke}
              </AllowedButton>
            </td>
          </tr>
        )}
      />
      {creating && (
        <Modal title={API_KEYS_TEXT.createTitle} onClose={() => setCreating(false)} actions={null}>
          <CreateApiKeyForm
            onCreated={(key) => {
              setCreating(false);
              setCreated(key);
            }}
            onCancel={() => setCreating(false)}
          />
        </Modal>
      )}
      {created && <NewApiKey apiKey={created} onDone={() => setCreated(null)} />}
      {revoking && (
        <ConfirmDialog
          title={API_KEYS_TEXT.revokeTitle(revoking.description)}
          body={API_KEYS_TEXT.revokeBody}
          confirmLabel={API_KEYS_TEXT.revoke}
          pending={revoke.pending}
          failure={revoke.failure}
          onConfirm={() => void revoke.submit(() => calls.revokeApiKey(revoking.id))}
          onCancel={() => setRevoking(null)}
        />
      )}
    </AccountsPanel>
  );
}

/** The description (§5: required, trimmed, 100 at most); the limit's refusal shows under the form (§8). */
function CreateApiKeyForm({ onCreated, onCancel }: { onCreated(key: ApiKey): void; onCancel(): void }) {
  const calls = useAccountCalls();
  const { control, handleSubmit, formState } = useForm<ApiKeyForm>({
    resolver: zodResolver(apiKeyFormSchema),
    defaultValues: { description: '' },
    mode: 'onTouched',
  });
  const create = useSubmit<ApiKey>({ context: 'apiKeys', invalidates: [ACCOUNT_QUERIES.apiKeys], onSuccess: onCreated });
  const submit = handleSubmit((values) => create.submit(() => calls.createApiKey(values.description)));
  return (
    <form className="form accounts-form" noValidate aria-label={API_KEYS_TEXT.createTitle} onSubmit={(event) => void submit(event)}>
      <TextField control={control} name="description" label={API_KEYS_TEXT.description} required autoComplete="off" />
      <FormFooter write={create} dirty={formState.isDirty} onCancel={onCancel} saveLabel={API_KEYS_TEXT.create} />
    </form>
  );
}

/** The new key, shown once: Copy puts it on the clipboard and says 'Copied'; Done forgets it. */
function NewApiKey({ apiKey, onDone }: { apiKey: ApiKey; onDone(): void }) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copyToken = () => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard) {
      setCopy('failed');
      return;
    }
    clipboard.writeText(apiKey.token).then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    );
  };
  return (
    <Modal
      title={API_KEYS_TEXT.newKeyTitle}
      onClose={onDone}
      actions={
        <button type="button" className="button button-primary" onClick={onDone}>
          {API_KEYS_TEXT.done}
        </button>
      }
    >
      <p>{apiKey.description}</p>
      <div className="accounts-new-key">
        <code className="accounts-token" aria-label={API_KEYS_TEXT.key}>
          {apiKey.token}
        </code>
        <button type="button" className="button button-secondary" onClick={copyToken}>
          {API_KEYS_TEXT.copy}
        </button>
        <span role="status">{copy === 'copied' ? API_KEYS_TEXT.copied : copy === 'failed' ? API_KEYS_TEXT.copyFailed : ''}</span>
      </div>
      <p className="field-note">{API_KEYS_TEXT.shownOnce}</p>
    </Modal>
  );
}
