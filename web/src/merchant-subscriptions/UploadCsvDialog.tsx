import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FileInput,
  Intent,
  ProgressBar,
} from '@blueprintjs/core';
import { routes, SUBSCRIPTION_TEXTS } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { invalidateApiPaths } from '../api/invalidate.ts';
import { showError, showSuccess } from '../ui/toaster.ts';
import { useReturnFocus } from '../ui/use-return-focus.ts';
import { formatFileSize } from './file-size.ts';
import { checkCsvFile, type UploadStage, uploadSubscriptionCsv } from './upload.ts';

const STAGE_TEXT: Record<UploadStage, string> = {
  checksum: 'Preparing the file…',
  uploading: 'Uploading…',
  importing: 'Starting the import…',
};

/** Upload CSV: directions, a .csv chooser, then checksum, direct upload with progress and the import. */
export function UploadCsvDialog({
  accountId,
  isOpen,
  onClose,
  onUploaded,
}: {
  accountId: string;
  isOpen: boolean;
  onClose: () => void;
  onUploaded: () => void;
}) {
  const queryClient = useQueryClient();
  const directionsId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [stage, setStage] = useState<{ stage: UploadStage; progress: number } | null>(null);
  const busy = stage !== null;

  const reset = () => {
    setFile(null);
    setProblem(null);
    setStage(null);
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setProblem('Choose a .csv file.');
      return;
    }
    const invalid = checkCsvFile(file);
    if (invalid) {
      setProblem(invalid);
      return;
    }
    try {
      await uploadSubscriptionCsv(accountId, file, (next, progress) => setStage({ stage: next, progress }));
      showSuccess(`${file.name} has been uploaded. Its EINs are being imported.`);
      void invalidateApiPaths(queryClient, [routes.listSubscriptionImports.path]);
      reset();
      onUploaded();
    } catch (error) {
      setStage(null);
      const text = error instanceof Error && error.message ? error.message : SUBSCRIPTION_TEXTS.uploadFailed;
      showError(
        text.startsWith(SUBSCRIPTION_TEXTS.uploadFailed)
          ? text
          : `${SUBSCRIPTION_TEXTS.uploadFailed} ${text}`,
      );
    }
  };

  const returnFocus = useReturnFocus(isOpen);
  return (
    <Dialog
      {...returnFocus}
      title="Upload CSV"
      icon="upload"
      isOpen={isOpen}
      onClose={close}
      className="mrn-dialog"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogBody>
          <div id={directionsId} className="mrn-subs-directions">
            <p>Subscribe to many merchants at once with a CSV file:</p>
            <ul>
              <li>One EIN per line, in the first column; a header line is allowed.</li>
              <li>Each EIN has 9 digits; dashes and spaces are allowed (12-3456789).</li>
              <li>A .csv file of at most 10 MB.</li>
            </ul>
            <p>
              EINs already subscribed or repeated in the file are skipped; the results of each row can be
              downloaded from Uploads once the file is processed.
            </p>
          </div>
          <FileInput
            fill
            text={file ? file.name : 'Choose a .csv file…'}
            buttonText="Browse"
            hasSelection={file !== null}
            disabled={busy}
            inputProps={{
              accept: '.csv,text/csv',
              'aria-label': 'CSV file',
              'aria-describedby': directionsId,
            }}
            onInputChange={(event) => {
              const chosen = event.currentTarget.files?.[0] ?? null;
              setFile(chosen);
              setProblem(chosen ? checkCsvFile(chosen) : null);
            }}
          />
          {file && !problem && (
            <p className="mrn-subs-file-size bp6-text-muted">{formatFileSize(file.size)}</p>
          )}
          {problem && (
            <Callout intent={Intent.DANGER} icon="error" role="alert" className="mrn-subs-problem">
              {problem}
            </Callout>
          )}
          {stage && (
            <div className="mrn-subs-progress" role="status">
              <span>
                {STAGE_TEXT[stage.stage]}
                {stage.stage === 'uploading' ? ` ${Math.round(stage.progress * 100)}%` : ''}
              </span>
              <ProgressBar
                intent={Intent.PRIMARY}
                value={
                  stage.stage === 'uploading' && stage.progress > 0
                    ? stage.progress
                    : stage.stage === 'importing'
                      ? 1
                      : undefined
                }
                animate={stage.stage !== 'importing'}
                aria-label="Upload progress"
              />
            </div>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={close} disabled={busy} />
              <Button
                type="submit"
                intent={Intent.PRIMARY}
                icon="upload"
                text="Upload"
                disabled={busy || !file || problem !== null}
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
