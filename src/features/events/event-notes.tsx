/**
 * An incident's acknowledgement and notes on its detail (docs/decisions/spec.md "Incident notes and
 * acknowledgement"): 'Acknowledge' while nobody took it and the user may update incidents, else
 * 'Acknowledged by NAME at TIME'; the notes newest first with author and time in the
 * organization's zone, and a note form (the form kit's text area with its 'n/1000' count). The list
 * is read again when the incident's live message brings a new notes count, and after a post.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import { useLive } from '../../app/live/hooks';
import { queryKey } from '../../app/query-cache';
import { SubmitFailure } from '../../app/section/item-state';
import { useSubmit } from '../../app/section/use-submit';
import { SaveButton } from '../../app/ui/save-button';
import { TextAreaField } from '../../app/ui/text-area-field';
import { useApiQuery } from '../../app/use-api-query';
import { EVENTS_TEXT } from '../../domain/labels';
import { isUnacknowledged, type Location } from '../../domain/location';
import { NOTE_TEXT_MAX, noteTextSchema, type AcknowledgementWire, type UserRef } from '../../domain/location-notes';
import { canEditEvent, type PermissionList } from '../../domain/permissions';
import { formatDateTime, parseTime } from '../../domain/time';
import { useEventCalls } from './calls';

/** The cache key of an incident's notes (what a post invalidates). */
export function locationNotesKey(event: Pick<Location, 'id' | 'organizationId'>) {
  return queryKey('location-notes', event.organizationId, event.id);
}

const noteFormSchema = z.object({ text: noteTextSchema });
type NoteForm = z.input<typeof noteFormSchema>;
const noteResolver = zodResolver(noteFormSchema) as unknown as Resolver<NoteForm>;

interface Props {
  event: Location;
  timeZone: string | null;
  permissions: PermissionList;
}

export function EventAcknowledgement({ event, timeZone, permissions }: Props) {
  const calls = useEventCalls();
  const { bridge } = useLive();
  // The answer of this page's own acknowledgement, shown until the worker's cache has it.
  const [own, setOwn] = useState<AcknowledgementWire | null>(null);
  const { failure, pending, submit } = useSubmit<AcknowledgementWire>({
    context: 'locationNotes',
    onSuccess(answer) {
      setOwn(answer);
      // The worker's cache takes the acknowledgement on its next fetch (or the live message): ask for it now.
      void bridge?.refresh().catch(() => undefined);
    },
  });
  const mine = own?.location_id === event.id ? own : null;
  const at = event.acknowledgedAt ?? parseTime(mine?.acknowledged_at);
  const by: UserRef | null = event.acknowledgedAt !== null ? event.acknowledgedBy : (mine?.acknowledged_by ?? null);
  if (at !== null) {
    return (
      <p className="event-acknowledged" data-testid="event-acknowledged">
        {EVENTS_TEXT.acknowledged(by?.name ?? EVENTS_TEXT.noteAuthorUnknown, formatDateTime(at, timeZone))}
      </p>
    );
  }
  if (!canEditEvent(permissions)) {
    return isUnacknowledged(event) ? <p className="event-unacknowledged">{EVENTS_TEXT.notAcknowledged}</p> : null;
  }
  return (
    <div className="event-acknowledge">
      <button
        type="button"
        className="button button-primary"
        disabled={pending}
        onClick={() => void submit(() => calls.acknowledge(event.id))}
      >
        {EVENTS_TEXT.acknowledge}
      </button>
      <SubmitFailure failure={failure} />
    </div>
  );
}

export function EventNotes({ event, timeZone }: Omit<Props, 'permissions'>) {
  const calls = useEventCalls();
  const { bridge } = useLive();
  const key = locationNotesKey(event);
  // The notes count in the key: another user's note (the live 'location' message) asks again.
  const notes = useApiQuery({ key: [...key, event.notesCount], load: () => calls.notes(event.id) });
  const { control, handleSubmit, formState, reset } = useForm<NoteForm>({
    resolver: noteResolver,
    defaultValues: { text: '' },
    mode: 'onTouched',
  });
  const { failure, submit: send } = useSubmit({
    context: 'locationNotes',
    invalidates: [key],
    onSuccess() {
      reset({ text: '' });
      void bridge?.refresh().catch(() => undefined);
    },
  });
  const post = handleSubmit(async (values) => {
    await send(() => calls.addNote(event.id, values.text));
  });
  const list = notes.data ?? [];
  return (
    <section className="event-notes" aria-labelledby="event-notes-title">
      <h2 id="event-notes-title">{EVENTS_TEXT.notes}</h2>
      <form className="form event-note-form" noValidate onSubmit={(e) => void post(e)}>
        <TextAreaField control={control} name="text" label={EVENTS_TEXT.newNote} maxLength={NOTE_TEXT_MAX} rows={2} />
        <SubmitFailure failure={failure} />
        <SaveButton dirty={formState.isDirty} submitting={formState.isSubmitting}>
          {EVENTS_TEXT.addNote}
        </SaveButton>
      </form>
      {notes.isSuccess && list.length === 0 && <p className="event-notes-none">{EVENTS_TEXT.noNotes}</p>}
      {notes.isError && <p className="form-alert form-alert-error">{notes.error.userError.text}</p>}
      {list.length > 0 && (
        <ol className="event-notes-list">
          {list.map((note) => (
            <li key={note.id} className="event-note" data-note-id={note.id}>
              <p className="event-note-meta">
                <span className="event-note-author">{note.author?.name ?? EVENTS_TEXT.noteAuthorUnknown}</span>{' '}
                <time dateTime={new Date(note.createdAt).toISOString()}>{formatDateTime(note.createdAt, timeZone)}</time>
              </p>
              <p className="event-note-text">{note.text}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
