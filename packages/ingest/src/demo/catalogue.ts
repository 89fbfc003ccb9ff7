import type { CodeRef, Setting } from '../model.ts';

/**
 * The demo item catalogue: about 190 common hospital items across CMS code types. Descriptions
 * are our own plain words (never AMA CPT descriptors, which are copyrighted). `base` is a rough
 * national reference payment in dollars; every demo price is derived from it, so relative prices
 * stay plausible (an MRI costs more than a blood draw) while the numbers themselves are fictional.
 *
 * To add an item: append a row to the list of its category; keep descriptions in your own words.
 */

export type ItemKind =
  | 'visit'
  | 'emergency'
  | 'imaging'
  | 'lab'
  | 'procedure'
  | 'therapy'
  | 'anesthesia'
  | 'drug'
  | 'implant'
  | 'supply'
  | 'drg'
  | 'room'
  | 'facility';

export type DrugUnitType = 'GR' | 'ML' | 'ME' | 'UN' | 'F2' | 'GM' | 'EA';

export interface CatalogueItem {
  description: string;
  codes: CodeRef[];
  drug: { unit: number; type: DrugUnitType } | null;
  kind: ItemKind;
  base: number;
  settings: Setting[];
  /** Extra standard charges for the same item with these modifier lists (e.g. bilateral). */
  modifierVariants: string[][];
}

type Row = [code: string, rc: string | null, description: string, base: number];

function rows(
  type: string,
  kind: ItemKind,
  settings: Setting[],
  list: Row[],
  modifierVariants: Record<string, string[][]> = {},
): CatalogueItem[] {
  return list.map(([code, rc, description, base]) => ({
    description,
    codes:
      rc === null
        ? [{ code, type }]
        : [
            { code, type },
            { code: rc, type: 'RC' },
          ],
    drug: null,
    kind,
    base,
    settings,
    modifierVariants: modifierVariants[code] ?? [],
  }));
}

const OFFICE_VISITS = rows(
  'CPT',
  'visit',
  ['outpatient'],
  [
    ['99202', '0510', 'Clinic visit, new patient, straightforward', 75],
    ['99203', '0510', 'Clinic visit, new patient, low complexity', 115],
    ['99204', '0510', 'Clinic visit, new patient, moderate complexity', 170],
    ['99205', '0510', 'Clinic visit, new patient, high complexity', 225],
    ['99211', '0510', 'Clinic visit, returning patient, nurse only', 25],
    ['99212', '0510', 'Clinic visit, returning patient, straightforward', 60],
    ['99213', '0510', 'Clinic visit, returning patient, low complexity', 95],
    ['99214', '0510', 'Clinic visit, returning patient, moderate complexity', 135],
    ['99215', '0510', 'Clinic visit, returning patient, high complexity', 190],
  ],
);

const EMERGENCY_VISITS = rows(
  'CPT',
  'emergency',
  ['outpatient'],
  [
    ['99281', '0450', 'Emergency department visit, minimal problem', 80],
    ['99282', '0450', 'Emergency department visit, low severity', 140],
    ['99283', '0450', 'Emergency department visit, moderate severity', 260],
    ['99284', '0450', 'Emergency department visit, high severity', 430],
    ['99285', '0450', 'Emergency department visit, life-threatening problem', 620],
    ['99291', '0450', 'Critical care, first hour', 560],
  ],
);

const INPATIENT_VISITS = rows(
  'CPT',
  'visit',
  ['inpatient'],
  [
    ['99221', null, 'First hospital day physician care, straightforward or low complexity', 110],
    ['99222', null, 'First hospital day physician care, moderate complexity', 150],
    ['99223', null, 'First hospital day physician care, high complexity', 205],
    ['99231', null, 'Later hospital day physician care, low complexity', 60],
    ['99232', null, 'Later hospital day physician care, moderate complexity', 90],
    ['99233', null, 'Later hospital day physician care, high complexity', 130],
    ['99238', null, 'Hospital discharge day, 30 minutes or less', 85],
  ],
);

