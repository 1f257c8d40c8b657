import { useEffect } from 'react';
import type { Service } from '@poruch/core';
import {
  type Api,
  CATEGORY_KEYS,
  categoryLabelKey,
  getCountries,
  LIMITS,
  type LocaleCode,
  type Translate,
} from '@poruch/core/lite';
import { ErrorState } from '../shared/ErrorState.js';
import { useConnector } from '../useConnector.js';
import { AddressCombobox } from '../ui/AddressCombobox.js';
import { Checkbox, Field } from '../ui/Field.js';
import { messagesFor } from '../ui/fieldErrors.js';
import { createServiceForm } from './createServiceForm.js';
import {
  answerOf,
  DUPLICATE_CHECK_DELAY_MS,
  duplicateProbe,
  reasonText,
} from './duplicatesModel.js';

export interface AddServiceFormProps {
  api: Api;
  t: Translate;
  lang: LocaleCode;
  onCreated: (service: Service) => void;
  onCancel: () => void;
}

/** Adding a service: the fields, the address check with its options, and the confirmation. */
export function AddServiceForm({ api, t, lang, onCreated, onCancel }: AddServiceFormProps) {
  const [state, form] = useConnector(() => createServiceForm(api), [api]);
  const { values } = state;
  const errs = (field: string) => messagesFor(t, state.fieldErrors, field);
  const probe = duplicateProbe(values);
  const probeKey = probe ? JSON.stringify(probe) : '';
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(
      () => void form.checkDuplicates(controller.signal),
      probeKey ? DUPLICATE_CHECK_DELAY_MS : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [form, probeKey]);
  const claimed = state.lookalikes.find((c) => c.id === values.duplicates?.claimOf);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const created = await form.submit();
    if (created) onCreated(created);
  };
  return (
    <form className="form card" noValidate onSubmit={(e) => void submit(e)} part="service-form">
      <h3>{t('add_service.title')}</h3>
      <Field label={t('field.name')} errors={errs('name')}>
        <input value={values.name} onChange={(e) => form.set({ name: e.currentTarget.value })} />
      </Field>
      <div className="row">
        <Field label={t('field.countryCode')} errors={errs('countryCode')}>
          <select
            value={values.countryCode}
            onChange={(e) => form.set({ countryCode: e.currentTarget.value })}
          >
            <option value="" />
            {getCountries(t, lang).map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('field.category')} errors={errs('category')}>
          <select
            value={values.category}
            onChange={(e) => form.set({ category: e.currentTarget.value })}
          >
            <option value="">{t('category.empty')}</option>
            {CATEGORY_KEYS.map((k) => (
              <option key={k} value={k}>
                {t(categoryLabelKey(k))}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Checkbox
        label={t('field.isOnline')}
        checked={values.isOnline}
        onChange={(isOnline) => form.set({ isOnline })}
      />
      <div className="row">
        <Field
          label={t('field.address')}
          errors={errs('address')}
          hint={t('registration.address_hint')}
        >
          <AddressCombobox
            value={values.address}
            onChange={(address) => form.set({ address })}
            onPick={form.pickSuggestion}
            suggest={form.suggest}
            listLabel={t('registration.address_suggestions')}
            shownMessage={t('registration.address_suggestions_shown')}
            maxLength={LIMITS.addressMax}
            autoComplete="off"
          />
        </Field>
        <button
          type="button"
          className="button button--secondary"
          part="button"
          disabled={state.geocode === 'checking'}
          onClick={() => void form.checkAddress()}
        >
          {t('registration.find_address')}
        </button>
      </div>
      {state.geocode === 'ambiguous' && (
        <fieldset className="card">
          <legend>{t('add_service.address_pick')}</legend>
          <p className="field__hint">{t('registration.choose_address_hint')}</p>
          <div className="candidates">
            {state.candidates.map((c, i) => (
              <label key={`${c.lat},${c.lng},${i}`} className="reason">
                <input
                  type="radio"
                  name="candidate"
                  checked={values.addressDetails === c}
                  onChange={() => form.pick(c)}
                />
                <span>{c.displayName}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {values.addressDetails && (
        <p className="notice" role="status">
          {t('add_service.address_found', { address: values.addressDetails.displayName })}
        </p>
      )}
      <Checkbox
        label={t('field.showOnMap')}
        checked={values.showOnMap}
        onChange={(showOnMap) => form.set({ showOnMap })}
      />
      <Checkbox
        label={t('field.addressConfirmed')}
        checked={values.addressConfirmed}
        errors={errs('addressConfirmed')}
        onChange={(addressConfirmed) => form.set({ addressConfirmed })}
      />
      <div className="row">
        <Field label={t('field.website')} errors={errs('website')}>
          <input
            type="url"
            value={values.website}
            onChange={(e) => form.set({ website: e.currentTarget.value })}
          />
        </Field>
        <Field label={t('field.phone')} errors={errs('phone')}>
          <input
            type="tel"
            value={values.phone}
            onChange={(e) => form.set({ phone: e.currentTarget.value })}
          />
        </Field>
      </div>
      {state.lookalikes.length > 0 && (
        <section className="card" part="duplicates">
          <h3>{t('duplicates.title')}</h3>
          <p className="field__hint">{t('duplicates.intro')}</p>
          {state.lookalikes.map((c) => (
            <fieldset key={c.id} className="lookalike">
              <legend>{c.name}</legend>
              <span className="lookalike__where">
                {[c.isOnline && !c.address ? t('duplicates.online') : c.address]
                  .concat(c.reasons.map((r) => reasonText(t, c, r)))
                  .filter(Boolean)
                  .join(' · ')}
              </span>
              <span className="candidates">
                {(['mine', 'different'] as const).map((a) => (
                  <label key={a} className="reason">
                    <input
                      type="radio"
                      name={`duplicate-${c.id}`}
                      checked={answerOf(values.duplicates, c.id) === a}
                      onChange={() => form.answer(c.id, a)}
                    />
                    <span>{t(`duplicates.${a}`)}</span>
                  </label>
                ))}
              </span>
            </fieldset>
          ))}
          {claimed && (
            <p className="notice" role="status">
              {t('duplicates.claim_notice', { name: claimed.name })}
            </p>
          )}
        </section>
      )}
      <Field label={t('field.descriptionUa')} errors={errs('descriptionUa')}>
        <textarea
          value={values.descriptionUa}
          onChange={(e) => form.set({ descriptionUa: e.currentTarget.value })}
        />
      </Field>
      <Field label={t('field.descriptionOther')} errors={errs('descriptionOther')}>
        <textarea
          value={values.descriptionOther}
          onChange={(e) => form.set({ descriptionOther: e.currentTarget.value })}
        />
      </Field>
      {state.error != null && <ErrorState error={state.error} />}
      <div className="service__actions">
        <button type="submit" className="button" part="button" disabled={state.sending}>
          {t('add_service.submit')}
        </button>
        <button type="button" className="button button--secondary" part="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
