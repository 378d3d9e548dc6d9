// An encoder for the test sheets Chinese Excel writes: Node has a GB18030 decoder but no encoder,
// so the table is built by decoding every two-byte sequence once and turning it around.
let table: Map<string, [number, number]> | undefined;

export function encodeGb18030(text: string): Uint8Array {
  if (!table) {
    table = new Map();
    const decoder = new TextDecoder('gb18030');
    for (let lead = 0x81; lead <= 0xfe; lead += 1)
      for (let trail = 0x40; trail <= 0xfe; trail += 1) {
        if (trail === 0x7f) continue;
        const char = decoder.decode(new Uint8Array([lead, trail]));
        if (char.length === 1 && char !== '\ufffd' && !table.has(char)) table.set(char, [lead, trail]);
      }
  }
  const out: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) out.push(code);
    else {
      const pair = table.get(char);
      if (!pair) throw new Error(`no two-byte GB18030 code for ${char}`);
      out.push(...pair);
    }
  }
  return new Uint8Array(out);
}