const IMAGING = rows(
  'CPT',
  'imaging',
  ['outpatient', 'inpatient'],
  [
    ['70450', '0350', 'CT scan of the head, no contrast', 150],
    ['70486', '0350', 'CT scan of the face and sinuses, no contrast', 170],
    ['70551', '0610', 'MRI of the brain, no contrast', 260],
    ['70553', '0610', 'MRI of the brain, before and after contrast', 390],
    ['71045', '0320', 'Chest X-ray, one view', 30],
    ['71046', '0320', 'Chest X-ray, two views', 38],
    ['71250', '0350', 'CT scan of the chest, no contrast', 160],
    ['71260', '0350', 'CT scan of the chest with contrast', 210],
    ['72141', '0610', 'MRI of the neck spine, no contrast', 250],
    ['72148', '0610', 'MRI of the lower back spine, no contrast', 250],
    ['72193', '0350', 'CT scan of the pelvis with contrast', 230],
    ['73030', '0320', 'Shoulder X-ray, two or more views', 35],
    ['73562', '0320', 'Knee X-ray, three views', 42],
    ['73610', '0320', 'Ankle X-ray, three or more views', 38],
    ['73721', '0610', 'MRI of a leg joint such as the knee, no contrast', 240],
    ['74176', '0350', 'CT scan of abdomen and pelvis, no contrast', 210],
    ['74177', '0350', 'CT scan of abdomen and pelvis with contrast', 300],
    ['74178', '0350', 'CT scan of abdomen and pelvis, before and after contrast', 350],
    ['76700', '0402', 'Ultrasound of the whole abdomen', 120],
    ['76705', '0402', 'Ultrasound of part of the abdomen', 90],
    ['76805', '0402', 'Pregnancy ultrasound after the first trimester', 140],
    ['76856', '0402', 'Ultrasound of the pelvis', 110],
    ['77066', '0403', 'Diagnostic mammogram of both breasts', 160],
    ['77067', '0403', 'Screening mammogram of both breasts', 130],
    ['78452', '0341', 'Nuclear heart scan at rest and under stress', 480],
  ],
);

const LAB = rows(
  'CPT',
  'lab',
  ['both'],
  [
    ['36415', '0300', 'Drawing blood from a vein', 3],
    ['80048', '0301', 'Basic blood chemistry panel', 9],
    ['80053', '0301', 'Comprehensive blood chemistry panel', 11],
    ['80061', '0301', 'Cholesterol and lipid panel', 14],
    ['80076', '0301', 'Liver function panel', 9],
    ['81001', '0307', 'Urinalysis with microscope, automated', 4],
    ['81003', '0307', 'Urinalysis without microscope, automated', 3],
    ['82306', '0301', 'Vitamin D level', 30],
    ['82947', '0301', 'Blood sugar level', 4],
    ['83036', '0301', 'Hemoglobin A1c, average blood sugar', 10],
    ['83880', '0301', 'BNP heart strain marker', 35],
    ['84153', '0301', 'Prostate specific antigen (PSA)', 19],
    ['84443', '0301', 'Thyroid stimulating hormone (TSH)', 17],
    ['84484', '0301', 'Troponin heart muscle damage test', 11],
    ['85025', '0305', 'Complete blood count with differential', 8],
    ['85027', '0305', 'Complete blood count without differential', 7],
    ['85610', '0305', 'Prothrombin time (blood clotting)', 4],
    ['85730', '0305', 'Partial thromboplastin time (blood clotting)', 6],
    ['86580', '0302', 'Tuberculosis skin test', 7],
    ['86803', '0302', 'Hepatitis C antibody screen', 14],
    ['87086', '0306', 'Urine culture with colony count', 9],
    ['87389', '0302', 'HIV-1 and HIV-2 antigen and antibody screen', 25],
    ['87491', '0306', 'Chlamydia DNA test', 35],
    ['87635', '0306', 'COVID-19 virus DNA/RNA test', 51],
    ['87804', '0306', 'Rapid influenza test', 16],
  ],
);

