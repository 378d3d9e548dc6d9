// The video of a detail dialog, with spec §8's playback errors: a network failure ("check the
// network") and a browser without video support, each with a way to try again.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

type PlaybackError = 'network' | 'unsupported' | null;

function supportsMp4(): boolean {
  if (typeof document === 'undefined') return false;
  const video = document.createElement('video');
  return typeof video.canPlayType === 'function' && video.canPlayType('video/mp4') !== '';
}

function sameOrigin(src: string): boolean {
  try {
    return new URL(src, location.href).origin === location.origin;
  } catch {
    return false;
  }
}

export function VideoPlayer({ src, poster, label }: { src: string; poster: string | null; label: string }) {
  const { t } = useTranslation();
  const [error, setError] = useState<PlaybackError>(() => (supportsMp4() ? null : 'unsupported'));
  const [attempt, setAttempt] = useState(0);
  if (error) {
    return (
      <div className="history-player history-player--error" role="alert" data-testid="playback-error" data-error={error}>
        <p>{t(error === 'network' ? 'history.playbackFailed' : 'history.videoUnsupported')}</p>
        {error === 'network' ? (
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => {
              setError(null);
              setAttempt((n) => n + 1);
            }}
          >
            {t('history.retry')}
          </button>
        ) : null}
      </div>
    );
  }
  return (
    <video
      key={attempt}
      className="history-player"
      src={src}
      poster={poster ?? undefined}
      controls
      playsInline
      preload="metadata"
      // A same-origin file is fetched in CORS mode: Chromium's player refuses the service worker's
      // byte ranges of a kept video (lib/offline/kept-videos.ts) for a no-cors request after the
      // first ("data source error"). Another origin's files keep the plain request they need.
      crossOrigin={sameOrigin(src) ? 'anonymous' : undefined}
      aria-label={label}
      data-testid="video-player"
      onError={() => {
        // Chromium reports a source that could not be fetched as "not supported" too: with MP4
        // support present, any failure is the network's (or the file's), worth a retry.
        setError(supportsMp4() ? 'network' : 'unsupported');
      }}
    />
  );
}
