ALTER TABLE "medicare_rvus" ADD COLUMN "non_facility_na" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "medicare_rvus" ADD COLUMN "facility_na" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- The Medicare amounts a rate is compared with are what Medicare pays (RVU file read-me, 2025):
-- * only codes paid under the fee schedule have one: status A (active), R (restricted coverage)
--   and T (injections). B, I, N and X codes may show RVUs "not used for Medicare payment", and C
--   (carrier-priced), E, J, M and P codes have none, so their amounts are NULL, not a price;
-- * a paid code whose RVUs add up to nothing (954 of the 1,058 R codes in 2025) has no national
--   amount: NULL, not 0;
-- * a setting the file marks NA ("rarely or never performed" there: 4,064 non-facility and 2,530
--   facility rows in 2025) keeps the amount its RVUs give, which is what a contractor pays when it
--   allows the service there (the file prints the other setting's PE RVU when none was made for
--   this one); facility_na and non_facility_na say so beside the amounts;
-- * the imaging services the OPPS cap applies to are paid the lesser of the fee schedule amount
--   and the cap of the hospital's locality (OPPSCAP file, medicare_opps_caps).
CREATE OR REPLACE VIEW hospital_medicare_rates AS
SELECT h.id AS hospital_id,
       r.year,
       r.hcpcs,
       r.modifier,
       r.status,
       -- least() ignores NULL: a cap alone is never a price.
       CASE WHEN pfs.facility IS NOT NULL THEN least(pfs.facility, c.facility_cap) END AS facility_amount,
       CASE WHEN pfs.non_facility IS NOT NULL THEN least(pfs.non_facility, c.non_facility_cap) END AS non_facility_amount,
       r.facility_na,
       r.non_facility_na
  FROM hospitals h
  JOIN medicare_gpcis g ON g.carrier = h.medicare_carrier AND g.locality = h.medicare_locality
  JOIN medicare_rvus r ON r.year = g.year
  CROSS JOIN LATERAL (
    SELECT CASE WHEN r.status IN ('A', 'R', 'T') THEN
             nullif(round((r.work_rvu * g.work_gpci + r.facility_pe_rvu * g.pe_gpci + r.mp_rvu * g.mp_gpci) * r.conversion_factor, 2), 0)
           END AS facility,
           CASE WHEN r.status IN ('A', 'R', 'T') THEN
             nullif(round((r.work_rvu * g.work_gpci + r.non_facility_pe_rvu * g.pe_gpci + r.mp_rvu * g.mp_gpci) * r.conversion_factor, 2), 0)
           END AS non_facility
  ) pfs
  LEFT JOIN medicare_opps_caps c
    ON c.year = r.year AND c.hcpcs = r.hcpcs AND c.modifier = r.modifier
   AND c.carrier = g.carrier AND c.locality = g.locality;
