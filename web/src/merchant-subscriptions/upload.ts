import { routes, SUBSCRIPTION_TEXTS, SUBSCRIPTION_UPLOAD_MAX_BYTES } from '@mrn/contracts';
import { ApiError } from '../api/api-error.ts';
import { call } from '../api/client.ts';
import { md5Base64 } from './md5.ts';

/** Why a chosen file cannot be uploaded, or null when it can (accounts §5: a .csv of EINs, text/csv). */
export function checkCsvFile(file: { name: string; size: number }): string | null {
  if (!/\.csv$/i.test(file.name)) return 'Choose a .csv file.';
  if (file.size === 0) return 'The file is empty.';
  if (file.size > SUBSCRIPTION_UPLOAD_MAX_BYTES) return 'The file is larger than 10 MB.';
  return null;
}

export type UploadStage = 'checksum' | 'uploading' | 'importing';

/** PUTs the bytes to the direct-upload address, reporting progress (0–1); fetch cannot report it. */
function putWithProgress(
  url: string,
  headers: Record<string, string>,
  bytes: Uint8Array,
  onProgress: (fraction: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      let text: string = SUBSCRIPTION_TEXTS.uploadFailed;
      try {
        const body = JSON.parse(xhr.responseText) as { errors?: unknown };
        if (typeof body.errors === 'string' && body.errors) text = `${text} ${body.errors}`;
      } catch {
        // Not JSON: the plain failure text.
      }
      reject(new ApiError(xhr.status, text));
    };
    xhr.onerror = () => reject(new ApiError(0, SUBSCRIPTION_TEXTS.uploadFailed));
    xhr.onabort = () => reject(new ApiError(0, SUBSCRIPTION_TEXTS.uploadFailed));
    // A fresh ArrayBuffer-backed copy: XHR's body type does not take a view over a shared buffer.
    xhr.send(new Blob([bytes.slice()], { type: headers['Content-Type'] ?? 'text/csv' }));
  });
}

/**
 * The CSV import of accounts §7: the MD5 of the file, a presigned direct upload, the PUT of the bytes
 * (with progress), then the import itself. Resolves with the new import's id.
 */
export async function uploadSubscriptionCsv(
  accountId: string,
  file: File,
  onStage: (stage: UploadStage, progress: number) => void,
): Promise<string> {
  onStage('checksum', 0);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    throw new ApiError(0, SUBSCRIPTION_TEXTS.uploadFailed);
  }
  const presigned = await call(routes.createPresignedUrl, {
    body: {
      file: {
        filename: file.name,
        byte_size: bytes.length,
        checksum: md5Base64(bytes),
        // Browsers label a .csv differently (Windows: application/vnd.ms-excel); the file is text/csv.
        content_type: 'text/csv',
      },
    },
  });
  onStage('uploading', 0);
  await putWithProgress(presigned.direct_upload.url, presigned.direct_upload.headers, bytes, (fraction) =>
    onStage('uploading', fraction),
  );
  onStage('importing', 1);
  const created = await call(routes.createSubscriptionImport, {
    params: { id: accountId },
    body: { file: presigned.signed_id, file_name: file.name, file_size: bytes.length },
  });
  return created.data.id;
}
