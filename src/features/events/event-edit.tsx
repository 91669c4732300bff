/**
 * /dashboard/events/{eventId}/edit (part 1 §2, §5, §7, §8): lat, lng and roadway heading
 * of an active, non-geo-marker event, checked by the domain's location schema (lat -90..90, lng
 * -180..180, heading 0..360 and required); Save is disabled until a value changed; PUT
 * /locations/{id}; a 422 is shown under the form with the catalogue's location-update text.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useOutletContext, useParams } from 'react-router-dom';
import { DetailHeader } from '../../app/section/detail-header';
import { itemHref } from '../../app/section/item-href';
import { SubmitFailure } from '../../app/section/item-state';
import { useSubmit } from '../../app/section/use-submit';
import { EVENTS_TEXT, PAGE_TEXT } from '../../domain/labels';
import { showsEditLocation, toLocationPayload, type Location } from '../../domain/location';
import { canEditEvent } from '../../domain/permissions';
import { locationEditText, locationEditTextSchema, type LocationEditForm, type LocationEditText } from '../../domain/validation/location';
import { useLive } from '../../app/live/hooks';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { SaveButton } from '../../app/ui/save-button';
import { TextField } from '../../app/ui/text-field';
import { EventPending } from './event-pending';
import { useEventCalls } from './calls';
import { useEvent } from './use-events';
import './events.css';

function LocationForm({ event }: { event: Location }) {
  const { bridge } = useLive();
  const calls = useEventCalls();
  const { organizationId } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  const detailPath = itemHref('events', event.id);
  const { failure, submit: send } = useSubmit({
    context: 'locationUpdate',
    onSuccess() {
      // The worker's cache takes the new position on its next fetch: ask for it now.
      void bridge?.refresh().catch(() => undefined);
      navigate(detailPath);
    },
  });
  // The form starts from the event as it was when the page opened; later live updates do not overwrite typing.
  // The form kit's fields hold text (`raw`: the resolver checks and keeps the text; the submit reads the numbers).
  const { control, handleSubmit, formState } = useForm<LocationEditText>({
    resolver: zodResolver(locationEditTextSchema, undefined, { raw: true }),
    defaultValues: locationEditText(event),
    mode: 'onTouched',
  });
  const submit = handleSubmit(async (text) => {
    const values: LocationEditForm = locationEditTextSchema.parse(text);
    await send(() => calls.updateLocation(event.id, toLocationPayload(values, organizationId)));
  });
  return (
    <form className="form" noValidate onSubmit={(e) => void submit(e)} aria-labelledby="event-edit-title">
      <TextField control={control} name="lat" required label={EVENTS_TEXT.latitude} type="number" step="any" inputMode="decimal" />
      <TextField control={control} name="lng" required label={EVENTS_TEXT.longitude} type="number" step="any" inputMode="decimal" />
      <TextField
        control={control}
        name="roadwayHeading"
        required
        label={EVENTS_TEXT.roadwayHeading}
        type="number"
        step="any"
        inputMode="decimal"
      />
      <SubmitFailure failure={failure} />
      <div className="event-edit-actions">
        <SaveButton dirty={formState.isDirty} submitting={formState.isSubmitting}>
          {EVENTS_TEXT.save}
        </SaveButton>
        <Link className="button button-secondary" to={detailPath}>
          {EVENTS_TEXT.cancel}
        </Link>
      </div>
    </form>
  );
}

export function EventEdit() {
  const { eventId = '' } = useParams();
  const { profile } = useOutletContext<ShellContext>();
  const lookup = useEvent(eventId);
  const navigate = useNavigate();
  const detailPath = itemHref('events', eventId);
  if (lookup.state !== 'found') {
    return <EventPending className="event-edit" loading={lookup.state === 'loading'} />;
  }
  const { event } = lookup;
  return (
    <section className="event-edit" aria-labelledby="event-edit-title">
      {/* Back to the detail keeps the event targeted. */}
      <DetailHeader
        title={EVENTS_TEXT.editLocation}
        titleId="event-edit-title"
        subtitle={event.displayName}
        onBack={() => navigate(detailPath)}
      />
      {showsEditLocation(event, profile.permissions) ? (
        <LocationForm key={event.id} event={event} />
      ) : (
        // part 1 §2, §6: without incident update the page says the user is not authorized (the
        // spec's unauthorized text); with it, only an ended or geo-marker event is refused.
        <p className="event-muted" role="status">
          {canEditEvent(profile.permissions) ? EVENTS_TEXT.notEditable : PAGE_TEXT.unauthorized}
        </p>
      )}
    </section>
  );
}
