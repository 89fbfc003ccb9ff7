ALTER TABLE "mrf_files" ADD COLUMN "source_page_url" text;--> statement-breakpoint
ALTER TABLE "mrf_files" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "mrf_files" ADD COLUMN "contact_email" text;