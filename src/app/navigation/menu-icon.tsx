import {
  CollectionIcon,
  HistoryIcon,
  HomeIcon,
  ImageIcon,
  PromptIcon,
  SettingsIcon,
  SparklesIcon,
  VideoIcon,
} from '../../components/icons';
import type { MenuIconName } from './menu-entries';

const ICONS = {
  home: HomeIcon,
  image: ImageIcon,
  video: VideoIcon,
  collection: CollectionIcon,
  sparkles: SparklesIcon,
  prompt: PromptIcon,
  history: HistoryIcon,
  settings: SettingsIcon,
} as const;

export function MenuIcon({ name, size }: { name: MenuIconName; size?: number }) {
  const Icon = ICONS[name];
  return <Icon size={size} />;
}
