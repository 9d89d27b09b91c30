import { Icon } from '@blueprintjs/core';

/** Where the product video goes once it is recorded: a 16:9 frame with a caption. */
export function VideoPlaceholder({ title }: { title: string }) {
  return (
    <figure className="mrn-video">
      <div className="mrn-video-frame" role="img" aria-label={`${title} (video coming soon)`}>
        <Icon icon="video" size={40} />
        <span>Video coming soon</span>
      </div>
      <figcaption className="bp6-text-muted">{title}</figcaption>
    </figure>
  );
}
