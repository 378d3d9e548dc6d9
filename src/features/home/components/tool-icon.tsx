import { CollectionIcon, HistoryIcon, ImageIcon, PromptIcon, SparklesIcon, VideoIcon } from '../../../components/icons';
import type { ToolCard } from '../model/tool-cards';

const ICONS = {
  imageProcessing: ImageIcon,
  videoGeneration: VideoIcon,
  collections: CollectionIcon,
  geminiBanana: SparklesIcon,
  promptManagement: PromptIcon,
  history: HistoryIcon,
} as const;

export function ToolIcon({ tool, size = 24 }: { tool: ToolCard['key']; size?: number }) {
  const Icon = ICONS[tool];
  return <Icon size={size} />;
}
