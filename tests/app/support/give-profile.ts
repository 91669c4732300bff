/** A signed-in user's profile put straight into the services' session, as GET /profile would. */
import type { AppServices } from '../../../src/app/services';
import { fromProfileWire, profileWireSchema } from '../../../src/domain/profile';

export function giveProfile(services: AppServices, permissions: string[], extra: Record<string, unknown> = {}): void {
  services.session.state.profile = fromProfileWire(
    profileWireSchema.parse({
      id: 'user-1',
      email: 'ada@example.com',
      firstname: 'Ada',
      lastname: 'Lovelace',
      organization_id: 'org-1',
      permissions,
      user_org: { id: 'org-1', name: 'Travis County Regional' },
      ...extra,
    }),
  );
}
