/**
 * Mail templates escape what users wrote (docs/security.md#xss): every template,
 * in both locales, rendered with XSS payloads in every text parameter (service names, decline
 * reasons, report texts, first names, campaign subject and Markdown content). The HTML part is
 * parsed (happy-dom's DOMParser, no script runs): no script, no inline handler, no frame or
 * object, no link or image with a scheme other than http, https or mailto, and the payloads
 * of plain-text parameters read back as the same text.
 */
import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { LOCALE_CODES } from '@poruch/core';
import { renderMail, TEMPLATES, type TemplateName } from '../templates.js';

const PAYLOADS = [
  `<script>__xss(1)</script>`,
  `<img src=x onerror="__xss(2)">`,
  `<svg onload="__xss(3)"></svg>`,
  `"><img src=x onerror=__xss(4)>`,
  `'><script>__xss(5)</script>`,
  `<iframe srcdoc="<script>parent.__xss(6)</script>"></iframe>`,
  `javascript:__xss(7)`,
  `<a href="javascript:__xss(8)">link</a>`,
  `{{constructor.constructor('__xss(9)')()}}`,
  `[click](javascript:__xss(10))`,
  `[data](data:text/html,<script>__xss(11)</script>)`,
  `![img](javascript:__xss(12))`,
  `<ScRiPt>__xss(13)</sCrIpT>`,
  `&lt;img src=x onerror=__xss(14)&gt;`,
  `[v](vbscript:msgbox(15))`,
  `<https://example.org/"onmouseover="__xss(16)>`,
  `https://example.org/a"onmouseover="__xss(17)`,
  `Hello\r\nBcc: victim@example.org\r\n\r\n<script>__xss(19)</script>`,
  `<style>@import 'http://x/'</style><b style="background:url(javascript:__xss(18))">b</b>`,
];

const window = new Window();

/** What is wrong in an HTML part: scripts, handlers, frames, and links or sources of other schemes. */
function problems(html: string): string[] {
  const doc = new window.DOMParser().parseFromString(html, 'text/html');
  const out: string[] = [];
  for (const el of Array.from(doc.querySelectorAll('*'))) {
    const tag = el.localName;
    if (
      [
        'script',
        'iframe',
        'object',
        'embed',
        'svg',
        'math',
        'style',
        'form',
        'base',
        'meta',
      ].includes(tag)
    ) {
      out.push(`<${tag}>`);
    }
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      const value = attr.value ?? '';
      if (name.startsWith('on')) out.push(`${tag}[${name}]`);
      if (['href', 'src', 'action', 'srcdoc', 'xlink:href', 'formaction'].includes(name)) {
        const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
        if (!scheme || !['http', 'https', 'mailto'].includes(scheme)) {
          out.push(`${tag}[${name}=${value}]`);
        }
      }
      if (name === 'style' && /url\(|expression|javascript:/i.test(value)) {
        out.push(`${tag}[style=${value}]`);
      }
    }
  }
  return out;
}

/** The text of the HTML part, as a mail client shows it. */
const textOf = (html: string) =>
  new window.DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';

const reconfirmParams = (p: string, url: string) => ({
  serviceName: p,
  confirmedAt: '2025-11-10T09:00:00.000Z',
  confirmUrl: url,
  updateUrl: url,
  hideDays: 90,
});

/** Each template's parameters with `p` in every free-text one. */
function params(name: TemplateName, p: string): never {
  const url = 'https://poruch.example/dashboard';
  const all: Record<TemplateName, object> = {
    resetPassword: { password: p, minutes: 30, loginUrl: url },
    welcome: { firstName: p, dashboardUrl: url },
    credentialsChanged: { newEmail: p },
    accountDeleted: {},
    serviceApproved: { serviceName: p, dashboardUrl: url },
    serviceDeclined: { serviceName: p, reason: p, dashboardUrl: url },
    newReport: { serviceName: p, reason: 'other', description: p, reportsUrl: url },
    campaign: { subject: p, content: `# ${p}\n\n${p}\n\n* ${p}`, unsubscribeUrl: url },
    alertDigest: {
      kind: 'services',
      filters: [p, p],
      items: [{ name: p, detail: p, url }],
      more: 3,
      searchUrl: url,
      manageUrl: url,
      headers: {},
    },
    alertConfirm: {
      kind: 'services',
      filters: [p, p],
      confirmUrl: url,
      manageUrl: url,
      days: 7,
    },
    reconfirm: reconfirmParams(p, url),
    reconfirmReminder: reconfirmParams(p, url),
  };
  return all[name] as never;
}

describe('mail templates escape user text', () => {
  it('the check finds an unescaped payload (so it can fail)', () => {
    expect(problems(`<p>${PAYLOADS[1]}</p><a href="javascript:x">x</a>`).sort()).toEqual([
      'a[href=javascript:x]',
      'img[onerror]',
      'img[src=x]',
    ]);
  });

  const names = Object.keys(TEMPLATES) as TemplateName[];
  for (const name of names) {
    for (const locale of LOCALE_CODES) {
      it(`${name} (${locale})`, () => {
        for (const payload of PAYLOADS) {
          const mail = renderMail(name, locale, params(name, payload));
          expect({ payload, problems: problems(mail.html) }).toEqual({ payload, problems: [] });
          // A header never carries a line break (service names and campaign subjects are user text).
          expect(mail.subject).not.toMatch(/[\r\n]/);
          if (name !== 'campaign' && name !== 'accountDeleted') {
            // Plain paragraphs: the payload reads back exactly, once escaped, never twice.
            // (HTML parsing turns CRLF into LF: compare with white space collapsed.)
            const collapse = (t: string) => t.replace(/\s+/g, ' ');
            expect(collapse(textOf(mail.html))).toContain(collapse(payload));
            expect(mail.text).toContain(payload);
          }
        }
      });
    }
  }

  it('campaign Markdown keeps safe links and formatting', () => {
    const mail = renderMail('campaign', 'en_GB', {
      subject: 'News',
      content: '**Bold** [site](https://poruch.example/a) [mail](mailto:team@poruch.example)',
      unsubscribeUrl: 'https://poruch.example/unsubscribe?t=1',
    });
    expect(mail.html).toContain('<strong>Bold</strong>');
    expect(mail.html).toContain('href="https://poruch.example/a"');
    expect(mail.html).toContain('href="mailto:team@poruch.example"');
    expect(problems(mail.html)).toEqual([]);
  });
});
