import {
  HospitalDetailSchema,
  HospitalItemSchema,
  InventoryRowSchema,
  MsaItemSchema,
  StateItemSchema,
  type HospitalDetail,
  type HospitalItem,
  type InventoryRow,
  type MsaItem,
  type StateItem,
} from '@ratelens/core';
import { requestJson, withQuery } from '../../shared/http.ts';

/** The public calls of the inventory list (search-and-accounts §2 "Inventory list", §7). */

export function getStates(): Promise<StateItem[]> {
  return requestJson('/api/master/getallstates', { schema: StateItemSchema.array() });
}

/** A state's metro areas by its code, as the rate search asks (§7 "Subscription/getmsafilter"). */
export function getMsas(stateCode: string): Promise<MsaItem[]> {
  return requestJson(withQuery('/api/Subscription/getmsafilter', { stateCode }), {
    schema: MsaItemSchema.array(),
  });
}

/** A state's metro areas by its name, as the inventory list asks (§7 "getmsabystatename"). */
export function getMsasByStateName(state: string): Promise<MsaItem[]> {
  return requestJson(withQuery('/api/inventory/getmsabystatename', { state }), {
    schema: MsaItemSchema.array(),
  });
}

export function getHospitals(stateName: string, msaId: string): Promise<HospitalItem[]> {
  // The old product's shape: one JSON-encoded query parameter (§7 "Inventory/getHospitalbyFilter").
  const FilterJson = JSON.stringify({ statename: stateName, msaId });
  return requestJson(withQuery('/api/Inventory/getHospitalbyFilter', { FilterJson }), {
    schema: HospitalItemSchema.array(),
  });
}

export function getInventoryListings(): Promise<InventoryRow[]> {
  return requestJson('/api/Inventory/InventoryListings', { schema: InventoryRowSchema.array() });
}

export function getHospitalDetail(hospitalId: string): Promise<HospitalDetail> {
  return requestJson(`/api/Inventory/hospital/${encodeURIComponent(hospitalId)}`, {
    schema: HospitalDetailSchema,
  });
}
