// The tools a role sees on home: its menu without home and settings (spec §6).
import type { UserLevel } from '../../../lib/session/user';

export interface ToolCard {
  path: string;
  key: 'imageProcessing' | 'videoGeneration' | 'collections' | 'geminiBanana' | 'promptManagement' | 'history';
  roles: readonly UserLevel[];
}

const TOOLS: readonly ToolCard[] = [
  { path: '/image-processing', key: 'imageProcessing', roles: ['ADMIN', 'DESIGNER'] },
  { path: '/video-generation', key: 'videoGeneration', roles: ['ADMIN', 'GENERAL'] },
  { path: '/collections', key: 'collections', roles: ['ADMIN', 'GENERAL'] },
  { path: '/gemini-banana', key: 'geminiBanana', roles: ['ADMIN'] },
  { path: '/prompt-management', key: 'promptManagement', roles: ['ADMIN'] },
  { path: '/history', key: 'history', roles: ['ADMIN', 'GENERAL'] },
];

export function toolsFor(level: UserLevel | null | undefined): ToolCard[] {
  return level ? TOOLS.filter((tool) => tool.roles.includes(level)) : [];
}
