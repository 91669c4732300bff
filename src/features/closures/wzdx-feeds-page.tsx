/**
 * /dashboard/closures/wzdx-feeds (beyond the spec): the organization's subscriptions to other
 * agencies' WZDx 4.x feeds, whose work zones the server imports as feed closures (part 2 §2
 * Closures, §4 closure types; a feed closure is read-only). Each row shows the feed's address,
 * interval, when it was last fetched, its last error in plain words and how many work zones it
 * carried. Add and Edit open a dialog (URL, poll interval, enabled; each rule's text under its
 * field, the server's refusal under the form); Delete asks first; 'Refresh now' fetches the feed at
 * once and the closures list then loads what changed. Writing needs closure manage (or
 * haas:manage), as the server checks.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useNavigate, useOutletContext } from 'react-router-dom';
import { z } from 'zod';
import { userErrorOf } from '../../app/api-client';
import { ConfirmDialog } from '../../app/section/confirm-dialog';
import { DetailHeader } from '../../app/section/detail-header';
import { itemHref } from '../../app/section/item-href';
import { SubmitFailure } from '../../app/section/item-state';
import { useSubmit } from '../../app/section/use-submit';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { useApiQuery } from '../../app/use-api-query';
import { CopyButton } from '../../app/ui/copy-button';
import { Modal } from '../../app/ui/modal';
import { SaveButton } from '../../app/ui/save-button';
import { TextField } from '../../app/ui/text-field';
import { Toggle } from '../../app/ui/toggle';
import type { UserError } from '../../domain/errors';
import { SECTION_TEXT, WZDX_FEEDS_TEXT } from '../../domain/labels';
import type { PermissionList } from '../../domain/permissions';
import { formatDateTime } from '../../domain/time';
import { MESSAGES } from '../../domain/validation/messages';
import {
  canManageWzdxFeeds,
  WZDX_FEED_DEFAULT_INTERVAL_S,
  WZDX_FEED_TEXT,
  wzdxFeedFormSchema,
  type WzdxFeedForm,
  type WzdxFeedSubscription,
} from '../../domain/wzdx-subscription';
import { CLOSURE_QUERIES, useClosureCalls } from './calls';
import { useRefreshClosures } from './use-closures';

/** What the inputs hold: the interval is typed as text and read as whole seconds. */
interface FormInput {
  url: string;
  poll_interval_s: string;
  enabled: boolean;
}

const formSchema = z.object({
  url: wzdxFeedFormSchema.shape.url,
  poll_interval_s: z
    .string()
    .trim()
    .min(1, MESSAGES.required)
    .regex(/^\d+(\.\d+)?$/, WZDX_FEED_TEXT.intervalWhole)
    .transform(Number)
    .pipe(wzdxFeedFormSchema.shape.poll_interval_s),
  enabled: wzdxFeedFormSchema.shape.enabled,
});

function formValues(feed: WzdxFeedSubscription | null): FormInput {
  return {
    url: feed?.url ?? '',
    poll_interval_s: String(feed?.pollIntervalS ?? WZDX_FEED_DEFAULT_INTERVAL_S),
    enabled: feed?.enabled ?? true,
  };
}

