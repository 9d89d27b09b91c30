import { Button, Callout, Intent } from '@blueprintjs/core';

export function IdleWarningBanner({ secondsLeft, onStay }: { secondsLeft: number; onStay: () => void }) {
  return (
    <div className="mrn-idle-banner" role="alert">
      <Callout intent={Intent.WARNING} icon="time" title="Are you still there?">
        <p>
          You have been inactive for a while. You will be signed out in {secondsLeft}{' '}
          {secondsLeft === 1 ? 'second' : 'seconds'}.
        </p>
        <Button intent={Intent.WARNING} text="Stay signed in" onClick={onStay} />
      </Callout>
    </div>
  );
}
