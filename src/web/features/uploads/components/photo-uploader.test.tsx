import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PhotoUploader, uploadTip } from './photo-uploader.tsx';

/** Stands in for the browser's XMLHttpRequest: records the request, lets the test answer it. */
class FakeXhr {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  withCredentials = false;
  status = 0;
  responseText = '';
  body: FormData | undefined;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } =
    {
      onprogress: null,
    };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
  abort() {
    this.onabort?.();
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

beforeEach(() => {
  FakeXhr.last = undefined;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Harness({ initial = [], onChange }: { initial?: string[]; onChange?: (urls: string[]) => void }) {
  const [images, setImages] = useState(initial);
  return (
    <PhotoUploader
      value={images}
      onChange={(urls) => {
        setImages(urls);
        onChange?.(urls);
      }}
    />
  );
}

const photo = (name = 'desk.jpg', bytes = 1000, type = 'image/jpeg') =>
  new File([new Uint8Array(bytes)], name, { type });

async function choose(files: File[]) {
  const input = screen.getByLabelText('Add photos') as HTMLInputElement;
  await act(async () => {
    fireEvent.change(input, { target: { files } });
  });
}

/** Lets the compression step (a resolved promise here) hand over to the upload. */
const settle = () => act(async () => {});

describe('PhotoUploader', () => {
  it('is a labelled, keyboard-reachable input for several images', () => {
    render(<Harness />);
    const input = screen.getByLabelText('Add photos') as HTMLInputElement;
    expect(input.type).toBe('file');
    expect(input.accept).toBe('image/*');
    expect(input.multiple).toBe(true);
    expect(input.tabIndex).not.toBe(-1);
    expect(input.getAttribute('aria-describedby')).toBeTruthy();
  });

  it('shows the photos, the first as the cover, each with its remove button', () => {
    const onChange = vi.fn();
    render(
      <Harness
        initial={['/uploads/items/2026/05/a.jpg', '/uploads/items/2026/05/b.jpg']}
        onChange={onChange}
      />,
    );
    const first = screen.getByAltText('Photo 1 (cover)') as HTMLImageElement;
    expect(first.getAttribute('src')).toBe('/uploads/items/2026/05/a-thumb.jpg');
    expect(screen.getByText('Cover')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove photo 1' }));
    expect(onChange).toHaveBeenCalledWith(['/uploads/items/2026/05/b.jpg']);
    expect(screen.getByAltText('Photo 1 (cover)').getAttribute('src')).toBe(
      '/uploads/items/2026/05/b-thumb.jpg',
    );
    expect(screen.queryByRole('button', { name: 'Remove photo 2' })).toBeNull();
  });

  it('refuses more than five photos in all', async () => {
    render(<Harness initial={['/uploads/items/2026/05/a.jpg', '/uploads/items/2026/05/b.jpg']} />);
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Add more photos'), {
        target: { files: [photo('1.jpg'), photo('2.jpg'), photo('3.jpg'), photo('4.jpg')] },
      });
    });
    expect(screen.getByRole('alert').textContent).toBe('You can upload a maximum of 5 images.');
    expect(FakeXhr.last).toBeUndefined();
  });

  it('refuses non-image files over 5 MB by name', async () => {
    render(<Harness />);
    const big = 5 * 1024 * 1024 + 1;
    await choose([photo('notes.pdf', big, 'application/pdf'), photo('scan.tiff', big, ''), photo('ok.jpg')]);
    expect(screen.getByRole('alert').textContent).toBe('Files too large (max 5MB): notes.pdf, scan.tiff');
    expect(FakeXhr.last).toBeUndefined();
  });

  it('uploads with progress and adds the returned URLs', async () => {
    const onChange = vi.fn();
    render(<Harness initial={['/uploads/items/2026/05/a.jpg']} onChange={onChange} />);
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Add more photos'), { target: { files: [photo('lamp.jpg')] } });
    });
    await settle();
    const xhr = FakeXhr.last!;
    expect(xhr).toMatchObject({ method: 'POST', url: '/api/upload/proxy', withCredentials: true });
    expect((xhr.body!.getAll('images')[0] as File).name).toBe('lamp.jpg');

    act(() => xhr.upload.onprogress?.({ lengthComputable: true, loaded: 40, total: 100 }));
    expect(screen.getByRole('progressbar', { name: 'Uploading photos' }).getAttribute('aria-valuenow')).toBe(
      '40',
    );

    await act(async () => xhr.respond(200, { success: true, urls: ['/uploads/items/2026/05/new.jpg'] }));
    expect(onChange).toHaveBeenCalledWith(['/uploads/items/2026/05/a.jpg', '/uploads/items/2026/05/new.jpg']);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove photo 2' })).toBeTruthy();
  });

  it.each([
    [
      413,
      { message: 'Files too large (max 5MB): huge.jpg' },
      'Upload failed: Files too large (max 5MB): huge.jpg',
      'Use images under 5MB (large images are compressed automatically).',
    ],
    [
      503,
      { message: 'Photo storage is not available right now. Please try again later.' },
      'Upload failed: Photo storage is not available right now. Please try again later.',
      'Image storage may not be configured. Please contact support.',
    ],
    [
      415,
      { message: 'Only JPEG, PNG, WebP, GIF or AVIF images can be uploaded.' },
      'Upload failed: Only JPEG, PNG, WebP, GIF or AVIF images can be uploaded.',
      'Try smaller images, check your connection, or use JPG or PNG.',
    ],
    [500, '<html>Bad gateway</html>', 'Upload failed: Failed to upload images', 'Try smaller images'],
    [
      200,
      { success: true, urls: [] },
      'Upload failed: Upload succeeded but no URLs returned',
      'Try smaller images',
    ],
  ])('explains a failed upload (%i)', async (status, body, message, tip) => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    await choose([photo()]);
    await settle();
    await act(async () => FakeXhr.last!.respond(status, body));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(message);
    expect(alert.textContent).toContain(tip);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('suggests checking the connection when the request never arrives', async () => {
    render(<Harness />);
    await choose([photo()]);
    await settle();
    await act(async () => FakeXhr.last!.onerror?.());
    expect(screen.getByRole('alert').textContent).toContain('Check your connection and try again.');
  });
});

describe('uploadTip', () => {
  it('follows spec §8', () => {
    expect(uploadTip(413, 'Failed to upload images')).toMatch(/under 5MB/);
    expect(uploadTip(400, 'Image is too large')).toMatch(/under 5MB/);
    expect(uploadTip(0, 'Failed to fetch')).toBe('Check your connection and try again.');
    expect(uploadTip(500, 'Storage bucket missing')).toMatch(/storage may not be configured/);
    expect(uploadTip(400, 'No images received.')).toBe(
      'Try smaller images, check your connection, or use JPG or PNG.',
    );
  });
});
