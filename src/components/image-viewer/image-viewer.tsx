// Spec §2's image viewer dialog: zoom, rotate, drag, download and a text field for fine-tuning
// the copy that goes with the image. Scroll or pinch zooms, drag moves, arrow keys rotate, Esc
// closes, R resets. Modal: focus stays inside and returns to the opener on close.
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useFocusTrap } from './use-focus-trap';
import { usePanZoomGestures } from './use-pan-zoom-gestures';
import { isTypingTarget, viewerActionForKey, type ViewerAction } from './viewer-keys';
import { copyPlainText } from '../../lib/clipboard';
import {
  IDENTITY,
  VIEWER_LIMITS,
  ZOOM_STEP,
  clampPan,
  fittedSize,
  rotateBy,
  toCssTransform,
  zoomTo,
  type Size,
  type ViewTransform,
} from './viewer-transform';
import './image-viewer.css';

export interface ImageViewerProps {
  open: boolean;
  src: string;
  alt: string;
  onClose: () => void;
  /** Title bar text; defaults to the alt text. */
  title?: string;
  /** Name for the downloaded file; the default download is a link to src. */
  fileName?: string;
  /** Replaces the link download, e.g. to save a Blob kept in IndexedDB. */
  onDownload?: () => void;
  /** Result metadata (model, scale, size, time) shown beside the image. */
  details?: ReactNode;
  /** The copy text to fine-tune; the field is shown when this or onCopyTextChange is given. */
  copyText?: string;
  onCopyTextChange?: (text: string) => void;
  /** Saves the copy text with the image (a Save button is shown when given). */
  onSaveCopyText?: (text: string) => Promise<CopySaveOutcome>;
}

/** What saving the copy text came to: saved, kept on the device until online, retrying, or refused. */
export type CopySaveOutcome =
  | { status: 'saved' }
  | { status: 'queued' }
  | { status: 'retrying'; message: string }
  | { status: 'refused'; message: string };

export function ImageViewer(props: ImageViewerProps) {
  if (!props.open || typeof document === 'undefined') return null;
  return createPortal(<ViewerDialog {...props} />, document.body);
}

