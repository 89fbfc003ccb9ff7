-- Medicare physician fee schedule amounts in each hospital's locality, so a negotiated rate can be
-- shown as a multiple of Medicare: (work RVU × work GPCI + PE RVU × PE GPCI + MP RVU × MP GPCI) ×
-- conversion factor, with the facility PE RVU (services in a hospital) and the non-facility one.
CREATE VIEW hospital_medicare_rates AS
SELECT h.id AS hospital_id,
       r.year,
       r.hcpcs,
       r.modifier,
       r.status,
       round((r.work_rvu * g.work_gpci + r.facility_pe_rvu * g.pe_gpci + r.mp_rvu * g.mp_gpci) * r.conversion_factor, 2) AS facility_amount,
       round((r.work_rvu * g.work_gpci + r.non_facility_pe_rvu * g.pe_gpci + r.mp_rvu * g.mp_gpci) * r.conversion_factor, 2) AS non_facility_amount
  FROM hospitals h
  JOIN medicare_gpcis g ON g.carrier = h.medicare_carrier AND g.locality = h.medicare_locality
  JOIN medicare_rvus r ON r.year = g.year;
