import {
  SEARCH_MESSAGES,
  SPEC_MESSAGES,
  describeAssumptions,
  formatPhoneNumber,
  type CodeOption,
  type CodeSearchFilter,
  type CustomSearchInput,
  type Entitlement,
  type OopRateRow,
  type PlanDesign,
  type Result,
  type SearchInput,
  type SearchInputs,
  type SendPdfBody,
  type SummaryRow,
} from '@ratelens/core';
import { countReportsOfUserSince, type Database } from '@ratelens/db';
import { sameAccountId, type AuthContext } from '../auth/auth-service.ts';
import { AppError, badRequest, forbidden, tooManyRequests } from '../http/errors.ts';
import { renderRatesPdf } from '../reports/rates-pdf.ts';
import { reportDate } from '../reports/report-format.ts';
import { reportUrl, storeReport } from '../reports/report-links.ts';
import { writeRatesWorkbook } from '../reports/rates-workbook.ts';
import { reportSmsText, type SmsSender } from '../sms/sms.ts';
import { assertOwnAccount, type Entitlements, type SearchPath } from './entitlements.ts';
import type { RatesSearch } from './rates-search.ts';
import { type RateQuery } from './rates-search.ts';

/** The most rows a texted PDF lists (lowest rates first); the summary still covers every hospital. */
export const PDF_MAX_ROWS = 500;

export interface OobRatesDeps {
  db: Database;
  entitlements: Entitlements;
  search: RatesSearch;
  sms: SmsSender;
  publicUrl: string;
  reportLinkTtlHours: number;
  /** Reports one user may have texted in 24 hours (each costs an SMS and stores a PDF). */
  textReportsPerUserPerDay: number;
}

type AnySearchInput = SearchInput & Partial<Pick<CustomSearchInput, 'lives' | 'accumulator'>>;

function inputsOf(input: SearchInput): SearchInputs {
  return {
    stateCode: input.stateCode,
    msaId: input.msaID,
    code: input.code,
    billingClass: input.paymentMethod,
  };
}

function queryOf(input: AnySearchInput): RateQuery {
  return {
    stateCode: input.stateCode,
    msaId: input.msaID,
    code: input.code,
    codeType: input.codeType,
    paymentMethod: input.paymentMethod,
    familyStatus: input.lives ?? 1,
    ytdSpend: input.accumulator ?? 0,
  };
}

/** A search's `userId`, when given, is the session's own account's. */
function searchingAsOwnAccount(auth: AuthContext, input: SearchInput): void {
  if (input.userId && !sameAccountId(input.userId, auth.userId))
    throw forbidden('You can search only as your own account.');
}

/**
 * The rate search of search-and-accounts (issue 4): every call checks the session's own account
 * (an `accout`, `email` or `userId` naming another account is refused) and its entitlement.
 */
export class OobRatesService {
  constructor(private readonly deps: OobRatesDeps) {}

  billingClasses(): string[] {
    return this.deps.search.billingClasses();
  }

  planDesign(): Promise<PlanDesign> {
    return this.deps.search.planDesign();
  }

  /** An `accout`/`email` the client sends must be the account's own e-mail or its employer's. */
  private async checkAccount(auth: AuthContext, ...named: (string | null | undefined)[]) {
    const entitlement = await this.deps.entitlements.entitlement(auth.userId);
    assertOwnAccount(named, entitlement.actual_Email, entitlement.replace_Email);
    return entitlement;
  }

  async entitlement(
    auth: AuthContext,
    query: { email?: string; userId?: string },
  ): Promise<Entitlement> {
    if (query.userId && !sameAccountId(query.userId, auth.userId))
      throw forbidden('You can read only your own entitlement.');
    return this.checkAccount(auth, query.email);
  }

  async states(auth: AuthContext, email: string | undefined): Promise<Record<string, string>> {
    await this.checkAccount(auth, email);
    return this.deps.search.searchableStates();
  }

  async employersAccess(auth: AuthContext, accout: string): Promise<{ API: 'yes' | 'no' }[]> {
    const entitlement = await this.checkAccount(auth, accout);
    return [{ API: entitlement.reportType === 'employer' ? 'yes' : 'no' }];
  }

  async codeOptions(filter: CodeSearchFilter): Promise<CodeOption[]> {
    const msaId =
      filter.msaId ?? (await this.deps.search.msaIdByName(filter.stateCode, filter.msaName ?? ''));
    if (!msaId) return [];
    return this.deps.search.codeOptions(filter.stateCode, msaId, filter.queryText);
  }

  private async authorize(auth: AuthContext, input: AnySearchInput, path: SearchPath) {
    searchingAsOwnAccount(auth, input);
    return this.deps.entitlements.authorizeSearch(auth.userId, inputsOf(input), path, [
      input.accout,
      input.logged_useremail,
    ]);
  }

  /** A search that finds no rate is given back: only a search with rates uses the allowance. */
  async search(auth: AuthContext, input: AnySearchInput, path: SearchPath): Promise<OopRateRow[]> {
    const counted = await this.authorize(auth, input, path);
    const rows = await this.deps.search.rates(queryOf(input));
    if (rows.length === 0) await this.deps.entitlements.refundEmptySearch(auth.userId, counted);
    return rows;
  }

