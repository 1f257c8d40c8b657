import type { Service, ServiceInput } from '@poruch/core';
import { services } from '../db/schema.js';

export type ServiceRow = typeof services.$inferSelect;

/** The columns a partner's input sets; position comes from the validated address. */
export function serviceInputToRow(input: ServiceInput) {
  const { addressConfirmed: _confirmed, duplicates: _duplicates, ...rest } = input;
  return {
    ...rest,
    lat: input.addressDetails?.lat ?? null,
    lng: input.addressDetails?.lng ?? null,
  };
}

export function serviceToApi(row: ServiceRow): Service {
  return {
    id: row.id,
    ownerId: row.ownerId,
    name: row.name,
    countryCode: row.countryCode,
    category: row.category,
    address: row.address,
    addressDetails: row.addressDetails,
    website: row.website,
    phone: row.phone,
    descriptionUa: row.descriptionUa,
    descriptionOther: row.descriptionOther,
    isOnline: row.isOnline,
    haveVacancy: row.haveVacancy,
    showOnMap: row.showOnMap,
    isPartner: row.isPartner,
    status: row.status,
    declineReason: row.declineReason,
    usedCount: row.usedCount,
    originalPlace: row.originalPlace,
    marketingConsent: row.marketingConsent,
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    reconfirmMailedAt: row.reconfirmMailedAt?.toISOString() ?? null,
    confirmation: row.confirmation,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
