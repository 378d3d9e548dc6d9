import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ImageViewer } from '../../../src/components/image-viewer/image-viewer';
import { viewerActionForKey } from '../../../src/components/image-viewer/viewer-keys';

afterEach(cleanup);

function Harness({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        open viewer
      </button>
      <ImageViewer
        open={open}
        src="result.png"
        alt="fabric"
        fileName="fabric_up2x.png"
        copyText="soft linen"
        onClose={() => {
          onClose?.();
          setOpen(false);
        }}
      />
    </>
  );
}

function openViewer(onClose?: () => void) {
  render(<Harness onClose={onClose} />);
  const opener = screen.getByRole('button', { name: 'open viewer' });
  opener.focus();
  fireEvent.click(opener);
  return { opener, dialog: screen.getByRole('dialog'), image: screen.getByRole('img', { name: 'fabric' }) };
}

describe('image viewer', () => {
  it('opens as a modal dialog with focus inside', () => {
    const { dialog } = openViewer();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('rotates with arrow keys, zooms with +/- and the wheel, and resets with R', () => {
    const { dialog, image } = openViewer();
    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    expect(image.style.transform).toContain('rotate(90deg)');
    fireEvent.keyDown(dialog, { key: 'ArrowLeft' });
    fireEvent.keyDown(dialog, { key: 'ArrowLeft' });
    expect(image.style.transform).toContain('rotate(-90deg)');
    fireEvent.keyDown(dialog, { key: '+' });
    expect(image.style.transform).toContain('scale(1.2500)');
    fireEvent.wheel(screen.getByTestId('image-viewer-stage'), { deltaY: -100 });
    expect(image.style.transform).toContain('scale(1.5000)');
    fireEvent.keyDown(dialog, { key: 'r' });
    expect(image.style.transform).toContain('rotate(0deg) scale(1.0000)');
  });

  it('lets the user type in the copy field without triggering shortcuts', () => {
    const { image } = openViewer();
    const field = screen.getByRole('textbox');
    expect((field as HTMLTextAreaElement).value).toBe('soft linen');
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'ArrowRight' });
    fireEvent.keyDown(field, { key: 'r' });
    fireEvent.keyDown(field, { key: 'ArrowLeft' });
    expect(image.style.transform).toContain('rotate(90deg)');
    fireEvent.change(field, { target: { value: 'soft linen, sand colour' } });
    expect((field as HTMLTextAreaElement).value).toBe('soft linen, sand colour');
  });

  it('closes on Esc, even from the copy field, and gives focus back to the opener', () => {
    const onClose = vi.fn();
    const { opener } = openViewer(onClose);
    fireEvent.keyDown(screen.getByRole('textbox'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('traps Tab inside the dialog', () => {
    const { dialog } = openViewer();
    const buttons = [...dialog.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], textarea')];
    const last = buttons[buttons.length - 1];
    last?.focus();
    fireEvent.keyDown(document.activeElement ?? dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(buttons[0]);
    fireEvent.keyDown(document.activeElement ?? dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });

  it('offers a download link with the file name', () => {
    openViewer();
    const link = screen.getByRole('link', { name: 'imageProcessing.viewer.download' });
    expect(link.getAttribute('download')).toBe('fabric_up2x.png');
    expect(link.getAttribute('href')).toBe('result.png');
  });

  it('maps keys as spec §2 says', () => {
    expect(viewerActionForKey('Escape', true)).toBe('close');
    expect(viewerActionForKey('R', false)).toBe('reset');
    expect(viewerActionForKey('r', true)).toBeNull();
    expect(viewerActionForKey('ArrowUp', false)).toBe('rotateLeft');
    expect(viewerActionForKey('x', false)).toBeNull();
  });
});
