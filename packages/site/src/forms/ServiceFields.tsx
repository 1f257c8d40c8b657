import { useMemo } from 'react';
import {
  CATEGORY_KEYS,
  categoryLabelKey,
  flagUrl,
  getCountries,
  FLAG_PLACEHOLDER,
  type AddressDetails,
} from '@poruch/core';
import { AddressCombobox, needsMapAddress, type ServiceFormValues } from '@poruch/widgets';
import { useApp } from '../app/context.js';
import {
  CheckboxField,
  describedBy,
  FieldFrame,
  FlagImage,
  SelectField,
  TextField,
} from './fields.js';
import type { AddressCheck } from './useAddressCheck.js';
import { DuplicatesPanel } from './DuplicatesPanel.js';
import type { FormController } from './useForm.js';
import { fieldId } from './paths.js';
import { LIMITS } from '@poruch/core';

export interface ServiceFieldsProps {
  form: FormController<object>;
  /** The service's path in the form values: `service` in registration, '' in the dashboard. */
  prefix: string;
  address: AddressCheck;
  /** Adding a service: show the approved services that look like it (DuplicatesPanel). */
  checkDuplicates?: boolean;
}

const candidateLabel = (c: AddressDetails) => c.displayName;

/**
 * The site's rendering of the service form's model (serviceFormModel in @poruch/widgets): every
 * field of a service with the address validation flow: find the address,
 * a wrong address, an ambiguous one with its options, then the confirmation checkbox.
 */
export function ServiceFields({ form, prefix, address, checkDuplicates }: ServiceFieldsProps) {
  const { t, locale } = useApp();
  const path = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const values = (prefix ? form.get(prefix) : form.values) as ServiceFormValues;
  const countries = useMemo(() => getCountries(t, locale), [t, locale]);
  const categories = useMemo(() => {
    const collator = new Intl.Collator(locale === 'ua' ? 'uk' : 'en-GB');
    return CATEGORY_KEYS.map((k) => ({ value: k, label: t(categoryLabelKey(k)) })).sort((a, b) =>
      collator.compare(a.label, b.label),
    );
  }, [t, locale]);
  const label = (name: string) => t(`field.${name}`);
  const onMap = needsMapAddress(values);
  const addressField = form.bind<string>(path('address'));
  const details = values.addressDetails;
  const addressHint = t('registration.address_hint');

  return (
    <>
      <TextField
        {...form.bind<string>(path('name'))}
        label={t('registration.company_name')}
        required
        maxLength={LIMITS.nameMax}
        autoComplete="organization"
      />
      <SelectField
        {...form.bind<string>(path('countryCode'))}
        onChange={(v) => {
          form.set(path('countryCode'), v);
          address.invalidate();
        }}
        label={label('countryCode')}
        required
        placeholder={t('registration.choose_country')}
        options={countries.map((c) => ({ value: c.code, label: c.name }))}
        adornment={
          <FlagImage src={values.countryCode ? flagUrl(values.countryCode) : FLAG_PLACEHOLDER} />
        }
      />
      <SelectField
        {...form.bind<string>(path('category'))}
        label={label('category')}
        placeholder={t('category.empty')}
        options={categories}
      />
      <CheckboxField {...form.bindCheck(path('isOnline'))} label={label('isOnline')} />
      <CheckboxField {...form.bindCheck(path('showOnMap'))} label={label('showOnMap')} />
      <div className="address-check">
        <FieldFrame
          id={addressField.id}
          label={label('address')}
          errors={addressField.errors}
          hint={addressHint}
          required={onMap}
        >
          <AddressCombobox
            id={addressField.id}
            value={addressField.value ?? ''}
            onChange={(v) => {
              form.set(path('address'), v);
              address.invalidate();
            }}
            onPick={address.pickSuggestion}
            suggest={address.suggest}
            listLabel={t('registration.address_suggestions')}
            shownMessage={t('registration.address_suggestions_shown')}
            required={onMap}
            maxLength={LIMITS.addressMax}
            aria-invalid={addressField.errors?.length ? true : undefined}
            aria-describedby={describedBy(addressField.id, addressField.errors, addressHint)}
          />
        </FieldFrame>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void address.check().then((errs) => errs.length && form.setErrors(errs))}
          disabled={address.status === 'checking' || !values.address.trim()}
        >
          {address.status === 'checking'
            ? t('registration.checking_address')
            : t('registration.find_address')}
        </button>
        {address.candidates.length > 0 && (
          <fieldset className="address-check__options">
            <legend>{t('registration.choose_address')}</legend>
            <p className="field__hint">{t('registration.choose_address_hint')}</p>
            {address.candidates.map((c, i) => {
              const id = `${fieldId(form.id, path('address'))}-option-${i}`;
              return (
                <div className="field field--radio" key={`${c.lat},${c.lng},${i}`}>
                  <input
                    type="radio"
                    id={id}
                    name={`${fieldId(form.id, path('address'))}-options`}
                    checked={!!details && details.lat === c.lat && details.lng === c.lng}
                    onChange={() => address.pick(c)}
                  />
                  <label htmlFor={id}>{candidateLabel(c)}</label>
                </div>
              );
            })}
          </fieldset>
        )}
        {details && (
          <div className="address-check__found" role="status">
            <p>
              {t('registration.address_found', { address: details.displayName })}
              {details.approximate && <> ({t('map.approximate')})</>}
            </p>
            {onMap && (
              <CheckboxField
                {...form.bindCheck(path('addressConfirmed'))}
                label={label('addressConfirmed')}
                required
              />
            )}
          </div>
        )}
      </div>
      <TextField
        {...form.bind<string>(path('website'))}
        label={label('website')}
        type="url"
        inputMode="url"
        placeholder="https://"
        maxLength={LIMITS.urlMax}
        autoComplete="url"
      />
      <TextField
        {...form.bind<string>(path('phone'))}
        label={label('phone')}
        type="tel"
        maxLength={LIMITS.phoneMax}
        autoComplete="tel"
      />
      {checkDuplicates && <DuplicatesPanel form={form} prefix={prefix} />}
      <TextField
        {...form.bind<string>(path('descriptionUa'))}
        label={label('descriptionUa')}
        rows={4}
        maxLength={LIMITS.descriptionMax}
      />
      <TextField
        {...form.bind<string>(path('descriptionOther'))}
        label={label('descriptionOther')}
        rows={4}
        maxLength={LIMITS.descriptionMax}
      />
      <TextField
        {...form.bind<string>(path('originalPlace'))}
        label={label('originalPlace')}
        maxLength={LIMITS.addressMax}
      />
      <CheckboxField
        {...form.bindCheck(path('marketingConsent'))}
        label={label('marketingConsent')}
      />
    </>
  );
}
