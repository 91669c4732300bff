/**
 * A file download from a signed link (part 2 §7 "Returns file_url"; the link lives 5 minutes).
 * Every click asks for a fresh link; the link is checked with a HEAD first, and one the server
 * refuses (403: expired, or the clock moved on) is asked for again once instead of showing an
 * error (part 2 §2 download links). The browser then downloads it: the server's answer is an
 * attachment, so the page stays where it is.
 */

/** HTTP 403: the signature is expired or no longer valid (server/http/exports/routes.ts GET /files). */
const LINK_REFUSED = 403;

export interface DownloadDeps {
  fetch: typeof fetch;
  /** Starts the browser's download of `url` (an anchor click in the app). */
  open(url: string): void;
}

const browserDeps = (): DownloadDeps => ({
  fetch: (input, init) => fetch(input, init),
  open(url) {
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = '';
    anchor.rel = 'noopener';
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
  },
});

/**
 * Asks `link()` for a signed link and downloads it; a refused link is asked for once more. Rejects
 * with the failure of `link()` (the caller shows its catalogue text) or when the file is gone.
 */
export async function downloadSigned(link: () => Promise<string>, deps: DownloadDeps = browserDeps()): Promise<void> {
  let url = await link();
  let check = await deps.fetch(url, { method: 'HEAD' });
  if (check.status === LINK_REFUSED) {
    url = await link();
    check = await deps.fetch(url, { method: 'HEAD' });
  }
  if (!check.ok) throw new DownloadError(check.status);
  deps.open(url);
}

/** The file could not be fetched (gone: 404). */
export class DownloadError extends Error {
  override readonly name = 'DownloadError';
  constructor(readonly status: number) {
    super(`download failed with status ${status}`);
  }
}
