import { z } from 'zod';

/** The one error shape every failing call answers with (docs/decisions/0004-error-format.md). */
export const FieldErrorSchema = z.object({
  /** Dotted path of the field in the request, e.g. `Password` or `query.UserInput`. */
  field: z.string(),
  /** The rule that failed, e.g. `required`, `too_big`, `invalid_format`, `custom`. */
  rule: z.string(),
  message: z.string(),
});

export const ApiErrorSchema = z.object({
  isSuccess: z.literal(false),
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  errors: z.array(FieldErrorSchema).optional(),
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** The legacy client's result envelope: `isSuccess` plus a message shown to the person. */
export const ResultSchema = z.object({
  isSuccess: z.boolean(),
  message: z.string(),
});
export type Result = z.infer<typeof ResultSchema>;

export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: z.object({
    status: z.enum(['up', 'down']),
    latencyMs: z.number().nullable(),
  }),
});
export type Health = z.infer<typeof HealthSchema>;

/** A bounded string: every text field has a ceiling so no request can be arbitrarily large. */
export function boundedString(label: string, max: number) {
  return z
    .string({ error: requiredString(label) })
    .max(max, `${label} must not be more than ${max} characters.`);
}

/** Tells "missing" from "wrong type" for a string field. */
export function requiredString(label: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined || issue.input === null
      ? `${label} is required.`
      : `${label} must be text.`;
}

/**
 * A whole number as JSON or a query string carries it: a number, or its digits as text ("2").
 * Not `z.coerce.number()`, which read `true` as 1 (a card payment bought plan 1), "1e3" as 1000
 * and "" as 0. `message` is the answer to anything else; `number` adds the field's limits.
 */
export function wholeNumberOrDigits<T extends z.ZodNumber>(
  message: string,
  number: (n: z.ZodNumber) => T,
) {
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\s*\d{1,15}\s*$/)
          .transform(Number),
      ],
      { error: message },
    )
    .pipe(number(z.number().int(message)));
}

/**
 * A query parameter holding JSON (the spec's FilterJson and oobinput), checked against `schema`.
 * Its issues keep their own rule and limits, under the parameter's name ("FilterJson.msaId",
 * `too_big`), so the answer names the key inside the JSON and the rule it broke.
 */
export function jsonParameter<T extends z.ZodType>(
  name: string,
  max: number,
  example: string,
  schema: T,
) {
  return z
    .string({ error: requiredString(name) })
    .max(max, `${name} must not be more than ${max} characters.`)
    .transform((raw, ctx): z.output<T> => {
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: `${name} must be ${example}.` });
        return z.NEVER;
      }
      const parsed = schema.safeParse(json);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
      return z.NEVER;
    });
}
