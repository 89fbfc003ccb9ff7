import type { IssueSeverity } from '../model.ts';

/**
 * Every rule the readers check, with how it reads in a report. `one`/`many` complete a sentence
 * such as "12 rates had no payer name". Errors reject the smallest unit they apply to: a header
 * error is reported only, a rate (payer entry) error drops that rate, a charge error drops the
 * charge record; a `kept` error is reported only. Rules follow the CMS schemas (cms-hpt-examples/V*_schema.json).
 */
export interface RuleDefinition {
  severity: IssueSeverity;
  one: string;
  many: string;
  /**
   * An error that leaves what it names loaded: the rules on facts that support a rate or charge
   * (its minimum and maximum, notes, estimated amount, count and percentiles) rather than on the
   * price itself. The file breaks CMS's rules, and the report says so; a price that can be read is
   * not thrown away for it (ADR 0011).
   */
  kept?: true;
}

const error = (one: string, many: string): RuleDefinition => ({ severity: 'error', one, many });
/** An error that is reported while what it names is kept (see `kept`). */
const keptError = (one: string, many: string): RuleDefinition => ({
  severity: 'error',
  one,
  many,
  kept: true,
});
const warning = (one: string, many: string): RuleDefinition => ({ severity: 'warning', one, many });

export const RULES = {
  // Header (file-level facts; reported, nothing rejected).
  'required.hospital_name': error('file has no hospital name', 'files have no hospital name'),
  'required.last_updated_on': error(
    'file has no last_updated_on date',
    'files have no last_updated_on date',
  ),
  'required.standard_charge_information': error(
    'file has no standard_charge_information list',
    'files have no standard_charge_information list',
  ),
  'required.version': error('file declares no version', 'files declare no version'),
  'required.location_name': error('file has no location name', 'files have no location name'),
  'required.hospital_address': error(
    'file has no hospital address',
    'files have no hospital address',
  ),
  'required.license_state': error(
    'file has no valid licence state',
    'files have no valid licence state',
  ),
  'required.type_2_npi': error('file has no type 2 NPI', 'files have no type 2 NPI'),
  'required.attestation': error(
    'file has no confirmed attestation',
    'files have no confirmed attestation',
  ),
  'license.ein': warning(
    'licence number looks like an EIN, not a state licence',
    'licence numbers look like an EIN, not a state licence',
  ),
  'npi.invalid': warning(
    'type 2 NPI is not a valid NPI (ten digits, the last the check digit of the other nine)',
    'type 2 NPIs are not valid NPIs (ten digits, the last the check digit of the other nine)',
  ),
  'npi.decimal': warning(
    'type 2 NPI was written as a decimal number (1234567893.0), as pandas writes numbers, read without the decimals',
    'type 2 NPIs were written as decimal numbers (1234567893.0), as pandas writes numbers, read without the decimals',
  ),
  'npi.separator': warning(
    'list of type 2 NPIs was separated by commas, semicolons or spaces instead of | (read as separate NPIs)',
    'lists of type 2 NPIs were separated by commas, semicolons or spaces instead of | (read as separate NPIs)',
  ),
  'version.declared-differs': warning(
    'version was written in a non-standard way',
    'versions were written in a non-standard way',
  ),
  'version.layout-differs': warning(
    'file declared a v2 version but has fields only 3.0.0 has (location_name, type_2_npi or attestation), and was read as 3.0.0',
    'files declared a v2 version but have fields only 3.0.0 has (location_name, type_2_npi or attestation), and were read as 3.0.0',
  ),
  'version.after-items': warning(
    'file declared its version only after the items, which were checked by the rules of another version',
    'files declared their version only after the items, which were checked by the rules of another version',
  ),
  'date.mm-dd-yyyy': warning(
    'date was written MM/DD/YYYY instead of YYYY-MM-DD',
    'dates were written MM/DD/YYYY instead of YYYY-MM-DD',
  ),
  'date.other-form': warning(
    'date was written in another form than YYYY-MM-DD (read all the same)',
    'dates were written in other forms than YYYY-MM-DD (read all the same)',
  ),
  'date.invalid': error('date could not be read', 'dates could not be read'),
  'attestation.wording': error(
    "file's attestation statement is not CMS's wording",
    "files' attestation statements are not CMS's wording",
  ),
  'attestation.spacing': warning(
    "file's attestation statement differs from CMS's wording in letter case, quotes or spacing only",
    "files' attestation statements differ from CMS's wording in letter case, quotes or spacing only",
  ),
  'attestation.other-word': warning(
    'attestation was confirmed or denied in another word than true or false (read as that)',
    'attestations were confirmed or denied in other words than true or false (read as those)',
  ),
  'attestation.unknown-word': warning(
    "attestation's confirmation was a word that means neither true nor false (not read as confirmed)",
    "attestations' confirmations were words that mean neither true nor false (not read as confirmed)",
  ),
  'archive.other-file': warning(
    'other file in the zip archive was not read, only its first',
    'other files in the zip archive were not read, only its first',
  ),
  'encoding.utf-16': warning(
    'file was UTF-16, not UTF-8 (read all the same)',
    'files were UTF-16, not UTF-8 (read all the same)',
  ),
  'encoding.cp1252': warning(
    'byte was not UTF-8, and was read as Windows-1252',
    'bytes were not UTF-8, and were read as Windows-1252',
  ),
  'column.unknown': warning(
    'column is not a CMS column and was ignored',
    'columns are not CMS columns and were ignored',
  ),
  'column.spaces': warning(
    'column name was written with spaces instead of underscores (read all the same)',
    'column names were written with spaces instead of underscores (read all the same)',
  ),
  'column.case': warning(
    'column name was not in lower case, as the CMS templates write it (read all the same)',
    'column names were not in lower case, as the CMS templates write them (read all the same)',
  ),
  'column.stray-spaces': warning(
    'column name had stray spaces around it or its | separators (read all the same)',
    'column names had stray spaces around them or their | separators (read all the same)',
  ),
  'column.payer-spelling': warning(
    "payer column wrote its payer or plan in another letter case or spacing than the payer's other columns (read as that payer)",
    "payer columns wrote their payer or plan in another letter case or spacing than the payers' other columns (read as those payers)",
  ),
  'column.other-name': warning(
    'column was named another way than CMS names it, and read as the CMS column',
    'columns were named other ways than CMS names them, and read as the CMS columns',
  ),
  'column.json-name': warning(
    'column was named as the JSON template names its field, and read as the CSV column',
    'columns were named as the JSON template names their fields, and read as the CSV columns',
  ),
  'column.no-methodology': error(
    'methodology column was missing, so every rate it would describe is rejected',
    'methodology columns were missing, so every rate they would describe is rejected',
  ),
  'column.shared': warning(
    'column of a wide file named no payer (a methodology or payer notes column) and was read as the column of each payer without one of its own',
    'columns of a wide file named no payer (methodology or payer notes columns) and were read as the column of each payer without one of its own',
  ),
  'column.no-payer': warning(
    'column of a wide file named no payer and plan, so its values were not read (whose they are cannot be told)',
    'columns of a wide file named no payer and plan, so their values were not read (whose they are cannot be told)',
  ),
  // A v3.0 layout under a 2.2.0 header, or the other way: the values are read all the same, and
  // the file's version may be what is wrong.
  'column.other-version': warning(
    'column is one of another CMS version than the file says it follows (read all the same)',
    'columns are of another CMS version than the file says it follows (read all the same)',
  ),
  'column.placeholder': keptError(
    "column kept the CMS template's placeholder ([payer_name], [plan_name] or [i]) in its name, where the file's own goes (not read)",
    "columns kept the CMS template's placeholders ([payer_name], [plan_name] or [i]) in their names, where the file's own go (not read)",
  ),
  'column.missing': error(
    "column the file's CMS template requires was missing (its values read as empty)",
    "columns their file's CMS template requires were missing (their values read as empty)",
  ),
  'column.unnamed': warning(
    'column of the column names row had no name, so its values were not read',
    'columns of the column names row had no name, so their values were not read',
  ),
  'csv.inner-quote': warning(
    'quote inside a quoted value was not doubled, and was read as a quote',
    'quotes inside quoted values were not doubled, and were read as quotes',
  ),
  'csv.unterminated-quote': warning(
    'quote opened a value that never closed, so it was read as text',
    'quotes opened values that never closed, so they were read as text',
  ),
  'csv.row-too-long': error(
    'row ran on for more than 16 MB without a line end and was not read (a damaged file, or lines ended in a way the reader does not know)',
    'rows ran on for more than 16 MB without a line end and were not read (a damaged file, or lines ended in a way the reader does not know)',
  ),
  'csv.cr-line-ends': warning(
    'file ended its lines with CR alone, as old Mac files do (read all the same)',
    'files ended their lines with CR alone, as old Mac files do (read all the same)',
  ),
  'csv.lf-cr-line-ends': warning(
    'file ended its lines with LF CR, CRLF the wrong way round (read all the same)',
    'files ended their lines with LF CR, CRLF the wrong way round (read all the same)',
  ),
  'csv.lone-cr': warning(
    'row held lines that ended with CR alone in a file whose lines end with LF; each was read as a row',
    'rows held lines that ended with CR alone in a file whose lines end with LF; each was read as a row',
  ),
  'csv.line-end-semicolon': warning(
    'file ended every line with a ; after its last value, which was read without it',
    'files ended every line with a ; after their last values, which were read without it',
  ),
  'csv.sep-line': warning(
    'Excel "sep=," line before the header rows was skipped',
    'Excel "sep=," lines before the header rows were skipped',
  ),
  'csv.excel-text': warning(
    'value was written as an Excel text formula (="0611"), and was read as the text inside',
    'values were written as Excel text formulas (="0611"), and were read as the text inside',
  ),
  'csv.title-line': warning(
    'line above the header rows that is no part of the CMS template (a title or a note) was read past',
    'lines above the header rows that are no part of the CMS template (titles or notes) were read past',
  ),
  'csv.blank-header-row': warning(
    'empty row before the header or column names was skipped',
    'empty rows before the header or column names were skipped',
  ),
  'csv.charge-apart': warning(
    'row went on with a charge of rows before it but not next to it (the file is not in charge order); its rates were added to that charge',
    'rows went on with charges of rows before them but not next to them (the file is not in charge order); their rates were added to those charges',
  ),
  'csv.repeated-header': warning(
    'repeat of the header rows inside the file was skipped',
    'repeats of the header rows inside the file were skipped',
  ),
  'csv.misaligned': error(
    'row had values past its last column that could not be matched to the columns (an unquoted comma?), and was not read',
    'rows had values past their last columns that could not be matched to the columns (an unquoted comma?), and were not read',
  ),
  'csv.misaligned-short': error(
    'row had fewer values than columns and a value of the wrong kind for its column (a value left out before it?), and was not read',
    'rows had fewer values than columns and values of the wrong kind for their columns (values left out before them?), and were not read',
  ),
  'csv.header-misaligned': error(
    'header values row had more values than names (a value with an unquoted comma?): read where its date, version, licence, NPIs and attestation fit, or where they stand with the values past the names not read',
    'header values rows had more values than names (values with unquoted commas?): read where their dates, versions, licences, NPIs and attestations fit, or where they stand with the values past the names not read',
  ),
  'csv.unquoted-thousands': warning(
    'row had a number whose thousands comma was not quoted, read as one number',
    'rows had numbers whose thousands commas were not quoted, read as one number each',
  ),
  'csv.values-without-rate': warning(
    "payer's columns held no rate, only notes, a methodology, allowed amounts or placeholders such as \"N/A\" (a wide file's payer on a row, or a tall file's row naming its payer; not read as a rate)",
    "payers' columns held no rate, only notes, methodologies, allowed amounts or placeholders such as \"N/A\" (wide files' payers on a row, or tall files' rows naming their payers; not read as rates)",
  ),
  'csv.duplicate-rate': warning(
    'rate repeated a rate of its charge read before (same payer, plan, methodology and amounts), and was read once',
    'rates repeated rates of their charges read before (same payer, plan, methodology and amounts), and were read once',
  ),
  // Said for the first such row only (a file's rows are all short or none is): the count is 1.
  'csv.field-count': warning(
    'row has a different number of values than the header (the first such row; later ones are read without a word)',
    'rows have a different number of values than the header',
  ),
  // Said for the first such row only, as csv.field-count: a file writes all its rows alike.
  'csv.spaced-quote': warning(
    'row quoted a value after a space following its comma (a, "b"), read as the value inside the quotes (the first such row; later ones are read without a word)',
    'rows quoted values after spaces following their commas (a, "b"), read as the values inside the quotes',
  ),
  // Said for the first such row only; the rows themselves are rejected for what they lack.
  'csv.fill-down': warning(
    'row left its description and codes empty after a row that had them, as a spreadsheet\'s "fill-down" export leaves them to the row above (not filled in: such rows are rejected; the first such row)',
    'rows left their description and codes empty after rows that had them, as a spreadsheet\'s "fill-down" export leaves them to the row above (not filled in: such rows are rejected)',
  ),
  'json.invalid-item': error('item is not valid JSON', 'items are not valid JSON'),
  'json.unbalanced-item': error(
    'item had a brace or bracket missing or too many, and was not read (the items after it were)',
    'items had a brace or bracket missing or too many, and were not read (the items after them were)',
  ),
  'json.last-item-took-end': error(
    'last item took the closing bracket of the list and the closing brace of the file for its own (a brace or bracket of it missing): the items before it were read, and anything written after the list was not',
    'last items took the closing bracket of the list and the closing brace of the file for their own',
  ),
  'json.stray-text': error(
    'text between items that starts no item (a stray closing brace?) was read past',
    'texts between items that start no item (stray closing braces?) were read past',
  ),
  'json.non-finite': warning(
    'value was written as NaN, Infinity, None, NULL, N/A, a dash or nothing at all, which JSON has not (read as no value)',
    'values were written as NaN, Infinity, None, NULL, N/A, a dash or nothing at all, which JSON has not (read as no value)',
  ),
  'json.trailing-comma': warning(
    'list or object had a comma before its end, which JSON does not allow (ignored)',
    'lists or objects had a comma before their end, which JSON does not allow (ignored)',
  ),
  'json.comma': warning(
    'comma between fields or list entries was missing or extra (read all the same)',
    'commas between fields or list entries were missing or extra (read all the same)',
  ),
  'json.unknown-field': warning(
    'field is not a CMS field and was ignored',
    'fields are not CMS fields and were ignored',
  ),
  'json.field-spelling': warning(
    'field was written another way (letter case, plural, spaces) and read as the CMS field',
    'fields were written another way (letter case, plural, spaces) and read as the CMS fields',
  ),
  'json.unescaped-quote': warning(
    'text had a quote that was not escaped (read as part of the text)',
    'texts had quotes that were not escaped (read as part of the text)',
  ),
  'json.unclosed-string': warning(
    'text was missing its closing quote, or both quotes (read as ending where the next field starts, or as written: $400)',
    'texts were missing their closing quotes, or both quotes (read as ending where the next field starts, or as written: $400)',
  ),
  'json.control-character': warning(
    'text had a line break, tab or other control character written as it is, which JSON wants escaped (read as written)',
    'texts had line breaks, tabs or other control characters written as they are, which JSON wants escaped (read as written)',
  ),
  'json.invalid-escape': warning(
    'text had a backslash before a character JSON does not escape (read as written, but for one before an apostrophe, which was dropped)',
    'texts had backslashes before characters JSON does not escape (read as written, but for those before an apostrophe, which were dropped)',
  ),
  'json.number-form': warning(
    'number was written in a form JSON has not, such as .5, 5. or 05 (read as the number)',
    'numbers were written in forms JSON has not, such as .5, 5. or 05 (read as the numbers)',
  ),
  'json.comment': warning(
    'comment, which JSON does not have, was read past',
    'comments, which JSON does not have, were read past',
  ),
  'json.duplicate-key': warning(
    'field was written twice in one object (its last value read)',
    'fields were written twice in one object (their last values read)',
  ),
  'json.in-list': warning(
    'file wrote its object inside a list, [ { … } ] (the object read)',
    'files wrote their object inside a list, [ { … } ] (the object read)',
  ),
  'json.after-end': error(
    'file had text after the end of its JSON object, which was not read',
    'files had text after the end of their JSON object, which was not read',
  ),
  'json.item-too-large': error(
    'item was larger than 16 MB and was not read',
    'items were larger than 16 MB and were not read',
  ),
  'json.value-too-large': error(
    'top-level value was larger than 16 MB and was not read',
    'top-level values were larger than 16 MB and were not read',
  ),
  'json.single-as-list': warning(
    'value was one entry where the schema wants a list, and was read as a list of one',
    'values were one entry where the schema wants a list, and were read as lists of one',
  ),
  'json.empty-value': warning(
    'value was null or empty, or a list had no entry (read as left out)',
    'values were null or empty, or lists had no entry (read as left out)',
  ),
  'json.wrong-type-read': warning(
    "value had another JSON type than the schema's, and was read all the same",
    "values had other JSON types than the schema's, and were read all the same",
  ),
  'json.wrong-type': error('value has the wrong JSON type', 'values have the wrong JSON type'),
  // What it belongs to is kept without it (a drug_information that is no object).
  'json.wrong-type-left-out': keptError(
    'value had the wrong JSON type and was left out',
    'values had the wrong JSON type and were left out',
  ),
  'json.field-other-name': warning(
    'list name was not the one CMS gives the list but could mean only it (payers for payers_information, codes for code_information, charges for standard_charges), and was read as the CMS list',
    'list names were not the ones CMS gives the lists but could mean only them (payers for payers_information, codes for code_information, charges for standard_charges), and were read as the CMS lists',
  ),
  'json.rate-in-charge': warning(
    "standard charge had a payer's rate written in its own fields (payer_name, standard_charge_dollar, …) rather than in payers_information (read as one of its rates)",
    "standard charges had a payer's rate written in their own fields (payer_name, standard_charge_dollar, …) rather than in payers_information (each read as one of their rates)",
  ),
  'json.code-in-item': warning(
    "item had its code written in its own fields (code, type) rather than in code_information (read as the item's code)",
    'items had their codes written in their own fields (code, type) rather than in code_information (each read as its code)',
  ),
  'json.payers-by-name': warning(
    "standard charge's payers_information was an object of payer entries under payer names rather than a list (each entry read, under the payer its key names when it names none)",
    "standard charges' payers_information were objects of payer entries under payer names rather than lists (each entry read, under the payer its key names when it names none)",
  ),

  // Values, normalised and kept.
  'enum.title-case': warning(
    'value was in another letter case than the CMS value',
    'values were in another letter case than the CMS values',
  ),
  'whitespace.trimmed': warning(
    'value had stray spaces around it or its | separators (trimmed)',
    'values had stray spaces around them or their | separators (trimmed)',
  ),
  'number.formatted': warning(
    'number was written with $, USD or thousands separators',
    'numbers were written with $, USD or thousands separators',
  ),
  'number.scientific': warning(
    'number was written in scientific notation (1.23E+05), as a spreadsheet shows a long number and may have rounded it (read as written)',
    'numbers were written in scientific notation (1.23E+05), as a spreadsheet shows a long number and may have rounded them (read as written)',
  ),
  'number.percent-sign': warning(
    'percentage was written with a % sign',
    'percentages were written with a % sign',
  ),
  'number.as-string': warning(
    'number was written as a JSON string',
    'numbers were written as JSON strings',
  ),
  'json.number-as-text': warning(
    'value the schema wants as text was written as a JSON number or true/false (read as text)',
    'values the schema wants as text were written as JSON numbers or true/false (read as text)',
  ),
  'number.nine-nines': warning(
    "estimated or allowed amount was 999999999, CMS's old sign for no claims data (read as none)",
    "estimated or allowed amounts were 999999999, CMS's old sign for no claims data (read as none)",
  ),
  'number.percentage-under-one': warning(
    'percentage was under 1, as if written as a fraction (0.45 for 45%), and was applied as written',
    'percentages were under 1, as if written as fractions (0.45 for 45%), and were applied as written',
  ),
  'value.placeholder': warning(
    'empty value was written as a placeholder such as "N/A"',
    'empty values were written as placeholders such as "N/A"',
  ),
  'enum.spelling': warning(
    'value was spelled another way than the CMS value (read as the CMS value)',
    'values were spelled other ways than the CMS values (read as the CMS values)',
  ),
  'code.apostrophe': warning(
    "code was written with a spreadsheet's text apostrophe ('0450), read without it",
    "codes were written with a spreadsheet's text apostrophe ('0450), read without it",
  ),
  'code.decimal': warning(
    'code was written as a decimal number (450.0), as pandas writes numbers, read without the decimals',
    'codes were written as decimal numbers (450.0), as pandas writes numbers, read without the decimals',
  ),
  'code.scientific': warning(
    "code was written in a spreadsheet's scientific notation (5.04E+10), which loses its digits; kept as written",
    "codes were written in a spreadsheet's scientific notation (5.04E+10), which loses their digits; kept as written",
  ),
  'code.leading-zeros': warning(
    'code was written without its leading zeros (read with them, as 0450 for revenue code 450)',
    'codes were written without their leading zeros (read with them, as 0450 for revenue code 450)',
  ),
  'code.lower-case': warning(
    'CPT or HCPCS code or modifier was written in lower case (read in upper case)',
    'CPT or HCPCS codes or modifiers were written in lower case (read in upper case)',
  ),
  'modifier.separator': warning(
    'list of modifiers was separated by commas, semicolons, slashes or spaces instead of | (read as separate modifiers)',
    'lists of modifiers were separated by commas, semicolons, slashes or spaces instead of | (read as separate modifiers)',
  ),
  'enum.code-type': warning(
    'code has a type that is not a CMS code type',
    'codes have a type that is not a CMS code type',
  ),
  // Said where the code is read; the charge keeps its other codes (required.code when none is left).
  'code.placeholder': warning(
    'code was written as a placeholder such as "N/A" or "0" (read as no code)',
    'codes were written as placeholders such as "N/A" or "0" (read as no code)',
  ),

  // Charge records (item × setting × modifiers): an error drops the record.
  'required.description': error('charge had no description', 'charges had no description'),
  'required.code': error('charge had no code', 'charges had no code'),
  // A code entry half written is left out; the charge keeps its other codes (required.code when
  // none is left).
  'required.code_type': keptError(
    'charge had a code without a type (that code left out)',
    'charges had codes without a type (those codes left out)',
  ),
  'required.code_value': keptError(
    'charge had a code entry without a code (that entry left out)',
    'charges had code entries without a code (those entries left out)',
  ),
  'required.setting': error('charge had no setting', 'charges had no setting'),
  'enum.setting': error('charge had an unknown setting', 'charges had an unknown setting'),
  // A modifier's setting is optional (JSON since 3.0.0, a CSV modifier's row since 2.2.0): one
  // that is no CMS value is read as none, for every setting, as a missing one is.
  'enum.modifier-setting': keptError(
    'modifier had a setting that is not a CMS value (read for every setting)',
    'modifiers had settings that are not CMS values (each read for every setting)',
  ),
  'required.charge': error(
    'charge had no gross, cash or payer-specific charge',
    'charges had no gross, cash or payer-specific charge',
  ),
  'required.min-max': keptError(
    'charge with a dollar rate had no minimum or maximum',
    'charges with a dollar rate had no minimum or maximum',
  ),
  // A drug's unit and type say what quantity its price is for; the charge and its prices are
  // read without them rather than lost (session 42).
  'required.drug-information': keptError(
    'NDC charge had no drug unit and type',
    'NDC charges had no drug unit and type',
  ),
  // Since 2.2.0 a drug's unit and type go together (CMS's CSV rules; the JSON's drug_information
  // requires both): the half given is read as given, and the item still counts as a drug.
  'required.drug-pair': keptError(
    'charge had a drug unit without its type, or a type without its unit',
    'charges had a drug unit without its type, or a type without its unit',
  ),
  'enum.drug-type': keptError(
    'charge had a drug unit type that is not a CMS value (that type left out)',
    'charges had drug unit types that are not CMS values (those types left out)',
  ),
  'drug.unit-invalid': keptError(
    'charge had a drug unit that is not a number above 0 (that unit left out)',
    'charges had drug units that are not numbers above 0 (those units left out)',
  ),
  'number.invalid': error('number could not be read', 'numbers could not be read'),
  // A charge's own amounts price nothing alone: left out, the charge and its rates kept.
  'charge.amount-invalid': keptError(
    "charge's gross, cash, minimum or maximum could not be read or was negative (left out)",
    "charges' gross, cash, minimum or maximum amounts could not be read or were negative (left out)",
  ),
  'number.not-positive': error('amount was zero or negative', 'amounts were zero or negative'),
  'number.zero': keptError(
    "charge's gross, cash, minimum or maximum was 0, which CMS does not allow (read as none)",
    "charges' gross, cash, minimum or maximum amounts were 0, which CMS does not allow (read as none)",
  ),

  // Rates (payer entries): an error drops the rate.
  'required.payer_name': error('rate had no payer name', 'rates had no payer name'),
  // The payer is known, so the rate is its payer's: read under the plan NO_PLAN_NAMED (ADR 0011).
  'required.plan_name': keptError(
    'rate had no plan name (read under the plan "(no plan named)")',
    'rates had no plan name (read under the plan "(no plan named)")',
  ),
  'required.methodology': error('rate had no methodology', 'rates had no methodology'),
  'enum.methodology': error('rate had an unknown methodology', 'rates had an unknown methodology'),
  'required.negotiated-value': error(
    'rate had no dollar amount, percentage or algorithm',
    'rates had no dollar amount, percentage or algorithm',
  ),
  // A modifier's rate may be priced by its notes alone (CMS's CSV validator, since 2.2.0).
  'required.modifier-value': error(
    "modifier's rate had no dollar amount, percentage, algorithm or notes",
    "modifiers' rates had no dollar amount, percentage, algorithm or notes",
  ),
  'required.modifier-description': error(
    'payer entry of a modifier had no description',
    'payer entries of modifiers had no description',
  ),
  'other.notes-required': keptError(
    'rate with methodology "other" had no notes',
    'rates with methodology "other" had no notes',
  ),
  'v2.estimated-amount-required': keptError(
    'percentage or algorithm rate had no estimated amount',
    'percentage or algorithm rates had no estimated amount',
  ),
  // What the payer allowed, or is estimated to: it supports the rate rather than prices it.
  'allowed.invalid': keptError(
    'rate had an estimated or allowed amount that is not a number above 0 (that amount left out)',
    'rates had estimated or allowed amounts that are not numbers above 0 (those amounts left out)',
  ),
  'v3.count-required': keptError(
    'percentage or algorithm rate had no count',
    'percentage or algorithm rates had no count',
  ),
  'v3.count-invalid': keptError(
    'rate had a count other than "0", "1 through 10" or a number above 10 (the count left out)',
    'rates had a count other than "0", "1 through 10" or a number above 10 (the count left out)',
  ),
  'count.other-form': warning(
    'count was written in another form than CMS\'s "0", "1 through 10" or a whole number above 10 (read as that form)',
    'counts were written in other forms than CMS\'s "0", "1 through 10" or a whole number above 10 (read as that form)',
  ),
  'count.nine-nines': warning(
    "count was 999999999, CMS's old sign for no claims data (read as none)",
    "counts were 999999999, CMS's old sign for no claims data (read as none)",
  ),
  // Header rule: the location names are read from v2's field all the same.
  'v3.location-name': keptError(
    "file of version 3.0.0 named its location names hospital_location (v2's name), where 3.0.0 requires location_name",
    "files of version 3.0.0 named their location names hospital_location (v2's name), where 3.0.0 requires location_name",
  ),
  'v3.estimated-amount': warning(
    'rate had an estimated amount, which 3.0.0 no longer has (the median, percentiles and count replace it; read all the same)',
    'rates had an estimated amount, which 3.0.0 no longer has (the median, percentiles and count replace it; read all the same)',
  ),
  'v3.percentiles-required': keptError(
    'percentage or algorithm rate without a count of "0" had no median, 10th or 90th percentile',
    'percentage or algorithm rates without a count of "0" had no median, 10th or 90th percentile',
  ),
  'v3.count-zero-notes': keptError(
    'rate with count "0" had no notes',
    'rates with count "0" had no notes',
  ),

  // Figures that cannot all be right: read as written, and said.
  'plausible.min-above-max': warning(
    "charge's minimum was above its maximum",
    "charges' minimums were above their maximums",
  ),
  'plausible.outside-min-max': warning(
    "dollar rate was outside its charge's own minimum and maximum",
    "dollar rates were outside their charges' own minimum and maximum",
  ),
  'plausible.percentage-over-100': warning(
    'percentage of billed charges was over 100',
    'percentages of billed charges were over 100',
  ),
} as const satisfies Record<string, RuleDefinition>;

export type RuleId = keyof typeof RULES;

/** Whether a rule's errors leave what they name loaded (see `RuleDefinition.kept`). */
export function isKept(definition: RuleDefinition): boolean {
  return definition.kept === true;
}