  /** The summary of the account's latest search; an employer's account may ask for any. */
  async summary(auth: AuthContext, input: SearchInput): Promise<SummaryRow[]> {
    searchingAsOwnAccount(auth, input);
    const entitlement = await this.checkAccount(auth, input.accout, input.logged_useremail);
    if (
      entitlement.reportType !== 'employer' &&
      !(await this.deps.entitlements.isLatestSearch(auth.userId, inputsOf(input)))
    )
      throw forbidden('Run the search first: the summary is of your latest search.');
    return this.deps.search.summary(queryOf(input));
  }

  private async assumptions(input: AnySearchInput): Promise<string[]> {
    const plan = await this.deps.search.planDesign();
    return describeAssumptions(input.lives ?? 1, input.accumulator ?? 0, plan);
  }

  /** Checks the entitlement before the first byte, then writes the workbook as rows arrive. */
  async prepareExport(auth: AuthContext, input: AnySearchInput, path: SearchPath) {
    await this.authorize(auth, input, path);
    const entitlement = await this.deps.entitlements.entitlement(auth.userId);
    const assumptions = await this.assumptions(input);
    const query = queryOf(input);
    // Named as the database names the place: the client's stateName and msaName are its words.
    const { stateName, msaName } = await this.deps.search.placeNames(query);
    return {
      fileName: `${stateName}.xlsx`,
      write: (out: NodeJS.WritableStream) =>
        writeRatesWorkbook(out, {
          title: `Negotiated rates for code ${query.code.toUpperCase()} in ${msaName ?? stateName}`,
          rows: this.deps.search.streamRates(query),
          assumptions,
          includeNotes: entitlement.reportType === 'employer',
          includeMemberOop: true,
        }),
    };
  }

  async individualCount(auth: AuthContext, userIdHeader: string | undefined) {
    if (userIdHeader && !sameAccountId(userIdHeader, auth.userId))
      throw forbidden('You can read only your own subscription.');
    const entitlement = await this.deps.entitlements.entitlement(auth.userId);
    if (!entitlement.individualSubscription && entitlement.subscriptionStatus === 'none')
      throw forbidden(SPEC_MESSAGES.noSubscription);
    return {
      isSuccess: true,
      message: `${entitlement.individualSubscriptionCount} searches remain on your subscription.`,
      remaningSearchCount: entitlement.individualSubscriptionCount,
    };
  }

  /** Renders the search as a PDF, stores it behind an expiring link, and texts the link. */
  async textReport(auth: AuthContext, body: SendPdfBody): Promise<Result> {
    if (body.userId && !sameAccountId(body.userId, auth.userId))
      throw badRequest('userId must be the signed-in account.');
    const day = new Date(Date.now() - 24 * 3_600_000);
    if (
      (await countReportsOfUserSince(this.deps.db, auth.userId, day)) >=
      this.deps.textReportsPerUserPerDay
    )
      throw tooManyRequests(SEARCH_MESSAGES.tooManyTexts(this.deps.textReportsPerUserPerDay));
    const input: AnySearchInput = body.search;
    const counted = await this.authorize(auth, input, input.lives ? 'custom' : 'standard');
    const entitlement = await this.deps.entitlements.entitlement(auth.userId);
    const query = queryOf(input);
    const [rows, summary, assumptions, place] = await Promise.all([
      this.deps.search.rates(query),
      this.deps.search.summary(query),
      this.assumptions(input),
      this.deps.search.placeNames(query),
    ]);
    if (rows.length === 0) {
      await this.deps.entitlements.refundEmptySearch(auth.userId, counted);
      throw badRequest('This search found no rates to send.');
    }
    const ascending = rows.sort((a, b) => a.rates - b.rates).slice(0, PDF_MAX_ROWS);
    const pdf = await renderRatesPdf({
      // The spec's pdfHeader and pdfFooter are not printed, nor the client's names of the place:
      // a PDF texted from RateLens's number would carry whatever words a client chose (ADR 0016).
      header: `RateLens: code ${query.code.toUpperCase()} in ${place.msaName ?? place.stateName}`,
      footer: SEARCH_MESSAGES.footerNotice,
      rows: ascending,
      summary,
      includeNotes: entitlement.reportType === 'employer',
      assumptions,
      generatedAt: new Date(),
    });
    const { token, expiresAt } = await storeReport(this.deps.db, {
      userId: auth.userId,
      fileName: `ratelens-${query.code.toUpperCase()}-${input.stateCode}.pdf`,
      pdf,
      ttlHours: this.deps.reportLinkTtlHours,
    });
    const link = reportUrl(this.deps.publicUrl, token);
    try {
      await this.deps.sms.send({ to: `+1${body.number}`, text: reportSmsText(link, expiresAt) });
    } catch {
      throw new AppError(502, SEARCH_MESSAGES.smsFailed);
    }
    return {
      isSuccess: true,
      // The day as the text message words it, not a raw UTC time stamp.
      message: `Your report was sent by text message to ${formatPhoneNumber(body.number)}. The link works until ${reportDate(expiresAt)}.`,
    };
  }
}
