import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompareSlider } from '../../../src/components/compare-slider/compare-slider';
import { positionForKey, positionFromClientX } from '../../../src/components/compare-slider/compare-position';

afterEach(cleanup);

function setup(initialPosition = 50) {
  const onPositionChange = vi.fn();
  render(
    <CompareSlider
      beforeSrc="before.png"
      afterSrc="after.png"
      beforeLabel="Before"
      afterLabel="After"
      initialPosition={initialPosition}
      onPositionChange={onPositionChange}
    />,
  );
  return { slider: screen.getByRole('slider'), onPositionChange };
}

describe('compare slider', () => {
  it('is a keyboard-focusable slider announcing its value', () => {
    const { slider } = setup(30);
    expect(slider.tabIndex).toBe(0);
    expect(slider.getAttribute('aria-valuenow')).toBe('30');
    expect(slider.getAttribute('aria-valuemin')).toBe('0');
    expect(slider.getAttribute('aria-valuemax')).toBe('100');
  });

  it('moves with arrows, Shift+arrows, Page keys, Home and End', () => {
    const { slider, onPositionChange } = setup(50);
    const press = (key: string, shiftKey = false) => fireEvent.keyDown(slider, { key, shiftKey });
    press('ArrowRight');
    expect(slider.getAttribute('aria-valuenow')).toBe('51');
    press('ArrowLeft');
    press('ArrowLeft');
    expect(slider.getAttribute('aria-valuenow')).toBe('49');
    press('ArrowRight', true);
    expect(slider.getAttribute('aria-valuenow')).toBe('59');
    press('PageDown');
    expect(slider.getAttribute('aria-valuenow')).toBe('49');
    press('Home');
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
    press('ArrowLeft');
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
    press('End');
    expect(slider.getAttribute('aria-valuenow')).toBe('100');
    expect(onPositionChange).toHaveBeenLastCalledWith(100);
  });

  it('clips the after image at the divider', () => {
    const { slider } = setup(50);
    fireEvent.keyDown(slider, { key: 'Home' });
    const box = screen.getByTestId('compare-slider');
    expect(box.style.getPropertyValue('--compare-position')).toBe('0%');
  });

  it('zooms both images together from the keyboard and the buttons', () => {
    const { slider } = setup();
    const [before, after] = screen.getAllByRole('img') as HTMLImageElement[];
    fireEvent.keyDown(slider, { key: '+' });
    expect(before?.style.transform).toContain('scale(1.2500)');
    expect(after?.style.transform).toBe(before?.style.transform);
    fireEvent.click(screen.getByRole('button', { name: 'imageProcessing.viewer.zoomIn' }));
    expect(after?.style.transform).toContain('scale(1.5625)');
    fireEvent.keyDown(slider, { key: '0' });
    expect(before?.style.transform).toContain('scale(1.0000)');
  });

  it('zooms both sides with the wheel', () => {
    setup();
    const box = screen.getByTestId('compare-slider');
    fireEvent.wheel(box, { deltaY: -100, clientX: 0, clientY: 0 });
    const [before, after] = screen.getAllByRole('img') as HTMLImageElement[];
    expect(before?.style.transform).toContain('scale(1.2000)');
    expect(after?.style.transform).toBe(before?.style.transform);
  });

  it('computes key and pointer positions purely', () => {
    expect(positionForKey(50, 'Enter')).toBeNull();
    expect(positionForKey(95, 'PageUp')).toBe(100);
    expect(positionFromClientX(150, 100, 200)).toBe(25);
    expect(positionFromClientX(-50, 100, 200)).toBe(0);
    expect(positionFromClientX(10, 0, 0)).toBe(50);
  });
});
