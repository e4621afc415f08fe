-- The last day of a suspension imposed on a driver's credential by a final
-- auto (the holder's suspension suspends the permit instead).
ALTER TABLE permit_drivers ADD COLUMN suspended_until TEXT;
