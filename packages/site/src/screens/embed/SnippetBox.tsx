import { useId, useRef, useState } from 'react';
import { useT } from '../../app/context.js';

/**
 * The snippet in a read-only text area (selectable: the way to copy when the clipboard is
 * blocked) and a Copy button with a spoken confirmation. When the browser refuses the clipboard,
 * the text is selected and the person is told to copy it themselves.
 */
export function SnippetBox({ snippet, incomplete }: { snippet: string; incomplete: boolean }) {
  const t = useT();
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [outcome, setOutcome] = useState<{ snippet: string; copied: boolean } | null>(null);
  // What a copy did, while the snippet is the one copied.
  const copied = outcome?.snippet === snippet ? (outcome.copied ? 'yes' : 'blocked') : null;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setOutcome({ snippet, copied: true });
    } catch {
      setOutcome({ snippet, copied: false });
      area.current?.focus();
      area.current?.select();
    }
  };

  return (
    <section className="embed__section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('embed.snippet')}</h2>
      <p className="embed__hint" id={`${id}-hint`}>
        {t(incomplete ? 'embed.choose_service' : 'embed.snippet_hint')}
      </p>
      <textarea
        ref={area}
        className="embed__code"
        readOnly
        rows={6}
        spellCheck={false}
        value={snippet}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-hint`}
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="embed__copy">
        <button type="button" className="button" disabled={incomplete} onClick={copy}>
          {t('embed.copy')}
        </button>
        <span
          role="status"
          className={copied === 'blocked' ? 'embed__hint embed__hint--error' : 'embed__hint'}
        >
          {copied === 'yes' && t('embed.copied')}
          {copied === 'blocked' && t('embed.copy_blocked')}
        </span>
      </div>
    </section>
  );
}
