-- Alert pushes (src/alerts/push.ts, docs/mail.md § Alert pushes): the browser push subscriptions
-- of an alert, sent with it from the installed app ("Also notify me on this device"). A row is
-- pending until a confirmation link mailed after it is opened (confirmed_at): nothing is pushed
-- before the address has confirmed. It goes with its alert, and when the push service answers
-- 404 or 410.
CREATE TABLE "alert_push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_push_subscriptions_alert_endpoint_unique" UNIQUE("alert_id","endpoint")
);
--> statement-breakpoint
ALTER TABLE "alert_push_subscriptions" ADD CONSTRAINT "alert_push_subscriptions_alert_id_alert_subscriptions_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alert_subscriptions"("id") ON DELETE cascade ON UPDATE no action;
