import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VariantPreview } from '../../../src/features/image-processing/components/variant-preview';
import type { UpscaleCropRequest } from '../../../src/features/image-processing/api/upscale-crop';
import { centreCrop, cropAround, moveCropByKey } from '../../../src/features/image-processing/model/crop-rect';
import { runLimited } from '../../../src/features/image-processing/model/run-limited';
import { variantsForScale } from '../../../src/features/image-processing/model/variant-models';

const MODELS = [
  { name: 'up4x-conservative', displayName: '4x conservative', scale: 4 },
  { name: 'up2x-denoise3x', displayName: '2x strong', scale: 2 },
  { name: 'up2x-conservative', displayName: '2x conservative', scale: 2, recommended: true },
  { name: 'up2x-denoise1x', displayName: '2x light', scale: 2 },
  { name: 'up2x-no-denoise', displayName: '2x no denoise', scale: 2 },
  { name: 'up2x-denoise2x', displayName: '2x medium', scale: 2, recommended: true },
];

beforeEach(() => {
  // jsdom has no object URLs.
  URL.createObjectURL = vi.fn(() => `blob:test/${Math.random()}`);
  URL.revokeObjectURL = vi.fn();
});
afterEach(cleanup);

describe('variant preview', () => {
  it('upscales the crop once per variant of the scale, at most three at a time, and applies the choice', async () => {
    const calls: UpscaleCropRequest[] = [];
    let inFlight = 0;
    let peak = 0;
    const upscale = vi.fn(async (request: UpscaleCropRequest) => {
      calls.push(request);
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      if (request.modelName === 'up2x-denoise1x') throw new Error('model server busy');
      return new Blob(['png'], { type: 'image/png' });
    });
    const cutCrop = vi.fn(async () => new Blob(['crop'], { type: 'image/png' }));
    const onApply = vi.fn();
    render(
      <VariantPreview
        source={new Blob(['source'], { type: 'image/jpeg' })}
        sourceName="linen.jpg"
        scale={2}
        models={MODELS}
        onApply={onApply}
        suggestedModel="up2x-denoise3x"
        upscale={upscale}
        cutCrop={cutCrop}
      />,
    );
    const source = screen.getByRole('img', { name: 'linen.jpg' });
    Object.defineProperty(source, 'naturalWidth', { value: 640 });
    Object.defineProperty(source, 'naturalHeight', { value: 480 });
    fireEvent.load(source);

    const box = await screen.findByTestId('variant-crop-box');
    fireEvent.keyDown(box, { key: 'ArrowRight' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /imageProcessing.variants.preview/ }));
    });
    await waitFor(() => expect(upscale).toHaveBeenCalledTimes(5));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('imageProcessing.variants.failed'));

    expect(cutCrop).toHaveBeenCalledWith(expect.any(Blob), { x: 264, y: 176, size: 128 });
    expect(calls.map((c) => c.modelName)).toEqual([
      'up2x-conservative',
      'up2x-no-denoise',
      'up2x-denoise1x',
      'up2x-denoise2x',
      'up2x-denoise3x',
    ]);
    expect(calls.every((c) => c.tileMode === 0 && c.cacheMode === 0 && c.alpha === 1)).toBe(true);
    expect(peak).toBeLessThanOrEqual(3);

    // The suggestion is preselected; the user picks another and applies it.
    expect((screen.getByRole('radio', { name: '2x strong' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: '2x medium' }));
    fireEvent.click(screen.getByRole('button', { name: /imageProcessing.variants.apply/ }));
    expect(onApply).toHaveBeenCalledWith('up2x-denoise2x');

    // A failed variant can be retried on its own.
    upscale.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'imageProcessing.variants.retry' }));
    await waitFor(() => expect(upscale).toHaveBeenCalledTimes(1));
    expect(upscale.mock.calls[0]?.[0].modelName).toBe('up2x-denoise1x');
  });

  it('zooms every tile together', async () => {
    const upscale = vi.fn(async () => new Blob(['png'], { type: 'image/png' }));
    render(
      <VariantPreview
        source={new Blob(['s'])}
        sourceName="a.png"
        scale={4}
        models={MODELS}
        onApply={() => {}}
        upscale={upscale}
        cutCrop={async () => new Blob(['c'])}
      />,
    );
    const source = screen.getByRole('img', { name: 'a.png' });
    Object.defineProperty(source, 'naturalWidth', { value: 100 });
    Object.defineProperty(source, 'naturalHeight', { value: 80 });
    fireEvent.load(source);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /imageProcessing.variants.preview/ }));
    });
    const tile = await screen.findByRole('img', { name: '4x conservative' });
    fireEvent.wheel(tile.parentElement as HTMLElement, { deltaY: -100 });
    for (const image of screen.getAllByRole('img').filter((img) => img !== source)) {
      expect(image.style.transform).toContain('scale(1.2000)');
    }
  });
});

describe('variant preview model', () => {
  it('keeps the crop inside the image and on whole pixels', () => {
    expect(centreCrop(640, 480)).toEqual({ x: 256, y: 176, size: 128 });
    expect(cropAround(5, 5, 640, 480)).toEqual({ x: 0, y: 0, size: 128 });
    expect(cropAround(1000, 1000, 640, 480)).toEqual({ x: 512, y: 352, size: 128 });
    expect(centreCrop(100, 60)).toEqual({ x: 20, y: 0, size: 60 });
    expect(moveCropByKey({ x: 0, y: 0, size: 128 }, 'ArrowLeft', false, 640, 480)).toEqual({ x: 0, y: 0, size: 128 });
    expect(moveCropByKey({ x: 0, y: 0, size: 128 }, 'ArrowDown', true, 640, 480)).toEqual({ x: 0, y: 32, size: 128 });
    expect(moveCropByKey({ x: 0, y: 0, size: 128 }, 'Enter', false, 640, 480)).toBeNull();
  });

  it('lists the scale’s variants from gentle to strong', () => {
    expect(variantsForScale(MODELS, 4).map((m) => m.name)).toEqual(['up4x-conservative']);
    expect(variantsForScale(MODELS, 2).map((m) => m.name)).toEqual([
      'up2x-conservative',
      'up2x-no-denoise',
      'up2x-denoise1x',
      'up2x-denoise2x',
      'up2x-denoise3x',
    ]);
  });

  it('runs at most the limit at once and stops taking work when aborted', async () => {
    let inFlight = 0;
    let peak = 0;
    const done: number[] = [];
    const controller = new AbortController();
    await runLimited(
      [1, 2, 3, 4, 5, 6, 7],
      3,
      async (n) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight -= 1;
        done.push(n);
        if (n === 4) controller.abort();
      },
      controller.signal,
    );
    expect(peak).toBe(3);
    expect(done.length).toBeLessThan(7);
  });
});
