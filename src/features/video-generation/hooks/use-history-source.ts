// Receives "use these settings" from history: #/video-generation?from=<image|video>:<id> starts a
// new draft pre-filled from that item (the current draft is replaced; the person chose to fork).
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { fetchImageDetail, fetchVideoDetail, parseFrom } from '../api/history-source';
import { newRequestId, type DraftFile, type VideoDraft } from '../model/draft';
import type { ChoiceField } from '../../../../shared/fabric/fabric-fields';
import { draftFromHistory, settingsFromVideo } from '../model/from-history';
import type { VideoSettings } from '../model/generation-types';
import type { DraftUpdate } from './use-video-draft';

async function blobsOf(links: { url: string }[], role: DraftFile['role']): Promise<DraftFile[]> {
  const files = await Promise.all(
    links.map(async (l, i) => {
      try {
        const r = await fetch(l.url);
        if (!r.ok) return null;
        const blob = await r.blob();
        return { id: newRequestId(), role, name: `${role}-${i + 1}.${blob.type.split('/')[1] ?? 'png'}`, blob };
      } catch {
        return null;
      }
    }),
  );
  return files.filter((f): f is DraftFile => f !== null);
}

export function useHistorySource(draft: VideoDraft | null, update: DraftUpdate) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const from = parseFrom(params.get('from'));
  const handled = useRef<string | null>(null);
  const ready = draft !== null;
  const userKey = draft?.userKey;

  useEffect(() => {
    if (!ready || !from || !userKey) return;
    const key = `${from.kind}:${from.id}`;
    if (handled.current === key) return;
    handled.current = key;
    const presetLabel = (field: ChoiceField, k: string) => t(`videoGeneration.presets.${field}.${k}`);
    void (async () => {
      try {
        let imageId = from.id;
        let settings: VideoSettings | undefined;
        let lastImageId: number | null = null;
        if (from.kind === 'video') {
          const video = await fetchVideoDetail(from.id);
          if (video.source_image_id === null) throw new Error('no source image');
          imageId = video.source_image_id;
          settings = settingsFromVideo(video);
          lastImageId = video.last_image_id;
        }
        const image = await fetchImageDetail(imageId);
        const next = draftFromHistory(
          userKey,
          { image, fabric: image.fabric, prompt: image.user_prompt, description: image.description },
          presetLabel,
          settings,
        );
        if (lastImageId !== null) {
          const last = await fetchImageDetail(lastImageId).catch(() => null);
          if (last) next.candidates = [...next.candidates, last];
        }
        update(() => next);
        navigate('/video-generation', { replace: true });
        toast.success(t('videoGeneration.handoff.history'));
        const files = [
          ...(await blobsOf(image.uploaded_images.model, 'model')),
          ...(await blobsOf(image.uploaded_images.pattern, 'pattern')),
        ];
        if (files.length > 0) update((d) => (d.files.length === 0 ? { ...d, files: files.slice(0, 10) } : d));
      } catch {
        navigate('/video-generation', { replace: true });
        toast.error(t('videoGeneration.handoff.historyFailed'));
      }
    })();
  }, [from, navigate, ready, t, update, userKey]);
}
