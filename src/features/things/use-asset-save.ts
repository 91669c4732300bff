/**
 * The save of both asset edit tabs (part 1 §7 PUT /things/{id}, /associations; §8 asset save),
 * through the kit's useSubmit: send, let the worker fetch what changed (so the detail shows the
 * saved values at once), go back to the detail; a failure becomes the catalogue's text under the form.
 */
import { useNavigate } from 'react-router-dom';
import { useLive } from '../../app/live/hooks';
import { useSubmit } from '../../app/section/use-submit';
import type { UserError } from '../../domain/errors';
import { THING_QUERIES } from './calls';
import { thingHref } from './thing-paths';

export function useAssetSave(assetId: string): { failure: UserError | null; save(send: () => Promise<unknown>): Promise<void> } {
  const { bridge } = useLive();
  const navigate = useNavigate();
  const { failure, submit } = useSubmit({
    context: 'assetSave',
    invalidates: [THING_QUERIES.all],
    async onSuccess() {
      await bridge?.refresh().catch(() => undefined);
      navigate(thingHref(assetId));
    },
  });
  return {
    failure,
    async save(send) {
      await submit(send);
    },
  };
}
