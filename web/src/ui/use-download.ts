import { useState } from 'react';
import { ApiError } from '../api/api-error.ts';
import { showError } from './toaster.ts';

/**
 * A file the user asked for (an export, a report), fetched with the session token: which one is on its
 * way (its button shows a spinner), and a failure told in a toast. A 401 says nothing more: the sign-in
 * page is already on its way.
 */
export function useDownload<K extends string = 'file'>() {
  const [downloading, setDownloading] = useState<K | null>(null);
  const download = async (key: K, fetchFile: () => Promise<unknown>): Promise<void> => {
    setDownloading(key);
    try {
      await fetchFile();
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401))
        showError(error instanceof Error ? error.message : String(error));
    } finally {
      setDownloading(null);
    }
  };
  return { downloading, download };
}
