/**
 * The demo's alerting zones changing on the server (part 2 §2 Alerting zones, §4 status): every
 * `periodMs` one zone of the simulated organizations flips `is_active` in the database the
 * GET /organization/alerting_zones reads, so an open zones page sees a zone turn standby (or
 * active) on its next refetch. The zones are taken in turn (by id), so every zone flips in time
 * and two rounds bring each back. Only the organizations given are touched.
 */
import { asc, eq, inArray, not } from 'drizzle-orm';
import { alertingZones } from '../db/schema';
import type { ServerDeps } from '../deps';

/** chosen: one zone flips a minute (`SIM_ZONE_FLIP_MS` sets another period; 0 turns it off). */
export const DEFAULT_ZONE_FLIP_MS = 60_000;

export interface ZoneFlip {
  zoneId: string;
  isActive: boolean;
}

export class ZoneFlipper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private turn = 0;

  constructor(
    private readonly deps: Pick<ServerDeps, 'db' | 'now'>,
    private readonly organizationIds: readonly string[],
  ) {}

  /** Flips the next zone in turn; null when the organizations have none. */
  async flipNext(): Promise<ZoneFlip | null> {
    if (this.organizationIds.length === 0) return null;
    const { db } = this.deps;
    const zones = await db
      .select({ id: alertingZones.id })
      .from(alertingZones)
      .where(inArray(alertingZones.organizationId, [...this.organizationIds]))
      .orderBy(asc(alertingZones.id));
    if (zones.length === 0) return null;
    const zone = zones[this.turn % zones.length]!;
    this.turn += 1;
    const [row] = await db
      .update(alertingZones)
      .set({ isActive: not(alertingZones.isActive), updatedAt: this.deps.now() })
      .where(eq(alertingZones.id, zone.id))
      .returning({ isActive: alertingZones.isActive });
    return row ? { zoneId: zone.id, isActive: row.isActive } : null;
  }

  /** Flips a zone every `periodMs` (0 or less: never); a flip still running is never overlapped. */
  start(periodMs: number): void {
    if (this.timer || periodMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.flipNext()
        .catch((error: unknown) => console.error('zone flip failed', error))
        .finally(() => {
          this.running = null;
        });
    }, periodMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
