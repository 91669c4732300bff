/**
 * The real live engine and bridge for component tests, without a worker: the engine
 * (`createLiveEngine`) is exposed with Comlink on one end of a MessageChannel and the real bridge
 * (`createLiveBridge`) wraps the other end, so diffs travel as they do in the browser (typed
 * arrays, transferred). Its REST calls go to the test's fetch (FakeApi answers the worker's
 * calls); its socket is a `FakeCable` the test pushes ActionCable messages through.
 */
import * as Comlink from 'comlink';
import { waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { LiveMessageInput } from '../../../src/domain/live-message';
import { createLiveBridge, type LiveBridge } from '../../../src/app/live/bridge';
import { createLiveEngine } from '../../../src/workers/live-engine';
import type { SocketLike } from '../../../src/workers/socket-client';
import { ORG, TOKEN, type FakeApi } from '../../support/live-fixtures';

const OPEN = 1;
const CLOSED = 3;
const PING_EVERY_MS = 3_000;

class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  identifier: string | null = null;
  private ping: ReturnType<typeof setInterval> | null = null;

  constructor() {
    setTimeout(() => {
      if (this.readyState !== 0) return;
      this.readyState = OPEN;
      this.onopen?.({});
      this.frame({ type: 'welcome' });
      this.ping = setInterval(() => this.frame({ type: 'ping', message: Math.floor(Date.now() / 1000) }), PING_EVERY_MS);
    }, 0);
  }

  frame(data: unknown): void {
    if (this.readyState === OPEN) this.onmessage?.({ data: JSON.stringify(data) });
  }

  send(data: string): void {
    const command = JSON.parse(data) as { command: string; identifier: string };
    if (command.command === 'subscribe') {
      this.identifier = command.identifier;
      setTimeout(() => this.frame({ type: 'confirm_subscription', identifier: command.identifier }), 0);
    }
  }

  close(): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    if (this.ping) clearInterval(this.ping);
    this.onclose?.({ code: 1000 });
  }
}

/** The socket side the test controls: `send` delivers a message on the live subscription. */
export class FakeCable {
  readonly sockets: FakeSocket[] = [];

  readonly open = (_url: string, _protocols: string[]): SocketLike => {
    const socket = new FakeSocket();
    this.sockets.push(socket);
    return socket;
  };

  get subscribed(): boolean {
    return this.current?.identifier != null;
  }

  private get current(): FakeSocket | undefined {
    return this.sockets.at(-1);
  }

  send(message: LiveMessageInput): void {
    const socket = this.current;
    if (!socket?.identifier) throw new Error('no live subscription yet');
    socket.frame({ identifier: socket.identifier, message });
  }

  closeAll(): void {
    for (const socket of this.sockets) socket.close();
  }
}

export interface InProcessLive {
  cable: FakeCable;
  createBridge: (onUnauthorized: () => void) => LiveBridge;
}

/** A `createBridge` for `createAppServices` running the real engine in this thread. */
export function inProcessLive(fetch: (input: string, init: RequestInit) => Promise<Response>): InProcessLive {
  const cable = new FakeCable();
  return {
    cable,
    createBridge(onUnauthorized) {
      const { port1, port2 } = new MessageChannel();
      Comlink.expose(createLiveEngine({ fetch, openSocket: cable.open }), port1);
      const worker = Object.assign(port2, {
        terminate() {
          port1.close();
          port2.close();
          cable.closeAll();
        },
      }) as unknown as Worker;
      return createLiveBridge({ createWorker: () => worker, signals: null, storage: null, onUnauthorized });
    },
  };
}

/** Where `startPollingLive` serves FakeApi. */
export const POLLING_LIVE_BASE = 'http://api.test';

/**
 * The real engine and bridge over `api` (at POLLING_LIVE_BASE), started for ORG as a large
 * organization (it polls: no socket), once `assets` assets and the first events are in. `fetch`
 * reaches the same API, for the app's services.
 */
export async function startPollingLive(api: FakeApi, assets: number): Promise<{ bridge: LiveBridge; fetch: typeof fetch }> {
  const fetchHere = ((input: RequestInfo | URL, init?: RequestInit) =>
    api.fetch(new URL(String(input), POLLING_LIVE_BASE).href, init ?? {})) as typeof fetch;
  const bridge = inProcessLive((input, init) => fetchHere(input, init)).createBridge(() => undefined);
  await bridge.start({ apiBase: POLLING_LIVE_BASE, socketUrl: 'ws://api.test/cable', token: TOKEN, organizationId: ORG, largeOrg: true });
  await waitFor(
    () => expect(bridge.store.phase === 'live' && bridge.store.total === assets && bridge.store.events.version > 0).toBe(true),
    { timeout: 5_000 },
  );
  return { bridge, fetch: fetchHere };
}
