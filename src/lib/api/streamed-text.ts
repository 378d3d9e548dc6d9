// Text streamed by the server's event streams (the analysis, the video prompts, the workshop):
// each piece says where it starts (`offset` in the current attempt's text).

/**
 * The streamed text with the next piece placed where the server says it starts (`offset` in this
 * attempt's text): a retried attempt starts again at 0 and replaces what the cut one showed, so no
 * sentence is shown twice. Without an offset (an older server), the piece is appended.
 */
export function placeStreamed(text: string, content: string, offset: number | undefined): string {
  if (offset === undefined || offset > text.length) return text + content;
  return text.slice(0, offset) + content;
}
