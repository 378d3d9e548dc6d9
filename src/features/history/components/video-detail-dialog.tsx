// Spec §2/§3 video detail: status, resolution, duration, model, dimensions, prompts, style,
// camera movement, uploads, first-frame or reference image, generated-by, moments text, times,
// task and file ids, prompt-optimiser and watermark flags; the player, download, retry from the
// original parameters, its source image and "use these settings".
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { Spinner } from '../../../components/spinner';
import { useOnlineStatus } from '../../../lib/offline/online-status';
import { useVideoDetail } from '../api/history-detail-query';
import { useRetryVideo } from '../api/retry-video';
import { downloadFile, durationParts, fileNameOf } from '../model/save-file';
import { workflowLinkFor } from '../model/workflow-link';
import { DetailBody } from './detail-body';
import { CollectionField } from './collection-field';
import { DetailDialog } from './detail-dialog';
import { Field, Thumbs } from './detail-fields';
import { KeepVideoButton } from './keep-video-button';
import { StatusBadge } from './status-badge';
import { VideoPlayer } from './video-player';

interface Props {
  id: number;
  onClose: () => void;
  onOpenImage: (id: number) => void;
  onOpenVideo: (id: number) => void;
}

export function VideoDetailDialog({ id, onClose, onOpenImage, onOpenVideo }: Props) {
  const { t, i18n } = useTranslation();
  const { online } = useOnlineStatus();
  const detail = useVideoDetail(id);
  const retry = useRetryVideo();
  const [downloading, setDownloading] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const formatDate = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'medium' }).format(
          new Date(iso),
        )
      : null;
  const video = detail.data;
  const title = t('history.videoNumber', { id });

  async function download() {
    if (!video?.url) return;
    setDownloading(true);
    setNotice(null);
    try {
      await downloadFile(video.url, fileNameOf(video.url, `video-${id}.mp4`));
    } catch {
      setNotice(t('history.downloadFailed'));
      toast.error(t('history.downloadFailed'));
    } finally {
      setDownloading(false);
    }
  }

  function retryFromOriginal() {
    if (!video) return;
    setNotice(null);
    if (!video.can_retry) {
      setNotice(t('history.cannotRetry'));
      return;
    }
    retry.mutate(video.id, {
      onSuccess: (created) => {
        toast.success(t('history.retryStarted', { id: created.id }));
        onOpenVideo(created.id);
      },
      onError: (error) => {
        const message = t('history.retryFailed', { message: error.message });
        setNotice(message);
        toast.error(message);
      },
    });
  }

  const processing = video?.processing_ms != null ? durationParts(video.processing_ms) : null;
  const yesNo = (v: boolean) => (v ? t('history.yes') : t('history.no'));

  return (
    <DetailDialog title={title} onClose={onClose} testId="video-detail">
      <DetailBody query={detail} value={video}>
        {(video) => (
          <>
            <div className="history-detail">
              <div className="history-detail__media">
                {video.status === 'completed' && video.url ? (
                  <VideoPlayer src={video.url} poster={video.thumbnail_url} label={title} />
                ) : (
                  <div className="history-player history-player--waiting" data-testid="video-waiting">
                    {video.status === 'failed' ? (
                      (video.error?.message ?? t('history.status.failed'))
                    ) : (
                      <>
                        <Spinner /> {t(`history.status.${video.status}`)}
                      </>
                    )}
                  </div>
                )}
                <div className="history-detail__actions">
                  <button
                    type="button"
                    className="btn btn--ghost"
                    onClick={() => void download()}
                    disabled={!video.url || downloading}
                    data-testid="download"
                  >
                    {downloading ? <Spinner size={16} /> : null}
                    {t('history.download')}
                  </button>
                  {video.status === 'completed' && video.url ? <KeepVideoButton id={video.id} url={video.url} /> : null}
                  <button
                    type="button"
                    className="btn btn--ghost"
                    onClick={retryFromOriginal}
                    disabled={retry.isPending || !online}
                    data-testid="retry-video"
                  >
                    {retry.isPending ? <Spinner size={16} /> : null}
                    {t('history.retryVideo')}
                  </button>
                  <Link
                    className="btn btn--primary"
                    to={workflowLinkFor('video', video.id)}
                    data-testid="use-settings"
                  >
                    {t('history.useSettings')}
                  </Link>
                </div>
                {notice ? (
                  <p className="history-state--error" role="alert" data-testid="video-notice">
                    {notice}
                  </p>
                ) : null}
              </div>
              <dl className="history-fields">
                <Field
                  label={t('history.fields.status')}
                  value={<StatusBadge status={video.status} progress={video.progress} />}
                  testId="field-status"
                />
                {video.error ? <Field label={t('history.fields.error')} value={video.error.message} /> : null}
                <CollectionField collection={video.collection} />
                <Field label={t('history.fields.kind')} value={t(`history.kinds.${video.kind}`)} />
                <Field
                  label={t('history.fields.resolution')}
                  value={video.resolution}
                  testId="field-resolution"
                />
                <Field
                  label={t('history.fields.duration')}
                  value={t('history.durationSeconds', { count: video.duration })}
                  testId="field-duration"
                />
                <Field label={t('history.fields.model')} value={video.model} testId="field-model" />
                <Field
                  label={t('history.fields.dimensions')}
                  value={video.width && video.height ? `${video.width} × ${video.height}` : null}
                  testId="field-dimensions"
                />
                <Field
                  label={t('history.fields.userPrompt')}
                  value={video.user_prompt}
                  copy={video.user_prompt}
                  testId="field-user-prompt"
                />
                <Field
                  label={t('history.fields.videoPrompt')}
                  value={video.video_prompt}
                  copy={video.video_prompt}
                  testId="field-video-prompt"
                />
                <Field label={t('history.fields.style')} value={video.style} testId="field-style" />
                <Field
                  label={t('history.fields.camera')}
                  value={video.camera.join(', ')}
                  testId="field-camera"
                />
                <Field
                  label={t('history.fields.modelImages')}
                  value={
                    <Thumbs
                      label={t('history.fields.modelImages')}
                      urls={video.uploaded_images.model.map((u) => ({ url: u.url, key: u.file_id }))}
                    />
                  }
                />
                <Field
                  label={t('history.fields.patternImages')}
                  value={
                    <Thumbs
                      label={t('history.fields.patternImages')}
                      urls={video.uploaded_images.pattern.map((u) => ({ url: u.url, key: u.file_id }))}
                    />
                  }
                />
                <Field
                  label={t(
                    video.kind === 'first-last-frame'
                      ? 'history.fields.firstFrame'
                      : 'history.fields.referenceImage',
                  )}
                  testId="field-first-frame"
                  value={
                    video.first_frame ? (
                      <Thumbs
                        label={t('history.fields.firstFrame')}
                        urls={[video.first_frame, ...(video.last_frame ? [video.last_frame] : [])].map(
                          (f) => ({ url: f.url, key: f.file_id }),
                        )}
                      />
                    ) : null
                  }
                />
                <Field
                  label={t('history.fields.generatedBy')}
                  value={[video.generated_by.provider, video.generated_by.model].filter(Boolean).join(' · ')}
                  testId="field-generated-by"
                />
                <Field
                  label={t('history.fields.momentsText')}
                  value={video.moments_text}
                  copy={video.moments_text}
                  testId="field-moments"
                />
                <Field
                  label={t('history.fields.requestedAt')}
                  value={formatDate(video.requested_at ?? video.created_at)}
                  testId="field-requested"
                />
                <Field
                  label={t('history.fields.completedAt')}
                  value={formatDate(video.completed_at)}
                  testId="field-completed"
                />
                <Field
                  label={t('history.fields.processingTime')}
                  value={processing ? t('history.processingTime', processing) : null}
                  testId="field-processing"
                />
                <Field
                  label={t('history.fields.taskId')}
                  value={video.task_id}
                  copy={video.task_id}
                  testId="field-task-id"
                />
                <Field
                  label={t('history.fields.fileId')}
                  value={video.file_id ?? video.result_file_id}
                  copy={video.file_id ?? video.result_file_id}
                  testId="field-file-id"
                />
                <Field
                  label={t('history.fields.promptOptimizer')}
                  value={yesNo(video.prompt_optimizer)}
                  testId="field-optimizer"
                />
                <Field
                  label={t('history.fields.watermark')}
                  value={yesNo(video.watermark)}
                  testId="field-watermark"
                />
                <Field
                  label={t('history.fields.sourceImage')}
                  testId="field-source-image"
                  value={
                    video.source_image_id !== null ? (
                      <button
                        type="button"
                        className="history-link"
                        onClick={() => onOpenImage(video.source_image_id as number)}
                      >
                        {t('history.imageNumber', { id: video.source_image_id })}
                      </button>
                    ) : null
                  }
                />
                {video.retry_of_id !== null ? (
                  <Field
                    label={t('history.fields.retryOf')}
                    value={
                      <button
                        type="button"
                        className="history-link"
                        onClick={() => onOpenVideo(video.retry_of_id as number)}
                      >
                        {t('history.videoNumber', { id: video.retry_of_id })}
                      </button>
                    }
                  />
                ) : null}
              </dl>
            </div>
          </>
        )}
      </DetailBody>
    </DetailDialog>
  );
}
