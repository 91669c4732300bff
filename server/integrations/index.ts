/** The fleet telematics providers' adapters (part 2 §9), one per provider, at the configured base URLs. */
import type { IntegrationProvider } from '../../src/domain/constants';
import type { ProviderUrls } from '../config';
import { geotabAdapter } from './geotab';
import type { ProviderAdapter } from './provider';
import { samsaraAdapter } from './samsara';

export type { ProviderAdapter, ProviderCheck } from './provider';
export { PROVIDER_TIMEOUT_MS } from './provider';

export function providerAdapters(urls: ProviderUrls): Readonly<Record<IntegrationProvider, ProviderAdapter>> {
  return { samsara: samsaraAdapter(urls.samsara), geotab: geotabAdapter(urls.geotab) };
}
