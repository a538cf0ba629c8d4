// The profile image editor (client-library §7.2): a 60 px avatar to click (file picker) or drop a file on;
// anything that is not an image shows "Invalid image"; an image opens a round crop with a zoom slider
// (1–5, step 0.1); Save hands a JPEG data URL of about 0.1 MB to `onSave`; Cancel resets.
import { useCallback, useRef, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { Box, Button, Group, Slider, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconUpload } from '@tabler/icons-react';
import { useTranslate } from '../context';
// Its look (hover overlay, crop area) is in settings/settings.css, loaded with the settings page.
import { canvasSideLimit, compressToTarget, fitCanvas } from '../lib/image-compression';

export interface ImageEditorProps {
  /** What the avatar shows now (an image, or initials / an icon as fallback). */
  preview: React.ReactNode;
  /** Accessible name of the upload button. */
  label: string;
  /** Resolves false when saving failed (and was reported): the crop stays open. */
  onSave: (dataUrl: string) => Promise<boolean | void>;
  /** The avatar's shape (a team's is a rounded square): the button's outline and hover overlay follow it. */
  shape?: 'circle' | 'square';
}

const CROP_PX = 200;
const BORDER_PX = 20;

export function ImageEditor({ preview, label, onSave, shape = 'circle' }: ImageEditorProps) {
  const t = useTranslate();
  const openRef = useRef<() => void>(null);
  const [source, setSource] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setSource(null);
    setInvalid(false);
    setZoom(1);
    setCrop({ x: 0, y: 0 });
    setArea(null);
  };

  const choose = async (file: File | undefined) => {
    reset();
    if (!file) return;
    const url = await readAsDataUrl(file);
    if (!(await isImage(url))) {
      setInvalid(true);
      return;
    }
    setSource(url);
  };

  const onCropComplete = useCallback((_: Area, pixels: Area) => setArea(pixels), []);

  const save = async () => {
    if (!source || !area) return;
    setBusy(true);
    try {
      const dataUrl = await exportCrop(source, area);
      if ((await onSave(dataUrl)) !== false) reset();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs" align="flex-end">
      <Dropzone
        openRef={openRef}
        onDrop={(files) => void choose(files[0])}
        onReject={() => { reset(); setInvalid(true); }}
        multiple={false}
        activateOnClick={false}
        activateOnKeyboard={false}
        enablePointerEvents
        className="gatehouse-image-dropzone" data-shape={shape}
      >
        <UnstyledButton className="gatehouse-image-button" data-shape={shape} onClick={() => openRef.current?.()} title={t('settings.image.drop')}>
          {/* Named by `label` (as content, not aria-label: the initials shown are decoration, not its name). */}
          <VisuallyHidden>{label}</VisuallyHidden>
          <span aria-hidden style={{ display: 'block' }}>{preview}</span>
          <span className="gatehouse-image-overlay" aria-hidden><IconUpload size={20} /></span>
        </UnstyledButton>
      </Dropzone>
      {invalid && <Text size="sm" c="red" role="alert">{t('settings.image.invalid')}</Text>}
      {source && (
        <Stack gap="xs" w={CROP_PX + 2 * BORDER_PX} maw="100%">
          <Box className="gatehouse-crop-area" aria-label={t('settings.image.crop')} role="img" style={{ height: CROP_PX + 2 * BORDER_PX }}>
            <Cropper
              image={source}
              crop={crop}
              zoom={zoom}
              minZoom={1}
              maxZoom={5}
              aspect={1}
              cropShape="round"
              showGrid={false}
              cropSize={{ width: CROP_PX, height: CROP_PX }}
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={onCropComplete}
              style={{ cropAreaStyle: { color: 'rgba(0, 0, 0, 0.72)' } }}
            />
          </Box>
          <Slider min={1} max={5} step={0.1} value={zoom} onChange={setZoom} label={(v) => v.toFixed(1)} thumbLabel={t('settings.image.zoom')} aria-label={t('settings.image.zoom')} />
          <Group gap="xs" justify="flex-end">
            <Button variant="default" size="sm" onClick={reset} disabled={busy}>{t('settings.image.cancel')}</Button>
            <Button size="sm" onClick={() => void save()} loading={busy} disabled={!area}>{t('settings.image.save')}</Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** The data URL's blob type starts with `image/` and a browser can actually decode it. */
async function isImage(dataUrl: string): Promise<boolean> {
  try {
    const blob = await (await fetch(dataUrl)).blob();
    if (!blob.type.startsWith('image/')) return false;
    await loadImage(dataUrl);
    return true;
  } catch {
    return false;
  }
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('image failed to load'));
    img.src = src;
  });
}

/** Draws the cropped area on a canvas the browser allows and compresses it to a JPEG of about 0.1 MB. */
async function exportCrop(source: string, area: Area): Promise<string> {
  const img = await loadImage(source);
  const full = fitCanvas(area.width, area.height, canvasSideLimit(navigator.userAgent));
  const encode = async (quality: number, scale: number) => {
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(full.width * scale));
    canvas.height = Math.max(1, Math.round(full.height * scale));
    const ctx = canvas.getContext('2d')!;
    // JPEG has no transparency: a transparent PNG would turn black without a background.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, area.x, area.y, area.width, area.height, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('canvas export failed'))), 'image/jpeg', quality));
    return { bytes: blob.size, value: blob };
  };
  const best = await compressToTarget(encode);
  return readAsDataUrl(best.value);
}
