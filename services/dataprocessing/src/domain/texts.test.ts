import { chooseText } from './texts';
import type { TextRecord } from './model';

const at = new Date(0);
const t = (id: number, language: string, type: TextRecord['type'] = 'default'): TextRecord => ({
  id,
  value: `${language}-${type}`,
  language,
  type,
  createdAt: at,
  updatedAt: at,
});

describe('choosing a text', () => {
  const texts = [t(1, 'de'), t(2, 'en'), t(3, 'en', 'short'), t(4, 'fr', 'children')];

  it('prefers the requested language and type', () => {
    expect(chooseText(texts, 'en', 'short')?.id).toBe(3);
    expect(chooseText(texts, 'de')?.id).toBe(1);
  });
  it('falls back to the default type within the language, then to any type', () => {
    expect(chooseText(texts, 'en', 'children')?.id).toBe(2);
    expect(chooseText(texts, 'fr')?.id).toBe(4);
  });
  it('falls back to English, then to the oldest text of any language', () => {
    expect(chooseText(texts, 'it')?.id).toBe(2);
    expect(chooseText([t(5, 'fr'), t(4, 'de')], 'it')?.id).toBe(4);
    expect(chooseText([t(5, 'fr'), t(4, 'de', 'short')], '')?.id).toBe(5);
  });
  it('is null without texts', () => {
    expect(chooseText([], 'en')).toBeNull();
  });
});