const SURGERY_OUTPATIENT = rows(
  'CPT',
  'procedure',
  ['outpatient'],
  [
    ['10060', '0361', 'Drainage of a simple skin abscess', 160],
    ['11042', '0361', 'Removal of dead tissue from a wound, first 20 sq cm', 190],
    ['12001', '0450', 'Simple stitching of a small wound, 2.5 cm or less', 110],
    ['19120', '0360', 'Removal of a breast lump', 1900],
    ['20610', '0361', 'Injection or drainage of a large joint', 95],
    ['25600', '0360', 'Closed treatment of a wrist fracture', 420],
    ['28285', '0360', 'Hammertoe correction', 2100],
    ['29827', '0360', 'Arthroscopic rotator cuff repair', 5200],
    ['29881', '0360', 'Knee arthroscopy with meniscus trimming', 2600],
    ['30520', '0360', 'Straightening of the nasal septum', 3100],
    ['42820', '0360', 'Removal of tonsils and adenoids, under age 12', 2300],
    ['43239', '0750', 'Upper GI endoscopy with biopsy', 780],
    ['44970', '0360', 'Laparoscopic appendix removal', 4600],
    ['45378', '0750', 'Diagnostic colonoscopy', 720],
    ['45380', '0750', 'Colonoscopy with biopsy', 790],
    ['45385', '0750', 'Colonoscopy with polyp removal by snare', 830],
    ['47562', '0360', 'Laparoscopic gallbladder removal', 4700],
    ['49505', '0360', 'Open repair of an inguinal hernia, age 5 or older', 2900],
    ['49650', '0360', 'Laparoscopic inguinal hernia repair', 3300],
    ['52000', '0360', 'Bladder scope examination', 390],
    ['55700', '0360', 'Prostate needle biopsy', 650],
    ['58558', '0360', 'Hysteroscopy with biopsy or polyp removal', 2400],
    ['58661', '0360', 'Laparoscopic removal of ovary or tube', 4100],
    ['62323', '0361', 'Lumbar epidural steroid injection with imaging', 360],
    ['64483', '0361', 'Nerve root injection in the lower back with imaging', 420],
    ['64721', '0360', 'Carpal tunnel release', 2100],
    ['66984', '0360', 'Cataract removal with lens implant', 2000],
    ['69436', '0360', 'Ear tube placement under general anesthesia', 1500],
  ],
  { '29881': [['RT'], ['LT']], '64721': [['50']], '66984': [['RT'], ['LT']] },
);

const SURGERY_BOTH = rows(
  'CPT',
  'procedure',
  ['inpatient', 'outpatient'],
  [
    ['22551', '0360', 'Neck spine fusion with disc removal, one level', 14500],
    ['27130', '0360', 'Total hip replacement', 12800],
    ['27447', '0360', 'Total knee replacement', 12400],
    ['33208', '0360', 'Insertion of a two-lead permanent pacemaker', 10500],
    ['63030', '0360', 'Lower back disc surgery, one level', 6200],
    ['92928', '0481', 'Coronary artery stent placement, one vessel', 9800],
    ['93458', '0481', 'Heart catheterization with coronary angiography', 2900],
  ],
  { '27447': [['50']], '27130': [['50']] },
);

