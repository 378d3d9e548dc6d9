// Where one SE block's mean is taken, as a fraction of the input side plus an offset. Its own
// file, free of Node imports, so the browser's tiling (the on-device upscaler) shares the server's.
export interface SeLevel {
  ratio: number;
  offset: number;
}
