/**
 * part 1 §2 shell notices: the offline banner, the dismissible offline-assets notice (remembered
 * in local storage), the version-update alert (GET /version first after 10 s, then every 10
 * minutes) and the WebGL check with browser-specific steps.
 */
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { SUPPORT_EMAIL, VERSION_FIRST_CHECK_MS, VERSION_POLL_MS } from '../../domain/constants';
import { DIALOG_TEXT, OFFLINE_BANNER, offlineAssetsNotice, SHELL_EXTRA_TEXT, UPDATE_NOTIFICATION, WEBGL_STEPS } from '../../domain/labels';
import type { ApiClient } from '../api-client';
import { Modal } from '../ui/modal';
import { browserOf } from './shell-model';
import { useOnline } from './use-media';

export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div className="banner banner-offline" role="alert">
      {OFFLINE_BANNER}
    </div>
  );
}

export const OFFLINE_NOTICE_KEY = 'lightbar.offlineAssetsNotice.dismissed';

export function OfflineAssetsNotice({ offlineAssets }: { offlineAssets: number }) {
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(OFFLINE_NOTICE_KEY) === '1');
  if (dismissed || offlineAssets === 0) return null;
  return (
    <div className="banner banner-info" role="status">
      <span>{offlineAssetsNotice(SUPPORT_EMAIL)}</span>
      <button
        type="button"
        className="button button-secondary"
        onClick={() => {
          localStorage.setItem(OFFLINE_NOTICE_KEY, '1');
          setDismissed(true);
        }}
      >
        {SHELL_EXTRA_TEXT.dismiss}
      </button>
    </div>
  );
}

const versionSchema = z.object({ version: z.string() });

/**
 * Polls GET /version; the first answer is the version this page runs, a later different one
 * opens 'Update Notification', whose OK reloads the page.
 */
export function UpdateAlert({ api, reload = () => window.location.reload() }: { api: ApiClient; reload?: () => void }) {
  const [outdated, setOutdated] = useState(false);
  useEffect(() => {
    let first: string | null = null;
    let poll: ReturnType<typeof setInterval> | null = null;
    const check = async () => {
      try {
        const { version } = await api.request('/version', { schema: versionSchema, auth: false });
        if (first === null) first = version;
        else if (version !== first) setOutdated(true);
      } catch {
        // Offline: the banner says so; try again at the next poll.
      }
    };
    const start = setTimeout(() => {
      void check();
      poll = setInterval(() => void check(), VERSION_POLL_MS);
    }, VERSION_FIRST_CHECK_MS);
    return () => {
      clearTimeout(start);
      if (poll) clearInterval(poll);
    };
  }, [api]);
  if (!outdated) return null;
  return (
    <Modal
      role="alertdialog"
      title={UPDATE_NOTIFICATION.title}
      actions={
        <button type="button" className="button button-primary" onClick={reload}>
          {DIALOG_TEXT.ok}
        </button>
      }
    >
      <p>{UPDATE_NOTIFICATION.body}</p>
    </Modal>
  );
}

export function hasWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    // The probe's context is given back at once: a browser holds only a few (about 16) at a time.
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return Boolean(gl);
  } catch {
    return false;
  }
}

/** Shown instead of the map when the browser lacks WebGL. */
export function WebGLMissing() {
  const browser = browserOf(navigator.userAgent);
  return (
    <section className="webgl-missing" role="dialog" aria-labelledby="webgl-title">
      <h2 id="webgl-title">{SHELL_EXTRA_TEXT.webglTitle}</h2>
      <p>{SHELL_EXTRA_TEXT.webglIntro}</p>
      <p>{WEBGL_STEPS[browser]}</p>
      {browser !== 'other' && <p>{WEBGL_STEPS.other}</p>}
    </section>
  );
}
