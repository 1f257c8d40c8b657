import { useEffect, useState } from 'react';
import {
  CATEGORY_KEYS,
  LIMITS,
  SERVICE_STATUSES,
  campaignInputSchema,
  categoryLabelKey,
  type Campaign,
  type CampaignInput,
} from '@poruch/core';
import { useApp } from '../../app/context.js';
import { CheckboxField, TextField } from '../../forms/fields.js';
import { Notice } from '../../forms/Notice.js';
import { useForm } from '../../forms/useForm.js';
import { useResource } from '@poruch/widgets';
import { adminApi } from './adminApi.js';

const POLL_MS = 1000;

/** The e-mail sender: subject, content, statuses, categories, send to self; then its progress. */
export function Campaigns() {
  const { t, api, confirm, showToast } = useApp();
  const admin = adminApi(api);
  const form = useForm(
    'campaign',
    { subject: '', content: '', statuses: [], categories: [], sendToSelf: true } as CampaignInput,
    t,
  );
  const [campaign, setCampaign] = useState<Campaign | null>(null);
  const { statuses, categories, sendToSelf } = form.values;
  const key = JSON.stringify([statuses, categories]);

  const count = useResource(
    async (signal) => {
      // Wait for the clicks to settle before counting.
      await new Promise((r) => setTimeout(r, 250));
      if (signal.aborted) throw signal.reason;
      return (await adminApi(api).recipients({ statuses, categories }, signal)).count;
    },
    [key, api],
  );
  const recipients = count.status === 'ready' ? count.data : null;

  // Delivery runs on the server: read its progress until every mail is sent or failed.
  const done = campaign ? campaign.sent + campaign.failed >= campaign.queued : false;
  useEffect(() => {
    if (!campaign || done) return;
    const timer = setTimeout(() => {
      adminApi(api)
        .campaign(campaign.id)
        .then((c) => {
          setCampaign(c);
          if (c.sent + c.failed >= c.queued)
            showToast({
              severity: 'success',
              summary: t('success.summary'),
              detail: t('success.emails_sent'),
            });
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [campaign, done, api, showToast, t]);

  const toggle = (path: 'statuses' | 'categories', value: string, on: boolean) => {
    const list = form.values[path] as string[];
    form.set(path, on ? [...list, value] : list.filter((v) => v !== value));
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.validate(campaignInputSchema);
    if (!input) return;
    const answer = await confirm({
      header: t('email_sender.title'),
      message: input.sendToSelf ? t('email_sender.confirm_self') : t('email_sender.confirm_send'),
    });
    if (answer !== 'accept') return;
    const created = await form.run(() => admin.sendCampaign(input));
    if (!created) return;
    setCampaign(created);
    if (created.queued === 0 || created.sent + created.failed >= created.queued)
      showToast({
        severity: 'success',
        summary: t('success.summary'),
        detail: t('success.emails_sent'),
      });
  };

  return (
    <>
      <div className="section-head">
        <h1>{t('email_sender.title')}</h1>
      </div>
      <p className="page__intro">{t('email_sender.text')}</p>
      <form className="form" onSubmit={submit} noValidate aria-busy={form.submitting}>
        <div className="card form__section">
          <TextField
            {...form.bind('subject')}
            label={t('field.subject')}
            required
            maxLength={LIMITS.campaignSubjectMax}
          />
          <TextField
            {...form.bind('content')}
            label={t('field.content')}
            rows={10}
            required
            hint={t('email_sender.markdown_hint')}
          />
        </div>
        <fieldset className="card form__section">
          <legend>{t('field.statuses')}</legend>
          <div className="filters">
            {SERVICE_STATUSES.map((s) => (
              <CheckboxField
                key={s}
                id={`campaign-status-${s}`}
                label={t(`service_status.${s}`)}
                checked={statuses.includes(s)}
                onChange={(on) => toggle('statuses', s, on)}
              />
            ))}
          </div>
        </fieldset>
        <fieldset className="card form__section">
          <legend>{t('field.categories')}</legend>
          <div className="filters">
            {CATEGORY_KEYS.map((c) => (
              <CheckboxField
                key={c}
                id={`campaign-category-${c}`}
                label={t(categoryLabelKey(c))}
                checked={categories.includes(c)}
                onChange={(on) => toggle('categories', c, on)}
              />
            ))}
          </div>
        </fieldset>
        <div className="card form__section">
          <CheckboxField {...form.bindCheck('sendToSelf')} label={t('field.sendToSelf')} />
          <p className="item__meta" role="status">
            {sendToSelf
              ? t('email_sender.to_self')
              : recipients === null
                ? t('app.loading')
                : t('email_sender.recipients', { count: recipients })}
          </p>
          <div className="form__actions">
            <button
              type="submit"
              className="button"
              disabled={form.submitting || (!!campaign && !done)}
            >
              {t('email_sender.submit')}
            </button>
          </div>
        </div>
      </form>
      {campaign && (
        <section
          className="card form__section"
          aria-labelledby="campaign-progress"
          data-campaign-state={done ? 'done' : 'sending'}
        >
          <h2 id="campaign-progress">{t('email_sender.progress')}</h2>
          <progress
            className="progress"
            max={Math.max(1, campaign.queued)}
            value={campaign.queued ? campaign.sent + campaign.failed : 1}
            aria-label={t('email_sender.progress')}
          />
          <p>
            {t('field.queued')}: {campaign.queued} · {t('field.sent')}: {campaign.sent} ·{' '}
            {t('field.failed')}: {campaign.failed}
          </p>
          {done && <Notice kind="success">{t('success.emails_sent')}</Notice>}
        </section>
      )}
    </>
  );
}
