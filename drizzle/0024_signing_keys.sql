CREATE TABLE "signing_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"algorithm" text DEFAULT 'ES256' NOT NULL,
	"derivation" text DEFAULT 'sealed-seed' NOT NULL,
	"seed_sealed" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activated_at" timestamp with time zone,
	"deactivated_at" timestamp with time zone,
	"retired_at" timestamp with time zone,
	CONSTRAINT "signing_keys_state" CHECK ("signing_keys"."state" in ('next', 'current', 'previous', 'retired')),
	CONSTRAINT "signing_keys_seed" CHECK (("signing_keys"."derivation" = 'sealed-seed' and ("signing_keys"."seed_sealed" is not null or "signing_keys"."state" = 'retired')) or ("signing_keys"."derivation" = 'server-secret' and "signing_keys"."seed_sealed" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_next_one_current_idx" ON "signing_keys" USING btree ("state") WHERE "signing_keys"."state" in ('next', 'current');