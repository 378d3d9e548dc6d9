// Camera moves as MiniMax's bracket commands: moves inside one bracket happen at once, and
// MiniMax takes at most three combined. The command leads the prompt so the whole shot has it.
import { ProviderError, type CameraMove } from '../capabilities.js';

export const MAX_PROMPT_CHARS = 2000;
const MAX_COMBINED_MOVES = 3;

export function promptWithCamera(prompt: string, camera: readonly CameraMove[]): string {
  const moves = [...new Set(camera)];
  if (moves.length > MAX_COMBINED_MOVES) {
    throw new ProviderError('invalid_request', `MiniMax combines at most ${MAX_COMBINED_MOVES} camera moves (got ${moves.length})`, { provider: 'minimax' });
  }
  const text = moves.length > 0 ? `[${moves.join(',')}] ${prompt.trim()}` : prompt.trim();
  if (text.length > MAX_PROMPT_CHARS) {
    throw new ProviderError('invalid_request', `the video prompt is ${text.length} characters; MiniMax takes at most ${MAX_PROMPT_CHARS}`, { provider: 'minimax' });
  }
  return text;
}
