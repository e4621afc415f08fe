-- Changes a law limits per period (swaps of auxiliary, vehicle
-- substitutions): whether a driver's link replaced an earlier driver, and the
-- law's excuse that kept a change from counting (NULL: it counts).
ALTER TABLE permit_drivers ADD COLUMN swap INTEGER NOT NULL DEFAULT 0;
ALTER TABLE permit_drivers ADD COLUMN excuse TEXT;
ALTER TABLE permit_vehicles ADD COLUMN excuse TEXT;
