// Spec §2/§3 image detail: user prompt, uploaded model and pattern images, moments text, video
// prompts, created time, size, style, model; copy, download, the image viewer, the videos made
// from it and its lineage (the request it came from, its source and its regenerations).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { useQueryClient } from '@tanstack/react-query';
import { saveMomentsText } from '../../../lib/offline/moments-text';
import { currentUserKey } from '../../../lib/offline/user-key';
import { useSession } from '../../../lib/session/use-session';
import { queryKeys } from '../../../lib/query/query-keys';
import { ImageViewer } from '../../../components/image-viewer/image-viewer';
import { Spinner } from '../../../components/spinner';
import { useImageDetail } from '../api/history-detail-query';
import { useHistoryList } from '../api/history-list-query';
import { mergePages } from '../model/history-pages';
import { downloadFile, fileNameOf } from '../model/save-file';
import { workflowLinkFor } from '../model/workflow-link';
import { DetailBody } from './detail-body';
import { CollectionField } from './collection-field';
import { DetailDialog } from './detail-dialog';
import { CopyButton, Field, Thumbs } from './detail-fields';
import { HistoryThumb } from './history-thumb';
import { StatusBadge } from './status-badge';

interface Props {
  id: number;
  onClose: () => void;
  onOpenImage: (id: number) => void;
  onOpenVideo: (id: number) => void;
}

