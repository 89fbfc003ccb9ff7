CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"percent" integer NOT NULL,
	"valid_from" timestamp with time zone DEFAULT now() NOT NULL,
	"valid_to" timestamp with time zone,
	"max_uses" integer,
	"max_uses_per_user" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_offers" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"plan_id" integer NOT NULL,
	"state_code" text,
	"price_cents" bigint NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "installments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"due_on" date NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text DEFAULT 'due' NOT NULL,
	"order_id" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"plan_id" integer NOT NULL,
	"custom_offer_id" integer,
	"state_code" text,
	"installment" boolean NOT NULL,
	"file_count" integer NOT NULL,
	"unit_price_cents" bigint NOT NULL,
	"total_price_cents" bigint NOT NULL,
	"discount_cents" bigint NOT NULL,
	"final_price_cents" bigint NOT NULL,
	"installment_cents" bigint NOT NULL,
	"maintenance_cents" bigint NOT NULL,
	"due_today_cents" bigint NOT NULL,
	"subscription_id" uuid
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"kind" text NOT NULL,
	"idempotency_scope" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"method" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"coupon_id" integer,
	"email" text NOT NULL,
	"account_type" text,
	"last4" text,
	"gateway" text NOT NULL,
	"invoice_number" text NOT NULL,
	"transaction_id" text,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otp_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone,
	"donation_token_hash" text,
	"donation_token_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"gateway" text NOT NULL,
	"customer_profile_id" text NOT NULL,
	"payment_profile_id" text NOT NULL,
	"account_type" text NOT NULL,
	"last4" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"subscription_type" text NOT NULL,
	"access_type" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"search_count" integer,
	"price_description" text DEFAULT '' NOT NULL,
	"installment_eligible" boolean DEFAULT false NOT NULL,
	"maintenance_fee_cents" bigint DEFAULT 0 NOT NULL,
	"negotiable" boolean DEFAULT false NOT NULL,
	"includes_data_feed" boolean DEFAULT false NOT NULL,
	"term_months" integer DEFAULT 12 NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "plan_id" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "installment" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "payment_profile_id" uuid;--> statement-breakpoint
ALTER TABLE "custom_offers" ADD CONSTRAINT "custom_offers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_offers" ADD CONSTRAINT "custom_offers_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installments" ADD CONSTRAINT "installments_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installments" ADD CONSTRAINT "installments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_custom_offer_id_custom_offers_id_fk" FOREIGN KEY ("custom_offer_id") REFERENCES "public"."custom_offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_profiles" ADD CONSTRAINT "payment_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_code_key" ON "coupons" USING btree ("code");--> statement-breakpoint
CREATE INDEX "custom_offers_user_idx" ON "custom_offers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "installments_seq_key" ON "installments" USING btree ("subscription_id","seq");--> statement-breakpoint
CREATE INDEX "installments_due_idx" ON "installments" USING btree ("due_on","status");--> statement-breakpoint
CREATE INDEX "order_items_order_idx" ON "order_items" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_key" ON "orders" USING btree ("idempotency_scope","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_invoice_key" ON "orders" USING btree ("invoice_number");--> statement-breakpoint
CREATE INDEX "orders_user_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_pending_idx" ON "orders" USING btree ("created_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "otp_codes_email_idx" ON "otp_codes" USING btree ("email","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "otp_codes_donation_token_key" ON "otp_codes" USING btree ("donation_token_hash");--> statement-breakpoint
CREATE INDEX "payment_profiles_user_idx" ON "payment_profiles" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_payment_profile_id_fk" FOREIGN KEY ("payment_profile_id") REFERENCES "public"."payment_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The starting catalogue (an admin changes it at /admin/catalogue). Prices in cents.
INSERT INTO "plans" ("title", "subscription_type", "access_type", "price_cents", "search_count", "price_description", "installment_eligible", "maintenance_fee_cents", "negotiable", "includes_data_feed", "term_months", "sort_order") VALUES
  ('State Negotiated Rates', 'Annual', 'State', 2500, NULL, 'Every hospital file of the state for a year, refreshed as hospitals publish', true, 500, false, true, 12, 1),
  ('State Rates with Medicare Pricing', 'Annual', 'State', 4000, NULL, 'The state''s rates with each rate as a multiple of Medicare, and dashboard access', true, 500, false, true, 12, 2),
  ('State Negotiated Rates, Monthly', 'Monthly', 'State', 400, NULL, 'Every hospital file of the state for one month', false, 0, false, false, 1, 3),
  ('All States', 'Annual', 'All States', 0, NULL, 'National data access for every state', false, 0, true, true, 12, 4),
  ('Individual Search 5', 'Individual Search', 'National', 999, 5, '5 rate searches in any state within a year', false, 0, false, false, 12, 5),
  ('Individual Search 15', 'Individual Search', 'National', 2499, 15, '15 rate searches in any state within a year', false, 0, false, false, 12, 6),
  ('Individual Search 30', 'Individual Search', 'National', 4499, 30, '30 rate searches in any state within a year', false, 0, false, false, 12, 7),
  ('Individual Search 60', 'Individual Search', 'National', 7999, 60, '60 rate searches in any state within a year', false, 0, false, false, 12, 8);
