CREATE TABLE "job_runs" (
	"name" varchar(64) PRIMARY KEY NOT NULL,
	"startedAt" timestamp with time zone NOT NULL,
	"finishedAt" timestamp with time zone,
	"runs" integer DEFAULT 1 NOT NULL
);
