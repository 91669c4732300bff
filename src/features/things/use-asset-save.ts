/**
 * The save of both asset edit tabs (part 1 §7 PUT /things/{id}, /associations; §8 asset save):
 * send, let the worker fetch what changed (so the detail shows the saved values at once), go back
 * to the detail; a failure becomes the catalogue's text under the form.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { userErrorOf } from '../../app/api-client';
import { useServices } from '../../app/services';
import type { UserError } from '../../domain/errors';
import { thingHref } from './thing-paths';
import { THING_QUERIES } from './calls';

export function useAssetSave(assetId: string): { failure: UserError | null; save(send: () => Promise<unknown>): Promise<void> } {
  const { live, queries } = useServices();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<UserError | null>(null);
  return {
    failure,
    async save(send) {
      setFailure(null);
      try {
        await send();
        void queries.invalidateQueries({ queryKey: THING_QUERIES.all });
        await live.bridge?.refresh().catch(() => undefined);
        navigate(thingHref(assetId));
      } catch (error) {
        setFailure(userErrorOf(error, 'assetSave'));
      }
    },
  };
}
