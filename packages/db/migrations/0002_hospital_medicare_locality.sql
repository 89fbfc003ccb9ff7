ALTER TABLE "hospitals" ADD COLUMN "medicare_carrier" text;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "medicare_locality" text;