export function WzdxFeedsPage() {
  const { profile, organizationId } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  const calls = useClosureCalls();
  const refreshClosures = useRefreshClosures();
  const mayManage = canManageWzdxFeeds(profile.permissions as PermissionList);
  const key = CLOSURE_QUERIES.wzdxFeeds(organizationId);
  const feeds = useApiQuery({ key, load: () => calls.wzdxFeeds(organizationId) });
  const [editing, setEditing] = useState<WzdxFeedSubscription | 'new' | null>(null);
  const [deleting, setDeleting] = useState<WzdxFeedSubscription | null>(null);
  const [refreshing, setRefreshing] = useState<string | null>(null);
  const remove = useSubmit<void>({
    context: 'wzdxFeeds',
    invalidates: [key],
    onSuccess: async () => {
      setDeleting(null);
      await refreshClosures();
    },
  });
  const refresh = useSubmit<WzdxFeedSubscription>({
    context: 'wzdxFeeds',
    invalidates: [key],
    onSuccess: () => refreshClosures(),
  });

  // A WZDx organization publishes its own feed: its address, to hand to the apps that read it.
  const org = useApiQuery({ key: CLOSURE_QUERIES.organization(organizationId), load: () => calls.organization(organizationId) });
  const publishedUrl = `${window.location.origin}/wzdx/${encodeURIComponent(organizationId)}/feed`;

  const refreshNow = async (feed: WzdxFeedSubscription) => {
    setRefreshing(feed.id);
    await refresh.submit(() => calls.refreshWzdxFeed(feed.id));
    setRefreshing(null);
  };

  return (
    <section className="wzdx-feeds" aria-labelledby="wzdx-feeds-title">
      <DetailHeader title={WZDX_FEEDS_TEXT.title} titleId="wzdx-feeds-title" onBack={() => navigate(itemHref('closures'))}>
        {mayManage && (
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            {WZDX_FEEDS_TEXT.add}
          </button>
        )}
      </DetailHeader>
      {org.data?.isWzdxOrg && (
        <section className="wzdx-published" aria-labelledby="wzdx-published-title">
          <h2 id="wzdx-published-title">{WZDX_FEEDS_TEXT.publishedTitle}</h2>
          <p className="field-note">{WZDX_FEEDS_TEXT.publishedNote}</p>
          <p className="wzdx-published-url">
            <a href={publishedUrl} target="_blank" rel="noreferrer">
              {publishedUrl}
            </a>{' '}
            <CopyButton text={publishedUrl} label={WZDX_FEEDS_TEXT.copyPublished} />
          </p>
        </section>
      )}
      <p className="field-note">{WZDX_FEEDS_TEXT.intro}</p>
      <SubmitFailure failure={refresh.failure} />
      <FeedList
        state={feeds.isPending ? 'loading' : feeds.isError ? 'failed' : 'ready'}
        failure={feeds.isError ? userErrorOf(feeds.error, 'wzdxFeeds') : null}
        feeds={feeds.data ?? []}
        timeZone={profile.timezone}
        mayManage={mayManage}
        refreshing={refreshing}
        onEdit={setEditing}
        onRefresh={(feed) => void refreshNow(feed)}
        onDelete={(feed) => {
          remove.reset();
          setDeleting(feed);
        }}
      />
      {editing && (
        <Modal
          title={editing === 'new' ? WZDX_FEEDS_TEXT.addTitle : WZDX_FEEDS_TEXT.editTitle}
          onClose={() => setEditing(null)}
          actions={null}
        >
          <FeedForm
            feed={editing === 'new' ? null : editing}
            send={(form) => (editing === 'new' ? calls.addWzdxFeed(organizationId, form) : calls.updateWzdxFeed(editing.id, form))}
            invalidates={key}
            onDone={() => setEditing(null)}
          />
        </Modal>
      )}
      {deleting && (
        <ConfirmDialog
          title={WZDX_FEEDS_TEXT.deleteTitle(deleting.url)}
          body={WZDX_FEEDS_TEXT.deleteBody}
          confirmLabel={WZDX_FEEDS_TEXT.delete}
          pending={remove.pending}
          failure={remove.failure}
          onConfirm={() => void remove.submit(() => calls.removeWzdxFeed(deleting.id))}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

interface FeedListProps {
  state: 'loading' | 'failed' | 'ready';
  failure: UserError | null;
  feeds: readonly WzdxFeedSubscription[];
  timeZone: string | null;
  mayManage: boolean;
  refreshing: string | null;
  onEdit(feed: WzdxFeedSubscription): void;
  onRefresh(feed: WzdxFeedSubscription): void;
  onDelete(feed: WzdxFeedSubscription): void;
}

function FeedList({ state, failure, feeds, timeZone, mayManage, refreshing, onEdit, onRefresh, onDelete }: FeedListProps) {
  if (state === 'loading') return <p role="status">{SECTION_TEXT.loading}</p>;
  if (state === 'failed') return <p role="alert">{failure?.text}</p>;
  if (feeds.length === 0) return <p className="wzdx-feeds-none">{WZDX_FEEDS_TEXT.none}</p>;
  return (
    <ul className="wzdx-feeds-list" aria-label={WZDX_FEEDS_TEXT.title}>
      {feeds.map((feed) => (
        <li key={feed.id} className="wzdx-feed">
          <p className="wzdx-feed-url">{feed.url}</p>
          <dl className="wzdx-feed-status">
            <div>
              <dt>{WZDX_FEEDS_TEXT.status}</dt>
              <dd>{feed.enabled ? WZDX_FEEDS_TEXT.every(feed.pollIntervalS) : WZDX_FEEDS_TEXT.disabled}</dd>
            </div>
            <div>
              <dt>{WZDX_FEEDS_TEXT.lastFetched}</dt>
              <dd>{feed.lastFetchedAt === null ? WZDX_FEEDS_TEXT.never : formatDateTime(feed.lastFetchedAt, timeZone)}</dd>
            </div>
            <div>
              <dt>{WZDX_FEEDS_TEXT.workZones}</dt>
              <dd>{feed.importedCount}</dd>
            </div>
            <div>
              <dt>{WZDX_FEEDS_TEXT.lastError}</dt>
              <dd className={feed.lastError ? 'wzdx-feed-error' : undefined}>
                {feed.lastError ?? (feed.lastFetchedAt === null ? '—' : WZDX_FEEDS_TEXT.ok)}
              </dd>
            </div>
          </dl>
          {feed.skippedCount > 0 && (
            <details className="wzdx-feed-skipped">
              <summary>{WZDX_FEEDS_TEXT.skipped(feed.skippedCount)}</summary>
              <ul>
                {feed.skipped.map((entry, index) => (
                  <li key={index}>
                    <code>{entry.id}</code> {entry.reason}
                  </li>
                ))}
                {feed.skippedCount > feed.skipped.length && <li>{WZDX_FEEDS_TEXT.skippedMore(feed.skippedCount - feed.skipped.length)}</li>}
              </ul>
            </details>
          )}
          {mayManage && (
            <div className="wzdx-feed-actions" role="group" aria-label={WZDX_FEEDS_TEXT.actions(feed.url)}>
              <button type="button" className="button button-secondary" disabled={refreshing !== null} onClick={() => onRefresh(feed)}>
                {refreshing === feed.id ? WZDX_FEEDS_TEXT.refreshing : WZDX_FEEDS_TEXT.refresh}
              </button>
              <button type="button" className="button button-secondary" onClick={() => onEdit(feed)}>
                {WZDX_FEEDS_TEXT.edit}
              </button>
              <button type="button" className="button button-danger" onClick={() => onDelete(feed)}>
                {WZDX_FEEDS_TEXT.delete}
              </button>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

interface FeedFormProps {
  feed: WzdxFeedSubscription | null;
  send(form: WzdxFeedForm): Promise<WzdxFeedSubscription>;
  invalidates: readonly unknown[];
  onDone(): void;
}

/** Add or edit one subscription: URL, poll interval, enabled. */
function FeedForm({ feed, send, invalidates, onDone }: FeedFormProps) {
  const { control, handleSubmit, formState } = useForm<FormInput>({
    // The inputs' texts in; the resolver hands on the domain's form (trimmed, the interval a number).
    resolver: zodResolver(formSchema as unknown as z.ZodType<FormInput, FormInput>) as unknown as Resolver<FormInput>,
    defaultValues: formValues(feed),
    mode: 'onTouched',
  });
  const save = useSubmit<WzdxFeedSubscription>({ context: 'wzdxFeeds', invalidates: [invalidates], onSuccess: onDone });
  const submit = handleSubmit((values) => save.submit(() => send(values as unknown as WzdxFeedForm)));
  return (
    <form
      className="form wzdx-feed-form"
      noValidate
      aria-label={feed ? WZDX_FEEDS_TEXT.editTitle : WZDX_FEEDS_TEXT.addTitle}
      onSubmit={(event) => void submit(event)}
    >
      <TextField control={control} name="url" label={WZDX_FEEDS_TEXT.url} required type="url" autoComplete="off" maxLength={2100} />
      <TextField control={control} name="poll_interval_s" label={WZDX_FEEDS_TEXT.interval} required inputMode="numeric" />
      <p className="field-note">{WZDX_FEEDS_TEXT.intervalNote}</p>
      <Controller
        control={control}
        name="enabled"
        render={({ field }) => <Toggle label={WZDX_FEEDS_TEXT.enabled} checked={field.value} onChange={field.onChange} />}
      />
      <SubmitFailure failure={save.failure} />
      <div className="wzdx-feed-form-actions">
        <button type="button" className="button button-secondary" onClick={onDone} disabled={save.pending}>
          {SECTION_TEXT.cancel}
        </button>
        <SaveButton dirty={formState.isDirty} submitting={save.pending} />
      </div>
    </form>
  );
}