export function ImageDetailDialog({ id, onClose, onOpenImage, onOpenVideo }: Props) {
  const { t, i18n } = useTranslation();
  const detail = useImageDetail(id);
  const images = useHistoryList('images');
  const videos = useHistoryList('videos');
  const [viewing, setViewing] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const formatDate = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'medium' }).format(
          new Date(iso),
        )
      : '';
  const image = detail.data;
  const title = image?.label ?? t('history.imageNumber', { id });
  const userKey = currentUserKey(useSession());
  const queryClient = useQueryClient();

  /** Saved with the image through the outbox; the detail shows the new text at once, offline too. */
  async function saveMoments(text: string) {
    if (!userKey) return { status: 'refused' as const, message: t('errors.unauthorized') };
    const outcome = await saveMomentsText(userKey, { imageId: id, text });
    if (outcome.status !== 'refused') {
      queryClient.setQueryData(queryKeys.history.detail('image', id), (old: typeof image) =>
        old ? { ...old, moments_text: text.trim() || null } : old,
      );
    }
    return outcome;
  }

  async function download() {
    if (!image?.url) return;
    setDownloading(true);
    setDownloadFailed(false);
    try {
      await downloadFile(image.url, fileNameOf(image.url, `image-${id}.png`));
    } catch {
      setDownloadFailed(true);
      toast.error(t('history.downloadFailed'));
    } finally {
      setDownloading(false);
    }
  }

  const regenerations = mergePages(images.data?.pages ?? []).filter((i) => i.parent_image_id === id);
  const madeVideos = mergePages(videos.data?.pages ?? []).filter((v) => v.source_image_id === id);

  if (viewing && image?.url) {
    // In place of the dialog: a modal <dialog> would make the viewer behind it inert.
    return (
      <ImageViewer
        open
        src={image.url}
        alt={title}
        title={title}
        fileName={fileNameOf(image.url, `image-${id}.png`)}
        onClose={() => setViewing(false)}
        onDownload={() => void download()}
        copyText={image.moments_text ?? ''}
        onSaveCopyText={saveMoments}
      />
    );
  }

  return (
    <DetailDialog title={title} onClose={onClose} testId="image-detail">
      <DetailBody query={detail} value={image}>
        {(image) => (
          <>
            <div className="history-detail">
              <div className="history-detail__media">
                <HistoryThumb src={image.url ?? image.thumbnail_url} alt={title} testId="detail-image" />
                <div className="history-detail__actions">
                  <button
                    type="button"
                    className="btn btn--ghost"
                    onClick={() => setViewing(true)}
                    disabled={!image.url}
                    data-testid="open-viewer"
                  >
                    {t('history.openViewer')}
                  </button>
                  <button
                    type="button"
                    className="btn btn--ghost"
                    onClick={() => void download()}
                    disabled={!image.url || downloading}
                    data-testid="download"
                  >
                    {downloading ? <Spinner size={16} /> : null}
                    {t('history.download')}
                  </button>
                  <Link
                    className="btn btn--primary"
                    to={workflowLinkFor('image', image.id)}
                    data-testid="use-settings"
                  >
                    {t('history.useSettings')}
                  </Link>
                </div>
                {downloadFailed ? (
                  <p className="history-state--error" role="alert">
                    {t('history.downloadFailed')}
                  </p>
                ) : null}
              </div>
              <dl className="history-fields">
                <Field label={t('history.fields.status')} value={<StatusBadge status={image.status} />} />
                {image.error ? <Field label={t('history.fields.error')} value={image.error.message} /> : null}
                <CollectionField collection={image.collection} />
                <Field
                  label={t('history.fields.userPrompt')}
                  value={image.user_prompt}
                  copy={image.user_prompt}
                  testId="field-user-prompt"
                />
                <Field
                  label={t('history.fields.modelImages')}
                  value={
                    <Thumbs
                      label={t('history.fields.modelImages')}
                      urls={image.uploaded_images.model.map((u) => ({ url: u.url, key: u.file_id }))}
                    />
                  }
                  testId="field-model-images"
                />
                <Field
                  label={t('history.fields.patternImages')}
                  value={
                    <Thumbs
                      label={t('history.fields.patternImages')}
                      urls={image.uploaded_images.pattern.map((u) => ({ url: u.url, key: u.file_id }))}
                    />
                  }
                  testId="field-pattern-images"
                />
                <Field
                  label={t('history.fields.momentsText')}
                  value={image.moments_text}
                  copy={image.moments_text}
                  testId="field-moments"
                />
                <Field
                  label={t('history.fields.videoPrompts')}
                  testId="field-video-prompts"
                  value={
                    image.video_prompts.length === 0 ? null : (
                      <ol className="history-prompts">
                        {image.video_prompts.map((p) => (
                          <li key={p.id}>
                            <span>{p.prompt}</span>
                            <CopyButton text={p.prompt} label={t('history.fields.videoPrompts')} />
                          </li>
                        ))}
                      </ol>
                    )
                  }
                />
                <Field
                  label={t('history.fields.createdAt')}
                  value={formatDate(image.created_at)}
                  testId="field-created"
                />
                <Field
                  label={t('history.fields.size')}
                  value={
                    image.size.width && image.size.height
                      ? `${image.size.width} × ${image.size.height}`
                      : null
                  }
                  testId="field-size"
                />
                <Field label={t('history.fields.style')} value={image.style} testId="field-style" />
                <Field label={t('history.fields.model')} value={image.model} testId="field-model" />
                <Field
                  label={t('history.fields.request')}
                  value={
                    image.client_request_id ?? (image.request_id !== null ? `#${image.request_id}` : null)
                  }
                  copy={image.client_request_id}
                  testId="field-request"
                />
                <Field
                  label={t('history.fields.source')}
                  testId="field-source"
                  value={
                    image.parent_image_id !== null ? (
                      <button
                        type="button"
                        className="history-link"
                        onClick={() => onOpenImage(image.parent_image_id as number)}
                      >
                        {t('history.regeneratedFrom', { id: image.parent_image_id })}
                      </button>
                    ) : (
                      t('history.original')
                    )
                  }
                />
                <Field
                  label={t('history.fields.regenerations')}
                  testId="field-regenerations"
                  value={
                    regenerations.length === 0 ? null : (
                      <span className="history-links">
                        {regenerations.map((r) => (
                          <button
                            key={r.id}
                            type="button"
                            className="history-link"
                            onClick={() => onOpenImage(r.id)}
                          >
                            {t('history.imageNumber', { id: r.id })}
                          </button>
                        ))}
                      </span>
                    )
                  }
                />
                <Field
                  label={t('history.fields.videos')}
                  testId="field-videos"
                  value={
                    madeVideos.length === 0 ? null : (
                      <span className="history-links">
                        {madeVideos.map((v) => (
                          <button
                            key={v.id}
                            type="button"
                            className="history-link"
                            onClick={() => onOpenVideo(v.id)}
                          >
                            {t('history.videoNumber', { id: v.id })} · {t(`history.status.${v.status}`)}
                          </button>
                        ))}
                      </span>
                    )
                  }
                />
              </dl>
            </div>
          </>
        )}
      </DetailBody>
    </DetailDialog>
  );
}
