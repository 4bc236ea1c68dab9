CREATE OR REPLACE FUNCTION ptdisease_audit_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'ptdisease_audit is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER ptdisease_audit_no_update_delete
  BEFORE UPDATE OR DELETE ON "ptdisease_audit"
  FOR EACH ROW EXECUTE FUNCTION ptdisease_audit_append_only();
