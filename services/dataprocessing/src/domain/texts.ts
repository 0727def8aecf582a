import type { TextRecord, TextType } from './model';

/**
 * Which text of a specification to show for a requested language and type.
 *
 * Languages are tried in this order: the requested language, then English (`en`), then any
 * language (the text with the lowest id). Within a language, the requested type is preferred,
 * then `default`, then any type (lowest id). Null when the specification has no text.
 */
export function chooseText(texts: readonly TextRecord[], language: string, type: TextType = 'default'): TextRecord | null {
  if (!texts.length) return null;
  const byId = [...texts].sort((a, b) => a.id - b.id);
  const pick = (candidates: TextRecord[]): TextRecord | null =>
    candidates.find((t) => t.type === type) ?? candidates.find((t) => t.type === 'default') ?? candidates[0] ?? null;
  for (const lang of [language, 'en']) {
    if (!lang) continue;
    const found = pick(byId.filter((t) => t.language === lang));
    if (found) return found;
  }
  return pick(byId);
}
