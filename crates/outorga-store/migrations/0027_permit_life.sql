-- The life of a permit as the core's machine keeps it (outorga-core
-- engine::permit_life): a history step records its ground — the reason of
-- a reserve, the ground of a notice to correct, the ground a permit ended
-- on (`term`, `death`, `age_limit`…). Steps recorded before have none.
ALTER TABLE permit_history ADD COLUMN ground TEXT;
