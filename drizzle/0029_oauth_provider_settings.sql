CREATE TABLE "oauth_provider_settings" (
	"project_id" text PRIMARY KEY NOT NULL,
	"dynamic_client_registration" boolean DEFAULT false NOT NULL,
	"resources" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_provider_settings" ADD CONSTRAINT "oauth_provider_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;