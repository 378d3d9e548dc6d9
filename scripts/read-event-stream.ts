// Reads a text/event-stream answer (the server's streams of `data: {json}` events) as a client
// does, for the benchmarks that time its events.

/**
 * Calls `onEvent` with every `data:` event of `res` as it arrives, stamped with the time its
 * chunk came in (ms since the epoch, comparable across processes); resolves when the stream ends.
 */
export async function readEventStream(
  res: Response,
  onEvent: (event: Record<string, unknown>, arrivedAt: number) => void,
): Promise<void> {
  if (!res.ok || !res.body) throw new Error(`event stream: ${res.status} ${await res.text()}`);
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of res.body) {
    const at = performance.timeOrigin + performance.now();
    buffered += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      if (data) onEvent(JSON.parse(data) as Record<string, unknown>, at);
    }
  }
}
