import { describe, expect, it } from 'vitest';
import { compileImagePattern, mimeForExtension } from '../../../src/core/import/image-match';
import { ValidationError } from '../../../src/core/errors';

describe('image pattern matching', () => {
  it('matches the default <tool>/<id>.<ext> at the end of any relative path', () => {
    const match = compileImagePattern('<tool>/<id>.<ext>');
    expect(match('genai/DALLE_3/00012.png')).toEqual({ tool: 'DALLE_3', id: '00012', ext: 'png' });
    expect(match('DALLE_3/00012.JPG')).toEqual({ tool: 'DALLE_3', id: '00012', ext: 'jpg' });
    expect(match('C:\\data\\SDXL_Base\\7.webp')).toEqual({ tool: 'SDXL_Base', id: '7', ext: 'webp' });
    expect(match('00012.png')).toBeNull(); // no tool folder
    expect(match('DALLE_3/notes.txt')).toBeNull(); // not an image
  });

  it('supports flat names with literal parts and <any>', () => {
    const match = compileImagePattern('<any>/<tool>__<id>.<ext>');
    expect(match('batch1/Midjourney_6__00001.png')).toEqual({ tool: 'Midjourney_6', id: '00001', ext: 'png' });
    expect(compileImagePattern('img_<id>.<ext>')('x/img_42.png')).toEqual({ id: '42', ext: 'png' });
  });

  it('rejects patterns without <id> or with unknown placeholders, saying why', () => {
    expect(() => compileImagePattern('<tool>/<name>.<ext>')).toThrow(ValidationError);
    expect(() => compileImagePattern('<tool>/<name>.<ext>')).toThrow(/must contain <id>/);
    expect(() => compileImagePattern('<tool>/<id>.<format>')).toThrow(/unknown placeholder <format>/);
  });

  it('maps extensions to MIME types', () => {
    expect(mimeForExtension('JPG')).toBe('image/jpeg');
    expect(mimeForExtension('png')).toBe('image/png');
  });
});
