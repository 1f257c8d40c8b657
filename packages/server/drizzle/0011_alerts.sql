-- Area alerts (docs/product.md § Alerts): a visitor subscribes with an e-mail address to new
-- results of a search. Nothing is mailed before the address confirms (confirmed_at). The
-- digests record each item mailed once per subscription in alert_deliveries.
CREATE TABLE "alert_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"locale" text NOT NULL,
	"kind" text NOT NULL,
	"filters" jsonb NOT NULL,
	"frequency" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_digest_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_subscriptions_locale_check" CHECK ("locale" IN ('ua', 'en_GB')),
	CONSTRAINT "alert_subscriptions_kind_check" CHECK ("kind" IN ('services', 'vacancies')),
	CONSTRAINT "alert_subscriptions_frequency_check" CHECK ("frequency" IN ('instant', 'daily', 'weekly')),
	CONSTRAINT "alert_subscriptions_email_check" CHECK ("email" = lower("email"))
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"subscription_id" uuid NOT NULL,
	"item_kind" text NOT NULL,
	"item_id" uuid NOT NULL,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "alert_deliveries_subscription_id_item_kind_item_id_pk" PRIMARY KEY("subscription_id","item_kind","item_id")
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_subscription_id_alert_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."alert_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_subscriptions_email_idx" ON "alert_subscriptions" USING btree ("email");--> statement-breakpoint
CREATE INDEX "alert_subscriptions_confirmed_frequency_idx" ON "alert_subscriptions" USING btree ("frequency","last_digest_at") WHERE "confirmed_at" IS NOT NULL;
