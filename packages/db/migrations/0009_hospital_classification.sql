ALTER TABLE "hospitals" ADD COLUMN "hospital_type" text;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "health_system_type" text;