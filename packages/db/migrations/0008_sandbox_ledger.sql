CREATE TABLE "sandbox_ledger" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"invoice_number" text,
	"record" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sandbox_ledger_invoice_idx" ON "sandbox_ledger" USING btree ("invoice_number");