import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessageComposer } from './message-composer.tsx';

function setup(connected = true) {
  const onSend = vi.fn(() => true);
  render(<MessageComposer connected={connected} onSend={onSend} />);
  const box = screen.getByLabelText('Message') as HTMLTextAreaElement;
  return { onSend, box };
}

describe('MessageComposer (spec §2 Chat, §5 Message)', () => {
  afterEach(cleanup);

  it('sends the trimmed text on Enter and clears the box', () => {
    const { onSend, box } = setup();
    expect(box.placeholder).toBe('Type a message...');
    fireEvent.change(box, { target: { value: '  Is the drill still free?  ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledExactlyOnceWith('Is the drill still free?');
    expect(box.value).toBe('');
  });

  it('does not send on Shift+Enter', () => {
    const { onSend, box } = setup();
    fireEvent.change(box, { target: { value: 'Line one' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    expect(box.value).toBe('Line one');
  });

  it('does not send blank text', () => {
    const { onSend, box } = setup();
    fireEvent.change(box, { target: { value: '   \n  ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(onSend).not.toHaveBeenCalled();
  });

  it('is disabled with a Connecting... placeholder while offline', () => {
    const { onSend, box } = setup(false);
    expect(box.disabled).toBe(true);
    expect(box.placeholder).toBe('Connecting...');
    expect((screen.getByRole('button', { name: 'Send message' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
  });

  it('keeps the text when sending fails', () => {
    const onSend = vi.fn(() => false);
    render(<MessageComposer connected onSend={onSend} />);
    const box = screen.getByLabelText('Message') as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'Hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('Hello');
    expect(box.value).toBe('Hello');
  });
});
