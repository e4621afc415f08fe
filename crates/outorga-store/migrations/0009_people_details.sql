-- What a clerk records about a person beyond the document and the name: the
-- facts the law's requirements read (NULL = not recorded: the engine reports
-- the requirement as "to be checked", never as met), the CNH, the address and
-- contacts. Dates are ISO text (YYYY-MM-DD) on both backends.
ALTER TABLE people ADD COLUMN birth_date TEXT;
ALTER TABLE people ADD COLUMN resident_since TEXT;
ALTER TABLE people ADD COLUMN education TEXT;
ALTER TABLE people ADD COLUMN disabled INTEGER;
ALTER TABLE people ADD COLUMN public_employee INTEGER;
ALTER TABLE people ADD COLUMN transport_operator INTEGER;
ALTER TABLE people ADD COLUMN final_conviction INTEGER;
-- Documents presented, by the names the rulebooks use (JSON array).
ALTER TABLE people ADD COLUMN documents TEXT;
ALTER TABLE people ADD COLUMN cnh_number TEXT;
-- JSON array of categories, e.g. ["A","B"].
ALTER TABLE people ADD COLUMN cnh_categories TEXT;
ALTER TABLE people ADD COLUMN cnh_paid_activity INTEGER;
ALTER TABLE people ADD COLUMN cnh_first_issued TEXT;
ALTER TABLE people ADD COLUMN cnh_expires TEXT;
ALTER TABLE people ADD COLUMN cnh_suspended_until TEXT;
ALTER TABLE people ADD COLUMN street TEXT NOT NULL DEFAULT '';
ALTER TABLE people ADD COLUMN district TEXT NOT NULL DEFAULT '';
ALTER TABLE people ADD COLUMN city TEXT NOT NULL DEFAULT '';
ALTER TABLE people ADD COLUMN postal_code TEXT NOT NULL DEFAULT '';
ALTER TABLE people ADD COLUMN phone TEXT NOT NULL DEFAULT '';
ALTER TABLE people ADD COLUMN email TEXT NOT NULL DEFAULT '';