const THERAPY = rows(
  'CPT',
  'therapy',
  ['outpatient'],
  [
    ['90471', '0771', 'Giving one vaccine by injection', 20],
    ['90686', '0636', 'Flu vaccine, four strains, preservative free, 0.5 mL', 22],
    ['90715', '0636', 'Tetanus, diphtheria and whooping cough vaccine, age 7+', 35],
    ['90832', '0914', 'Psychotherapy, 30 minutes', 75],
    ['90837', '0914', 'Psychotherapy, 60 minutes', 150],
    ['90935', '0821', 'Hemodialysis session with one physician evaluation', 260],
    ['92507', '0440', 'Speech therapy session, individual', 85],
    ['92557', '0471', 'Full hearing test', 40],
    ['93000', '0730', 'Electrocardiogram (ECG) with report', 17],
    ['93005', '0730', 'Electrocardiogram (ECG) tracing only', 8],
    ['93015', '0482', 'Treadmill heart stress test', 75],
    ['93306', '0483', 'Heart ultrasound (echo), complete with Doppler', 210],
    ['93350', '0483', 'Heart ultrasound during stress', 260],
    ['94010', '0460', 'Breathing test (spirometry)', 35],
    ['94640', '0410', 'Breathing treatment with a nebulizer', 18],
    ['95810', '0740', 'Overnight sleep study in a sleep lab', 600],
    ['95816', '0740', 'Brain wave test (EEG), awake and drowsy', 210],
    ['96365', '0260', 'IV infusion for treatment, first hour', 170],
    ['96372', '0260', 'Injection of a drug under the skin or into a muscle', 38],
    ['96413', '0335', 'Chemotherapy infusion, first hour', 290],
    ['97110', '0420', 'Physical therapy exercises, each 15 minutes', 29],
    ['97140', '0420', 'Hands-on manual therapy, each 15 minutes', 27],
    ['97161', '0424', 'Physical therapy evaluation, low complexity', 100],
  ],
);

const ANESTHESIA = rows(
  'CPT',
  'anesthesia',
  ['inpatient', 'outpatient'],
  [
    ['00142', '0370', 'Anesthesia for eye lens surgery', 320],
    ['00400', '0370', 'Anesthesia for skin procedures on the trunk or limbs', 280],
    ['00731', '0370', 'Anesthesia for upper GI endoscopy', 300],
    ['00790', '0370', 'Anesthesia for upper abdominal laparoscopic surgery', 650],
    ['00811', '0370', 'Anesthesia for lower GI endoscopy', 260],
    ['00840', '0370', 'Anesthesia for lower abdominal surgery', 560],
    ['01402', '0370', 'Anesthesia for knee joint replacement', 700],
    ['01967', '0370', 'Epidural anesthesia for planned vaginal delivery', 750],
  ],
);

type DrugRow = [
  hcpcs: string,
  ndc: string,
  description: string,
  base: number,
  unit: number,
  type: DrugUnitType,
];

/**
 * Drugs carry an NDC, so v3 requires drug_information (unit and type of measurement). The NDC
 * labeler code 00000 is never assigned by the FDA: these codes cannot be mistaken for a product.
 */
