import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The generated files (export CSVs, monthly report PDFs) under `${dataDir}/files`, one file per
 * id `<uuid>.csv` or `<uuid>.pdf`. An id is the whole name: anything that is not exactly a
 * lower-case uuid with one of the two extensions is refused before a path is built, so no id can
 * reach outside the folder ('../', absolute paths, NUL bytes, other extensions).
 */
export const FILE_KINDS = {
  csv: { extension: '.csv', contentType: 'text/csv; charset=utf-8' },
  pdf: { extension: '.pdf', contentType: 'application/pdf' },
} as const;
export type FileKind = keyof typeof FILE_KINDS;

/** A file being written is `<fileId>.<pid>.<uuid>.tmp` until it is renamed into place. */
const TEMP_SUFFIX = '.tmp';

const FILE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(csv|pdf)$/;

export function isFileId(value: string): boolean {
  return FILE_ID_PATTERN.test(value);
}

/** The kind of a valid id, else null. */
export function fileKind(fileId: string): FileKind | null {
  const match = FILE_ID_PATTERN.exec(fileId);
  return match ? (match[1] as FileKind) : null;
}

export interface FileStore {
  readonly dir: string;
  /** A fresh id of the kind. */
  newId(kind: FileKind): string;
  /** The absolute path of an id, or null for anything that is not a valid id. */
  pathOf(fileId: string): string | null;
  /** Writes the whole file atomically (a temporary file, then a rename). */
  write(fileId: string, data: string | Uint8Array): Promise<void>;
  /** Opens a temporary file to stream into; `commit` moves it into place, `abort` removes it. */
  createWriter(fileId: string): { stream: fs.WriteStream; commit(): Promise<void>; abort(): Promise<void> };
  exists(fileId: string): Promise<boolean>;
  /** The file's bytes, or null when it is missing or the id is invalid. */
  read(fileId: string): Promise<Buffer | null>;
  /** A stream of the file and its size, or null when it is missing or the id is invalid. */
  open(fileId: string): Promise<{ stream: fs.ReadStream; size: number } | null>;
  remove(fileId: string): Promise<void>;
  /**
   * Removes the file and every temporary part of it (`<fileId>.<pid>.<uuid>.tmp`), whoever wrote
   * them: what a process that died while writing the file left behind.
   */
  removeWithPartials(fileId: string): Promise<void>;
}

export function filesDir(dataDir: string): string {
  return path.join(dataDir, 'files');
}

export function createFileStore(dataDir: string): FileStore {
  const dir = filesDir(dataDir);

  function pathOf(fileId: string): string | null {
    if (!isFileId(fileId)) return null;
    const full = path.resolve(dir, fileId);
    // Belt and braces: the pattern already rules out separators.
    return path.dirname(full) === path.resolve(dir) ? full : null;
  }

  function requirePath(fileId: string): string {
    const full = pathOf(fileId);
    if (!full) throw new Error(`invalid file id ${JSON.stringify(fileId)}`);
    return full;
  }

  const tempPath = (full: string) => `${full}.${process.pid}.${randomUUID()}${TEMP_SUFFIX}`;

  return {
    dir,
    newId: (kind) => `${randomUUID()}${FILE_KINDS[kind].extension}`,
    pathOf,
    async write(fileId, data) {
      const full = requirePath(fileId);
      await fs.promises.mkdir(dir, { recursive: true });
      const temp = tempPath(full);
      try {
        await fs.promises.writeFile(temp, data);
        await fs.promises.rename(temp, full);
      } catch (error) {
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
    },
    createWriter(fileId) {
      const full = requirePath(fileId);
      fs.mkdirSync(dir, { recursive: true });
      const temp = tempPath(full);
      const stream = fs.createWriteStream(temp);
      const closed = () =>
        new Promise<void>((resolve, reject) => {
          if (stream.closed) return resolve();
          stream.once('error', reject);
          stream.end(() => resolve());
        });
      return {
        stream,
        async commit() {
          await closed();
          await fs.promises.rename(temp, full);
        },
        async abort() {
          stream.destroy();
          await fs.promises.rm(temp, { force: true });
        },
      };
    },
    async exists(fileId) {
      const full = pathOf(fileId);
      if (!full) return false;
      try {
        return (await fs.promises.stat(full)).isFile();
      } catch {
        return false;
      }
    },
    async read(fileId) {
      const full = pathOf(fileId);
      if (!full) return null;
      try {
        return await fs.promises.readFile(full);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async open(fileId) {
      const full = pathOf(fileId);
      if (!full) return null;
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(full, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return null;
      }
      return { stream: handle.createReadStream(), size: stat.size };
    },
    async remove(fileId) {
      const full = pathOf(fileId);
      if (full) await fs.promises.rm(full, { force: true });
    },
    async removeWithPartials(fileId) {
      const full = pathOf(fileId);
      if (!full) return;
      await fs.promises.rm(full, { force: true });
      let names: string[];
      try {
        names = await fs.promises.readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      const partials = names.filter((name) => name.startsWith(`${fileId}.`) && name.endsWith(TEMP_SUFFIX));
      await Promise.all(partials.map((name) => fs.promises.rm(path.join(dir, name), { force: true })));
    },
  };
}
