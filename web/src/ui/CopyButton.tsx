import { Button, Tooltip } from '@blueprintjs/core';
import { useEffect, useState } from 'react';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API missing (insecure context) or refused: fall back to a selected text area.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** Copies a value to the clipboard; the tooltip says when it worked. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Tooltip content={copied ? 'Copied' : label} isOpen={copied ? true : undefined} placement="top">
      <Button
        variant="minimal"
        icon={copied ? 'tick' : 'duplicate'}
        aria-label={label}
        onClick={() => void copyText(text).then(setCopied)}
      />
    </Tooltip>
  );
}
