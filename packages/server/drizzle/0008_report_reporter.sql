-- Who filed a report, when they were logged in (docs/security.md § Privacy): their data export
-- lists it, and deleting their account clears it (ON DELETE SET NULL, description erased).
ALTER TABLE "reports" ADD COLUMN "reporter_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_accounts_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_reporter_idx" ON "reports" USING btree ("reporter_id");
