ALTER TABLE "mrf_files" ADD COLUMN "http_etag" text;--> statement-breakpoint
ALTER TABLE "mrf_files" ADD COLUMN "http_last_modified" text;