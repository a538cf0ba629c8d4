CREATE TABLE "oauth_provider_clients" (
	"project_id" text NOT NULL,
	"client_id" text NOT NULL,
	"display_name" text NOT NULL,
	"client_type" text NOT NULL,
	"secret_hash" text,
	"redirect_uris" text[] NOT NULL,
	"grant_types" text[] NOT NULL,
	"scopes" text[] NOT NULL,
	"logo_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_provider_clients_project_id_client_id_pk" PRIMARY KEY("project_id","client_id"),
	CONSTRAINT "oauth_provider_clients_type" CHECK ("oauth_provider_clients"."client_type" in ('confidential', 'public')),
	CONSTRAINT "oauth_provider_clients_secret" CHECK (("oauth_provider_clients"."client_type" = 'confidential') = ("oauth_provider_clients"."secret_hash" is not null))
);
--> statement-breakpoint
CREATE TABLE "oauth_provider_consents" (
	"project_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_provider_consents_project_id_user_id_client_id_pk" PRIMARY KEY("project_id","user_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_provider_keys" (
	"project_id" text NOT NULL,
	"kid" text NOT NULL,
	"alg" text NOT NULL,
	"private_jwk_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_provider_keys_project_id_kid_pk" PRIMARY KEY("project_id","kid")
);
--> statement-breakpoint
CREATE TABLE "oauth_provider_records" (
	"project_id" text NOT NULL,
	"model" text NOT NULL,
	"id_hash" text NOT NULL,
	"uid_hash" text,
	"grant_id" text,
	"account_id" uuid,
	"client_id" text,
	"payload" jsonb NOT NULL,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_provider_records_project_id_model_id_hash_pk" PRIMARY KEY("project_id","model","id_hash")
);
--> statement-breakpoint
ALTER TABLE "oauth_provider_clients" ADD CONSTRAINT "oauth_provider_clients_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_provider_consents" ADD CONSTRAINT "oauth_provider_consents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_provider_consents" ADD CONSTRAINT "oauth_provider_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_provider_consents" ADD CONSTRAINT "oauth_provider_consents_client_fk" FOREIGN KEY ("project_id","client_id") REFERENCES "public"."oauth_provider_clients"("project_id","client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_provider_keys" ADD CONSTRAINT "oauth_provider_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_provider_records" ADD CONSTRAINT "oauth_provider_records_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_provider_records" ADD CONSTRAINT "oauth_provider_records_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_provider_clients_client_id_idx" ON "oauth_provider_clients" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_provider_keys_alg_idx" ON "oauth_provider_keys" USING btree ("project_id","alg");--> statement-breakpoint
CREATE INDEX "oauth_provider_records_grant_idx" ON "oauth_provider_records" USING btree ("project_id","grant_id");--> statement-breakpoint
CREATE INDEX "oauth_provider_records_uid_idx" ON "oauth_provider_records" USING btree ("project_id","model","uid_hash");--> statement-breakpoint
CREATE INDEX "oauth_provider_records_expiry_idx" ON "oauth_provider_records" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oauth_provider_records_account_idx" ON "oauth_provider_records" USING btree ("account_id");