function ViewerDialog({
  src,
  alt,
  onClose,
  title,
  fileName,
  onDownload,
  details,
  copyText,
  onCopyTextChange,
  onSaveCopyText,
}: ImageViewerProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const copyId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement | null>(null);
  const [view, setView] = useState<ViewTransform>(IDENTITY);
  const [natural, setNatural] = useState<Size>({ width: 0, height: 0 });
  const [box, setBox] = useState<Size>({ width: 0, height: 0 });
  const [draft, setDraft] = useState(copyText ?? '');
  const [copyStatus, setCopyStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [saveState, setSaveState] = useState<CopySaveOutcome | { status: 'idle' | 'saving' | 'error' }>({ status: 'idle' });
  const showCopy = copyText !== undefined || onCopyTextChange !== undefined || onSaveCopyText !== undefined;

  useFocusTrap(dialogRef, true);

  useEffect(() => setDraft(copyText ?? ''), [copyText]);

  // The page behind must not scroll while the dialog is open (iPad rubber-banding included).
  useEffect(() => {
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previous;
    };
  }, []);

  const base = fittedSize(natural, box, view.rotation);

  const update = useCallback(
    (next: ViewTransform) => setView(clampPan(next, fittedSize(natural, box, next.rotation), box)),
    [natural, box],
  );

  const gestureRef = usePanZoomGestures<HTMLDivElement>({
    transform: view,
    onChange: update,
    limits: VIEWER_LIMITS,
  });
  const setStage = useCallback(
    (element: HTMLDivElement | null) => {
      stageRef.current = element;
      gestureRef(element);
    },
    [gestureRef],
  );

  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const measure = () => setBox({ width: stage.clientWidth, height: stage.clientHeight });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(stage);
    return () => observer.disconnect();
  }, []);

  const apply = (action: ViewerAction) => {
    switch (action) {
      case 'close':
        onClose();
        break;
      case 'rotateLeft':
        update(rotateBy(view, -1));
        break;
      case 'rotateRight':
        update(rotateBy(view, 1));
        break;
      case 'reset':
        setView(IDENTITY);
        break;
      case 'zoomIn':
        update(zoomTo(view, view.scale * ZOOM_STEP, VIEWER_LIMITS));
        break;
      case 'zoomOut':
        update(zoomTo(view, view.scale / ZOOM_STEP, VIEWER_LIMITS));
        break;
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const action = viewerActionForKey(event.key, isTypingTarget(event.target));
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    apply(action);
  };

  const saveCopyText = async () => {
    if (!onSaveCopyText) return;
    setSaveState({ status: 'saving' });
    try {
      setSaveState(await onSaveCopyText(draft));
    } catch {
      setSaveState({ status: 'error' });
    }
  };
  const saveMessage =
    saveState.status === 'saved'
      ? t('imageProcessing.viewer.copySaved')
      : saveState.status === 'queued'
        ? t('imageProcessing.viewer.copyQueued')
        : saveState.status === 'retrying'
          ? t('imageProcessing.viewer.copyRetrying', { message: saveState.message })
          : saveState.status === 'refused'
            ? t('imageProcessing.viewer.copyRefused', { message: saveState.message })
            : saveState.status === 'error'
              ? t('imageProcessing.viewer.copyRefused', { message: '' })
              : '';

  const copyToClipboard = async () => {
    try {
      await copyPlainText(draft);
      setCopyStatus('copied');
    } catch {
      setCopyStatus('failed');
    }
  };

  // Rotation is applied on the image, so the image element keeps its unrotated fitted size.
  const imageStyle = {
    width: base.width || undefined,
    height: base.height || undefined,
    transform: `translate(-50%, -50%) ${toCssTransform(view)}`,
  };

  return (
    <div className="image-viewer__backdrop">
      <div
        ref={dialogRef}
        className="image-viewer"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-testid="image-viewer"
      >
        <header className="image-viewer__bar">
          <h2 id={titleId} className="image-viewer__title">
            {title ?? alt}
          </h2>
          <div className="image-viewer__tools" role="toolbar" aria-label={t('imageProcessing.viewer.tools')}>
            <button
              type="button"
              onClick={() => apply('zoomOut')}
              aria-label={t('imageProcessing.viewer.zoomOut')}
              title="−"
            >
              −
            </button>
            <output
              className="image-viewer__zoom"
              aria-live="polite"
              aria-label={t('imageProcessing.viewer.zoomLevel')}
            >
              {Math.round(view.scale * 100)}%
            </output>
            <button
              type="button"
              onClick={() => apply('zoomIn')}
              aria-label={t('imageProcessing.viewer.zoomIn')}
              title="+"
            >
              +
            </button>
            <button
              type="button"
              onClick={() => apply('rotateLeft')}
              aria-label={t('imageProcessing.viewer.rotateLeft')}
              title="←"
            >
              ⟲
            </button>
            <button
              type="button"
              onClick={() => apply('rotateRight')}
              aria-label={t('imageProcessing.viewer.rotateRight')}
              title="→"
            >
              ⟳
            </button>
            <button
              type="button"
              onClick={() => apply('reset')}
              aria-label={t('imageProcessing.viewer.reset')}
              title="R"
            >
              1:1
            </button>
            {onDownload ? (
              <button type="button" onClick={onDownload} aria-label={t('imageProcessing.viewer.download')}>
                ⤓
              </button>
            ) : (
              <a
                className="image-viewer__download"
                href={src}
                download={fileName ?? ''}
                aria-label={t('imageProcessing.viewer.download')}
              >
                ⤓
              </a>
            )}
            <button
              type="button"
              onClick={onClose}
              aria-label={t('imageProcessing.viewer.close')}
              title="Esc"
              data-autofocus=""
            >
              ✕
            </button>
          </div>
        </header>
        <div className="image-viewer__body">
          <div ref={setStage} className="image-viewer__stage" data-testid="image-viewer-stage">
            <img
              className="image-viewer__image"
              src={src}
              alt={alt}
              draggable={false}
              style={imageStyle}
              onLoad={(event) =>
                setNatural({
                  width: event.currentTarget.naturalWidth,
                  height: event.currentTarget.naturalHeight,
                })
              }
            />
            <p className="image-viewer__hint">{t('imageProcessing.viewer.hint')}</p>
          </div>
          {(details || showCopy) && (
            <aside className="image-viewer__side">
              {details && <div className="image-viewer__details">{details}</div>}
              {showCopy && (
                <div className="image-viewer__copy">
                  <label htmlFor={copyId}>{t('imageProcessing.viewer.copyLabel')}</label>
                  <textarea
                    id={copyId}
                    value={draft}
                    rows={5}
                    placeholder={t('imageProcessing.viewer.copyPlaceholder')}
                    onChange={(event) => {
                      setDraft(event.target.value);
                      setCopyStatus('idle');
                      setSaveState({ status: 'idle' });
                      onCopyTextChange?.(event.target.value);
                    }}
                  />
                  <div className="image-viewer__copy-actions">
                    <button
                      type="button"
                      className="btn btn--ghost"
                      onClick={() => void copyToClipboard()}
                      disabled={!draft}
                    >
                      {t('imageProcessing.viewer.copyButton')}
                    </button>
                    {onSaveCopyText ? (
                      <button
                        type="button"
                        className="btn btn--primary"
                        onClick={() => void saveCopyText()}
                        disabled={saveState.status === 'saving' || (draft === (copyText ?? '') && saveState.status === 'idle')}
                        data-testid="viewer-save-copy"
                      >
                        {t('imageProcessing.viewer.copySave')}
                      </button>
                    ) : null}
                    <span
                      role="status"
                      className={copyStatus === 'failed' ? 'image-viewer__copy-error' : undefined}
                    >
                      {copyStatus === 'copied'
                        ? t('imageProcessing.viewer.copied')
                        : copyStatus === 'failed'
                          ? t('imageProcessing.viewer.copyFailed')
                          : ''}
                    </span>
                  </div>
                  <div
                    role="status"
                    className={saveState.status === 'refused' || saveState.status === 'error' ? 'image-viewer__copy-error' : undefined}
                    data-testid="viewer-save-status"
                    data-status={saveState.status}
                  >
                    {saveMessage}
                  </div>
                </div>
              )}
            </aside>
          )}
        </div>
      </div>
    </div>
  );
}
