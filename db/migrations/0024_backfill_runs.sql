CREATE TABLE "backfill_runs" (
	"name" varchar(128) PRIMARY KEY NOT NULL,
	"lastKey" bigint DEFAULT 0 NOT NULL,
	"rowsDone" bigint DEFAULT 0 NOT NULL,
	"startedAt" timestamp with time zone DEFAULT now() NOT NULL,
	"updatedAt" timestamp with time zone DEFAULT now() NOT NULL,
	"finishedAt" timestamp with time zone
);