const DRUGS: CatalogueItem[] = (
  [
    ['J0171', '00000-0171-01', 'Epinephrine injection, 0.1 mg', 4, 1, 'ML'],
    ['J0585', '00000-0585-01', 'Botulinum toxin type A injection, per unit', 6, 100, 'UN'],
    ['J0696', '00000-0696-01', 'Ceftriaxone antibiotic injection, 250 mg', 2, 1, 'EA'],
    ['J0897', '00000-0897-01', 'Denosumab injection, 1 mg', 22, 1, 'ML'],
    ['J1030', '00000-1030-01', 'Methylprednisolone steroid injection, 40 mg', 4, 1, 'ML'],
    ['J1100', '00000-1100-01', 'Dexamethasone steroid injection, 1 mg', 1, 1, 'ML'],
    ['J1170', '00000-1170-01', 'Hydromorphone pain injection, up to 4 mg', 3, 1, 'ML'],
    ['J1642', '00000-1642-01', 'Heparin flush, per 10 units', 1, 5, 'ML'],
    ['J1745', '00000-1745-01', 'Infliximab infusion, 10 mg', 60, 1, 'EA'],
    ['J1885', '00000-1885-01', 'Ketorolac pain injection, 15 mg', 1, 1, 'ML'],
    ['J2250', '00000-2250-01', 'Midazolam sedative injection, 1 mg', 1, 2, 'ML'],
    ['J2270', '00000-2270-01', 'Morphine injection, up to 10 mg', 2, 1, 'ML'],
    ['J2405', '00000-2405-01', 'Ondansetron anti-nausea injection, 1 mg', 1, 2, 'ML'],
    ['J2505', '00000-2505-01', 'Pegfilgrastim white cell booster, 6 mg', 1800, 0.6, 'ML'],
    ['J3010', '00000-3010-01', 'Fentanyl injection, 0.1 mg', 1, 2, 'ML'],
    ['J3420', '00000-3420-01', 'Vitamin B12 injection, up to 1000 mcg', 1, 1, 'ML'],
    ['J7030', '00000-7030-01', 'Normal saline IV fluid, 1000 cc', 3, 1000, 'ML'],
    ['J7120', '00000-7120-01', "Lactated Ringer's IV fluid, up to 1000 cc", 4, 1000, 'ML'],
    ['J9271', '00000-9271-01', 'Pembrolizumab immunotherapy infusion, 1 mg', 55, 4, 'ML'],
    ['J9355', '00000-9355-01', 'Trastuzumab cancer infusion, 10 mg', 95, 1, 'EA'],
  ] satisfies DrugRow[]
).map(([hcpcs, ndc, description, base, unit, type]) => ({
  description,
  codes: [
    { code: hcpcs, type: 'HCPCS' },
    { code: ndc, type: 'NDC' },
  ],
  drug: { unit, type },
  kind: 'drug',
  base,
  settings: ['both'],
  modifierVariants: [],
}));

const HCPCS_SERVICES = rows(
  'HCPCS',
  'procedure',
  ['outpatient'],
  [
    ['G0105', '0750', 'Screening colonoscopy for a person at high risk', 720],
    ['G0121', '0750', 'Screening colonoscopy for a person not at high risk', 720],
    ['G0283', '0420', 'Electrical stimulation therapy, unattended', 12],
    ['G0378', '0762', 'Hospital observation care, per hour', 28],
    ['G0463', '0510', 'Hospital outpatient clinic visit', 120],
    ['A0427', '0540', 'Advanced life support ambulance, emergency', 490],
    ['A0429', '0540', 'Basic life support ambulance, emergency', 410],
    ['E0114', '0274', 'Underarm crutches with pads and tips, one pair', 40],
    ['L3908', '0274', 'Wrist and hand brace, prefabricated, 8" long', 45],
  ],
);

const IMPLANTS = rows(
  'HCPCS',
  'implant',
  ['inpatient', 'outpatient'],
  [
    ['C1713', '0278', 'Anchor or screw for bone or tendon repair, implanted', 280],
    ['C1776', '0278', 'Joint replacement device, implanted', 3900],
    ['C1785', '0278', 'Dual-chamber pacemaker device', 6100],
    ['C1874', '0278', 'Coated coronary stent with delivery system', 1400],
  ],
);

const SUPPLIES = rows(
  'RC',
  'supply',
  ['both'],
  [
    ['0250', null, 'Pharmacy, general', 45],
    ['0270', null, 'Medical and surgical supplies, general', 60],
    ['0300', null, 'Laboratory, general', 30],
    ['0320', null, 'Diagnostic X-ray, general', 80],
  ],
);

const FACILITY = rows(
  'RC',
  'facility',
  ['outpatient'],
  [
    ['0360', null, 'Operating room services, first 30 minutes', 900],
    ['0370', null, 'Anesthesia services, first 30 minutes', 350],
    ['0450', null, 'Emergency room, general', 300],
    ['0710', null, 'Recovery room, first 30 minutes', 260],
    ['0720', null, 'Labor room and delivery, general', 1100],
    ['0762', null, 'Observation room, per hour', 40],
  ],
);

