import { watch, type FSWatcher } from 'node:fs';

/** A running folder watch; `close()` stops it and its pending timer. */
export interface FolderWatch {
  close(): void;
}

/**
 * Calls `onChange` once things have been quiet for `debounceMs` after any change under `dir`
 * (recursive `fs.watch`, which Node 20 supports on Linux, macOS and Windows). A watch that
 * fails (the folder removed, too many watches) is reported through `onError` and stops.
 */
export function watchFolder(dir: string, onChange: () => void, { debounceMs, onError }: { debounceMs: number; onError: (error: Error) => void }): FolderWatch {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const close = (): void => {
    clearTimeout(timer);
    timer = undefined;
    watcher?.close();
    watcher = undefined;
  };
  try {
    watcher = watch(dir, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(onChange, debounceMs);
    });
    watcher.on('error', (error) => {
      close();
      onError(error);
    });
  } catch (error) {
    onError(error as Error);
  }
  return { close };
}