const ROOMS = rows(
  'RC',
  'room',
  ['inpatient'],
  [
    ['0114', null, 'Psychiatric room and board, private room, per day', 1100],
    ['0120', null, 'Medical surgical room and board, semi-private room, per day', 1400],
    ['0171', null, 'Newborn nursery, level I, per day', 700],
    ['0200', null, 'Intensive care unit, general, per day', 3300],
    ['0206', null, 'Intermediate (step-down) intensive care, per day', 2300],
  ],
);

const APC = rows(
  'APC',
  'facility',
  ['outpatient'],
  [
    ['5012', null, 'Outpatient clinic visit group', 125],
    ['5073', null, 'Excision and biopsy group, level 3', 1400],
    ['5114', null, 'Musculoskeletal procedure group, level 4', 6600],
    ['5302', null, 'Upper GI procedure group, level 2', 1700],
    ['5522', null, 'Imaging without contrast group, level 2', 120],
    ['5692', null, 'Drug administration group, level 2', 60],
  ],
);

const DRGS = rows(
  'MS-DRG',
  'drg',
  ['inpatient'],
  [
    ['065', null, 'Stroke or brain bleed with complications', 7600],
    ['189', null, 'Lung failure', 8300],
    ['190', null, 'COPD flare-up with major complications', 7200],
    ['193', null, 'Pneumonia with major complications', 8500],
    ['194', null, 'Pneumonia with complications', 5800],
    ['247', null, 'Heart artery stent without major complications', 12400],
    ['291', null, 'Heart failure with major complications', 8900],
    ['292', null, 'Heart failure with complications', 6100],
    ['309', null, 'Irregular heartbeat with complications', 5200],
    ['312', null, 'Fainting and collapse', 5100],
    ['313', null, 'Chest pain', 3900],
    ['378', null, 'Stomach or bowel bleeding with complications', 6000],
    ['392', null, 'Stomach and bowel disorders without major complications', 4800],
    ['419', null, 'Laparoscopic gallbladder removal without complications', 10200],
    ['460', null, 'Spinal fusion, not neck, without major complications', 27300],
    ['469', null, 'Hip or knee replacement with major complications', 22500],
    ['470', null, 'Hip or knee replacement without major complications', 13000],
    ['603', null, 'Skin infection (cellulitis) without major complications', 5000],
    ['641', null, 'Nutrition and metabolism disorders without major complications', 4600],
    ['683', null, 'Kidney failure with complications', 5900],
    ['690', null, 'Urinary tract infection without major complications', 4600],
    ['743', null, 'Non-cancer uterus and ovary surgery without complications', 8100],
    ['788', null, 'Cesarean birth without sterilization or complications', 7400],
    ['807', null, 'Vaginal birth without sterilization or complications', 5300],
    ['795', null, 'Healthy newborn', 1100],
    ['871', null, 'Blood infection (sepsis) with major complications', 11600],
    ['872', null, 'Blood infection (sepsis) without major complications', 6500],
    ['885', null, 'Psychotic disorders', 7000],
    ['897', null, 'Alcohol or drug use disorder without rehabilitation', 4700],
  ],
);

export const CATALOGUE: readonly CatalogueItem[] = [
  ...OFFICE_VISITS,
  ...EMERGENCY_VISITS,
  ...INPATIENT_VISITS,
  ...IMAGING,
  ...LAB,
  ...SURGERY_OUTPATIENT,
  ...SURGERY_BOTH,
  ...THERAPY,
  ...ANESTHESIA,
  ...DRUGS,
  ...HCPCS_SERVICES,
  ...IMPLANTS,
  ...SUPPLIES,
  ...FACILITY,
  ...ROOMS,
  ...APC,
  ...DRGS,
];

/** Code columns a CSV needs: the widest item, plus one for the CDM code of scaled variants. */
export const MAX_CODES = Math.max(...CATALOGUE.map((item) => item.codes.length)) + 1;
